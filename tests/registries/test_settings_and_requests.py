"""What the registry client is told by the environment (base URLs, limits, keys, contact),
how requests name themselves for the cache, and the resume file's promises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecore.errors import InputError, OptionsError
from citecore.model import Reference, ReferenceResult, ReferenceVerdict, Source, SourceLocation
from citecore.registries import arxiv, crossref, dblp, openalex, pubmed, semantic_scholar
from citecore.registries.request import RegistryRequest, quote_doi
from citecore.registries.settings import (
    BASE_URLS,
    POLICIES,
    ClientSettings,
    base_url_variable,
    rate_variables,
)
from citecore.verify.progress import load_progress, references_digest, save_progress


def test_published_limits_are_the_defaults() -> None:
    settings = ClientSettings.from_environment({})
    assert settings.base_urls == BASE_URLS
    assert settings.policies == POLICIES
    assert settings.policies[Source.ARXIV].requests_per_second == pytest.approx(1 / 3)
    assert settings.api_keys == {} and settings.email == ""


def test_a_mirror_never_lifts_a_limit_but_the_user_may() -> None:
    mirror = {base_url_variable(Source.CROSSREF): "http://mirror.local/"}
    settings = ClientSettings.from_environment(mirror)
    assert settings.base_urls[Source.CROSSREF] == "http://mirror.local"  # trailing / dropped
    assert settings.policies[Source.CROSSREF] == POLICIES[Source.CROSSREF]
    rate, concurrency = rate_variables(Source.CROSSREF)
    assert (rate, concurrency) == ("CITECHECK_CROSSREF_RATE", "CITECHECK_CROSSREF_CONCURRENCY")
    lifted = ClientSettings.from_environment({**mirror, rate: "50", concurrency: "10"})
    policy = lifted.policies[Source.CROSSREF]
    assert (policy.requests_per_second, policy.concurrency) == (50.0, 10)


@pytest.mark.parametrize(("rate", "concurrency"), [("0", ""), ("-1", ""), ("fast", ""), ("", "0")])
def test_a_limit_that_is_no_number_is_one_clear_error(rate: str, concurrency: str) -> None:
    names = rate_variables(Source.ARXIV)
    with pytest.raises(OptionsError, match="CITECHECK_ARXIV_RATE must be a positive number"):
        ClientSettings.from_environment({names[0]: rate, names[1]: concurrency})


def test_keys_and_contact_come_from_the_environment_only() -> None:
    environ = {"NCBI_API_KEY": "k1", "S2_API_KEY": "k2", "OTHER_KEY": "x", "CITECHECK_EMAIL": "a@b"}
    settings = ClientSettings.from_environment(environ, timeout=5.0, offline=True)
    assert settings.api_keys == {"NCBI_API_KEY": "k1", "S2_API_KEY": "k2"}
    assert settings.email == "a@b" and settings.timeout == 5.0 and settings.offline
    # An NCBI key raises PubMed's published limit from 3 to 10 requests a second.
    assert settings.policies[Source.PUBMED].requests_per_second == 10


def test_requests_name_themselves_stably_and_without_credentials() -> None:
    first = crossref.work_request("10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI3>3.0.CO;2-0")
    again = crossref.work_request("10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI3>3.0.CO;2-0")
    assert first.cache_key() == again.cache_key()
    assert "<" not in first.path and first.path.count("/") >= 3  # escaped, slashes kept
    shuffled = RegistryRequest(Source.DBLP, "/x", (("b", "2"), ("a", "1")))
    ordered = RegistryRequest(Source.DBLP, "/x", (("a", "1"), ("b", "2")))
    assert shuffled.cache_key() == ordered.cache_key()
    assert quote_doi("10.1000/a b#c") == "10.1000/a%20b%23c"
    for request in (
        crossref.search_request("Deep learning", "LeCun"),
        openalex.search_request("Deep learning"),
        arxiv.search_request("Deep learning"),
        dblp.search_request("Deep learning"),
        semantic_scholar.match_request("Deep learning"),
        pubmed.summary_request("27933103"),
    ):
        assert "key" not in request.cache_key().lower(), request


def _reference(key: str, title: str) -> Reference:
    return Reference(key, "article", SourceLocation("refs.bib", 1), title=title)


def test_resume_files_keep_verdicts_but_not_outages(tmp_path: Path) -> None:
    references = [_reference("a", "A"), _reference("b", "B")]
    digest = references_digest(references)
    progress = tmp_path / "progress.json"
    assert load_progress(progress, digest) == {}
    results = {
        "a": ReferenceResult("a", ReferenceVerdict.VERIFIED, sources=("crossref",)),
        "b": ReferenceResult("b", ReferenceVerdict.ERROR, notes=("timeout",)),
    }
    save_progress(progress, digest, results)
    assert load_progress(progress, digest) == {"a": results["a"]}
    assert json.loads(progress.read_text())["kind"] == "citecheck-verify-progress"


def test_resume_files_of_other_work_are_refused(tmp_path: Path) -> None:
    references = [_reference("a", "A")]
    progress = tmp_path / "progress.json"
    save_progress(progress, references_digest(references), {})
    changed = references_digest([_reference("a", "A changed")])
    assert changed != references_digest(references)
    with pytest.raises(InputError, match="progress of another bibliography"):
        load_progress(progress, changed)
    progress.write_text('{"kind": "citecheck-verify-progress", "references": "x", "results": 3}')
    with pytest.raises(InputError, match="damaged progress file"):
        load_progress(progress, "x")
    progress.write_text("[not json")
    with pytest.raises(InputError, match="not a citecheck progress file"):
        load_progress(progress, "x")
