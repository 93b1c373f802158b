"""Downloads refuse what is not a whole open-access file, each with a reason a writer can read:
against a real loopback server misbehaving the ways hosts do."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from citecore.fetch.download import Downloader, Fetched, Refused, is_login_url
from citecore.model import Source
from citecore.registries.settings import ClientSettings, rate_variables
from tests.emulator import RegistryEmulator, Reply
from tests.fetch.made import jats_of, pdf_of
from tests.malformed import PAGE_TREE_CYCLE

PDF = pdf_of("The heat pump cut the building's gas use by a third over two winters.")


def settings_for(emulator: RegistryEmulator, **overrides: object) -> ClientSettings:
    """Every source at the emulator, with limits that do not slow a test down."""
    environ = dict(emulator.environment())
    for source in Source:
        rate, concurrency = rate_variables(source)
        environ[rate], environ[concurrency] = "1000", "4"
    return ClientSettings.from_environment(environ, email="writer@example.org", **overrides)


@pytest.fixture
def emulator() -> Iterator[RegistryEmulator]:
    with RegistryEmulator(strict=False) as server:
        yield server


def fetch(
    emulator: RegistryEmulator, url: str, xml: bool = False, **caps: float
) -> Fetched | Refused:
    async def run() -> Fetched | Refused:
        async with Downloader(settings_for(emulator, timeout=5.0), **caps) as downloader:  # type: ignore[arg-type]
            return await downloader.fetch(url, xml)

    return asyncio.run(run())


def test_a_whole_pdf_is_kept(emulator: RegistryEmulator) -> None:
    reply = Reply(raw=PDF, headers={"Content-Type": "application/pdf"})
    url = emulator.serve_path("/pdf/1.pdf", reply)
    result = fetch(emulator, url)
    assert isinstance(result, Fetched) and result.data == PDF and result.suffix == ".pdf"


def test_full_text_xml_becomes_sections_and_paragraphs(emulator: RegistryEmulator) -> None:
    xml = jats_of(
        "Heat pumps in old houses",
        {"Methods": ["We metered forty houses."], "Results": ["Gas use fell by a third."]},
        abstract="Heat pumps work in old houses.",
    )
    url = emulator.serve_path("/rest/PMC1/fullTextXML", Reply(body=xml))
    result = fetch(emulator, url, xml=True)
    assert isinstance(result, Fetched) and result.suffix == ".md"
    text = result.data.decode()
    assert text.startswith("# Heat pumps in old houses")
    assert "## Methods\n\nWe metered forty houses." in text
    assert "## Results\n\nGas use fell by a third." in text
    assert "A cited work" not in text  # the reference list is no claim


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply(body="<!DOCTYPE html><html><body>Buy this article</body></html>",
               headers={"Content-Type": "text/html"}), "not a PDF: an HTML page"),
        (Reply(403, "Forbidden"), "access denied (HTTP 403)"),
        (Reply(raw=PDF[: len(PDF) // 2]), "a truncated PDF"),
        (Reply(raw=b"%PDF-1.7\n" + b"0" * 4096 + b"\n%%EOF\n"), "an unreadable PDF"),
        (Reply(raw=b"PK\x03\x04 a zip file"), "not a PDF"),
        (Reply(503, "busy"), "HTTP 503"),
        (Reply(raw=PAGE_TREE_CYCLE), "an unreadable PDF (code=7: cycle in page tree)"),
    ],
    ids=["landing page", "403", "truncated", "garbage pdf", "zip", "503", "page tree cycle"],
)  # fmt: skip
def test_what_is_not_a_whole_pdf_is_refused(
    emulator: RegistryEmulator, reply: Reply, reason: str
) -> None:
    url = emulator.serve_path("/file.pdf", reply)
    result = fetch(emulator, url)
    assert isinstance(result, Refused) and result.reason.startswith(reason), result


def test_a_redirect_loop_is_refused(emulator: RegistryEmulator) -> None:
    url = emulator.serve_path("/loop", Reply(302, headers={"Location": "/loop"}))
    result = fetch(emulator, url)
    assert isinstance(result, Refused) and "redirect loop" in result.reason


def test_a_redirect_to_a_sign_in_page_is_refused(emulator: RegistryEmulator) -> None:
    emulator.serve_path("/login", Reply(body="<html>Sign in</html>"))
    url = emulator.serve_path("/paper.pdf", Reply(302, headers={"Location": "/login?next=/paper"}))
    result = fetch(emulator, url)
    assert isinstance(result, Refused) and "login" in result.reason


def test_a_huge_file_is_refused_at_the_cap(emulator: RegistryEmulator) -> None:
    big = b"%PDF-1.7\n" + b"0" * 300_000
    declared = emulator.serve_path("/declared.pdf", Reply(raw=big))
    undeclared = emulator.serve_path("/streamed.pdf", Reply(raw=big, length=-1))
    for url in (declared, undeclared):
        result = fetch(emulator, url, max_bytes=100_000)
        assert isinstance(result, Refused) and "cap" in result.reason


def test_a_slow_host_is_given_up_at_the_time_cap(emulator: RegistryEmulator) -> None:
    url = emulator.serve_path("/slow.pdf", Reply(raw=PDF, delay=3.0))
    result = fetch(emulator, url, max_seconds=0.5)
    assert isinstance(result, Refused) and result.reason.startswith("too slow")
    assert result.transient  # looked for again next run


def test_what_is_never_fetched() -> None:
    settings = ClientSettings()
    for url, reason in [
        ("file:///etc/passwd", "not a web address"),
        ("javascript:alert(1)", "not a web address"),
        ("https://idp.example.edu/idp/profile/SAML2/Redirect/SSO", "behind a login"),
        ("https://example.org/login?return=/x.pdf", "behind a login"),
    ]:

        async def run(url: str = url) -> Fetched | Refused:
            async with Downloader(settings) as downloader:
                return await downloader.fetch(url)

        result = asyncio.run(run())
        assert isinstance(result, Refused) and result.reason.startswith(reason), (url, result)
    assert not is_login_url("https://arxiv.org/pdf/2312.07559")
    assert not is_login_url("https://www.pnas.org/content/pnas/111/45/E4832.full.pdf")


def test_offline_fetches_nothing(emulator: RegistryEmulator) -> None:
    url = emulator.serve_path("/x.pdf", Reply(raw=PDF), unused_ok=True)

    async def run() -> Fetched | Refused:
        async with Downloader(settings_for(emulator, offline=True)) as downloader:
            return await downloader.fetch(url)

    result = asyncio.run(run())
    assert isinstance(result, Refused) and result.reason == "offline"
    assert emulator.requests() == 0
