"""How the registry client behaves: published limits, base URLs, identification, keys.

Kept apart from the client so that building settings never imports the HTTP stack.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from citecore.errors import OptionsError
from citecore.model import Source
from citecore.options import Options
from citecore.registries.catalogue import KEY_VARIABLES, REGISTRIES
from citecore.registries.registry import Identity, SourcePolicy
from citecore.version import __version__

# The published limits and addresses, as each adapter declares them (docs/design.md,
# "Manners with the registries"); override per run with ClientSettings or the environment.
POLICIES: Mapping[Source, SourcePolicy] = {s: r.policy for s, r in REGISTRIES.items()}
BASE_URLS: Mapping[Source, str] = {s: r.base_url for s, r in REGISTRIES.items()}


def rate_variables(source: Source) -> tuple[str, str]:
    """The environment variables that set a source's request rate (per second) and how many
    requests may run at once: `CITECHECK_CROSSREF_RATE`, `CITECHECK_CROSSREF_CONCURRENCY`."""
    name = source.value.upper()
    return f"CITECHECK_{name}_RATE", f"CITECHECK_{name}_CONCURRENCY"


def _policy(source: Source, policy: SourcePolicy, environ: Mapping[str, str]) -> SourcePolicy:
    """`policy` with the user's own limits for `source` (a mirror, a paid tier, a local
    service); a value that is not a positive number is refused in one line."""
    rate_name, concurrency_name = rate_variables(source)
    rate, concurrency = policy.requests_per_second, policy.concurrency
    try:
        if environ.get(rate_name):
            rate = float(environ[rate_name])
        if environ.get(concurrency_name):
            concurrency = int(environ[concurrency_name])
    except ValueError:
        rate = concurrency = 0
    if not rate > 0 or concurrency < 1:
        raise OptionsError(
            f"{rate_name} must be a positive number and {concurrency_name} a positive whole "
            f"number (got {environ.get(rate_name)!r}, {environ.get(concurrency_name)!r})"
        )
    return SourcePolicy(rate, concurrency)


def base_url_variable(source: Source) -> str:
    """The environment variable that overrides a source's base URL (`CITECHECK_CROSSREF_URL`)."""
    return f"CITECHECK_{source.value.upper()}_URL"


@dataclass(frozen=True, slots=True)
class ClientSettings:
    """How the client behaves; `from_environment` reads the overrides and keys."""

    email: str = ""
    timeout: float = 20.0
    offline: bool = False
    refresh: bool = False
    max_attempts: int = 4
    backoff_base: float = 0.5
    backoff_cap: float = 8.0
    retry_after_cap: float = 60.0
    base_urls: Mapping[Source, str] = field(default_factory=lambda: dict(BASE_URLS))
    policies: Mapping[Source, SourcePolicy] = field(default_factory=lambda: dict(POLICIES))
    # Never in a repr: a debug log or a traceback must not show a key.
    api_keys: Mapping[str, str] = field(default_factory=dict, repr=False)

    def user_agent(self) -> str:
        """How citecheck names itself to every host: its version and the contact address."""
        contact = f" (mailto:{self.email})" if self.email else ""
        return f"citecheck/{__version__}{contact}"

    def identity(self) -> Identity:
        """Who the requests say is asking: the contact address and the keys."""
        return Identity(self.email, self.api_keys)

    @classmethod
    def from_environment(
        cls, environ: Mapping[str, str] | None = None, /, **overrides: object
    ) -> ClientSettings:
        """Settings with base-URL overrides (`CITECHECK_<SOURCE>_URL`), limits
        (`CITECHECK_<SOURCE>_RATE` in requests per second, `CITECHECK_<SOURCE>_CONCURRENCY`),
        the contact email (`CITECHECK_EMAIL`) and API keys (`OPENALEX_API_KEY`, `S2_API_KEY`,
        `NCBI_API_KEY`)."""
        environ = os.environ if environ is None else environ
        base_urls = dict(BASE_URLS)
        for source in Source:
            if environ.get(base_url_variable(source)):
                base_urls[source] = environ[base_url_variable(source)].rstrip("/")
        keys = {name: environ[name] for name in KEY_VARIABLES if environ.get(name)}
        holder = Identity(api_keys=keys)
        policies = {source: r.policy_for(holder) for source, r in REGISTRIES.items()}
        # The published limits hold unless the user says otherwise: a base URL alone (a mirror
        # of unknown capacity) never lifts them.
        policies = {source: _policy(source, p, environ) for source, p in policies.items()}
        settings = cls(
            email=environ.get("CITECHECK_EMAIL", ""),
            base_urls=base_urls,
            policies=policies,
            api_keys=keys,
        )
        return replace(settings, **overrides)  # type: ignore[arg-type]


def settings_for(options: Options) -> ClientSettings:
    """The client settings a run's options ask for (offline, refresh, timeout, contact), with
    base URLs, limits and keys from the environment."""
    overrides: dict[str, object] = {
        "offline": options.offline,
        "refresh": options.refresh,
        "timeout": options.timeout,
    }
    if options.email:
        overrides["email"] = options.email
    return ClientSettings.from_environment(**overrides)
