"""What every registry adapter declares about itself, so that routing and credentials live with
the adapter: where the service lives, the limits it publishes, how a request to it carries the
user's identity and key, and which questions it answers (a work by DOI, a title search).

The HTTP client, the settings and the verifier read these declarations; none of them names a
source's parameters or keys by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from citecore.model import Source
from citecore.registries.record import WorkRecord
from citecore.registries.request import RegistryRequest


@dataclass(frozen=True, slots=True)
class SourcePolicy:
    """A registry's published limits: request rate and simultaneous connections."""

    requests_per_second: float
    concurrency: int


@dataclass(frozen=True, slots=True)
class Identity:
    """Who is asking: the contact address and the API keys (by environment variable name)."""

    email: str = ""
    api_keys: Mapping[str, str] = field(default_factory=dict, repr=False)  # never shown


@dataclass(frozen=True, slots=True)
class Signature:
    """What a request carries to identify its sender: query parameters and headers."""

    params: tuple[tuple[str, str], ...] = ()
    headers: tuple[tuple[str, str], ...] = ()


def unsigned(_identity: Identity) -> Signature:
    """For a registry that asks nobody to say who they are."""
    return Signature()


class Keyless(Enum):
    """How a title search may be used without the registry's API key."""

    OPEN = "open"  # open to everyone at the published rate
    LAST_RESORT = "last resort"  # shared by every keyless user: only when nothing else can answer
    NEVER = "never"  # the search needs the key


@dataclass(frozen=True, slots=True)
class TitleSearch:
    """A registry's title search: the request for a title, the parser of its answer, and, for
    a registry whose search weighs authors too, the request for a title and first author."""

    request: Callable[[str], RegistryRequest]
    parse: Callable[[str], list[WorkRecord]]
    without_key: Keyless = Keyless.OPEN
    request_with_author: Callable[[str, str], RegistryRequest] | None = None

    def ask(self, title: str, first_author: str = "") -> RegistryRequest:
        """The request for `title`, with the first author's family name where it is used."""
        if first_author and self.request_with_author is not None:
            return self.request_with_author(title, first_author)
        return self.request(title)


@dataclass(frozen=True, slots=True)
class DoiLookup:
    """A registry's record of one DOI: the request and the parser of its answer."""

    request: Callable[[str], RegistryRequest]
    parse: Callable[[str], WorkRecord]


@dataclass(frozen=True, slots=True)
class Registry:
    """One registry as the client and the verifier see it."""

    source: Source
    base_url: str
    policy: SourcePolicy
    # The environment variable holding the user's key for this registry, and the limits that
    # hold with a key, when they differ.
    key_variable: str = ""
    keyed_policy: SourcePolicy | None = None
    sign: Callable[[Identity], Signature] = unsigned
    title_search: TitleSearch | None = None
    doi_lookup: DoiLookup | None = None
    # A registry that answers nobody who does not say who they are (Unpaywall).
    needs_email: bool = False

    def has_key(self, identity: Identity) -> bool:
        """True when the user holds this registry's key."""
        return bool(self.key_variable) and self.key_variable in identity.api_keys

    def policy_for(self, identity: Identity) -> SourcePolicy:
        """The published limits that hold for this user (a key may raise them)."""
        if self.keyed_policy is not None and self.has_key(identity):
            return self.keyed_policy
        return self.policy

    def usable(self, identity: Identity) -> bool:
        """False for a registry that would refuse this user (no contact address)."""
        return bool(identity.email) or not self.needs_email

    def searches_titles(self, identity: Identity, last_resort: bool = False) -> bool:
        """True when this user may ask the title search: always when it is open or the key is
        held; a shared keyless search only as a `last_resort`."""
        search = self.title_search
        if search is None:
            return False
        if search.without_key is Keyless.OPEN or self.has_key(identity):
            return True
        return last_resort and search.without_key is Keyless.LAST_RESORT
