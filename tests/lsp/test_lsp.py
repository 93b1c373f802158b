"""`citecheck lsp` end to end: the real server over stdio, driven by pytest-lsp as the editor
(initialize, didOpen, didChange, didSave, diagnostics, hover, codeAction, shutdown), with the
registries answered by the loopback emulator."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from citecore.registries import crossref
from tests.emulator import RegistryEmulator, fixture
from tests.verify.test_resolve import no_hits, reference

ELIFE_WRONG_YEAR = (
    "@article{sankar2014,\n"
    "  title = {Automated quantitative histology reveals vascular morphodynamics during\n"
    "           {Arabidopsis} hypocotyl secondary growth},\n"
    "  author = {Sankar, Martial and Nieminen, Kaisa and Ragni, Laura and others},\n"
    "  journal = {eLife}, year = {2011}, doi = {10.7554/eLife.01567}\n"
    "}\n"
    "@book{Doe2001, title = {A Book}, author = {Doe, Jane}, year = 2001}\n"
)
PAPER = (
    "---\nbibliography: refs.bib\n---\n\n"
    "Histology has been automated [@sankar2014].\n"
    "Books say so [@doe2001,@sankar2014].\n"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "refs.bib").write_text(ELIFE_WRONG_YEAR)
    (tmp_path / "paper.md").write_text(PAPER)
    return tmp_path


# The server is started before a test's own fixtures run: its registries (the loopback emulator)
# and its cache are set up for the module, when the server command is defined.
EMULATOR = RegistryEmulator()
CACHE_HOME = tempfile.mkdtemp(prefix="citecheck-lsp-cache-")
SERVER_ENV = {
    **{k: v for k, v in os.environ.items() if k != "CITECHECK_OFFLINE"},
    **EMULATOR.environment(),
    "XDG_CACHE_HOME": CACHE_HOME,
}


@pytest.fixture(scope="module", autouse=True)
def registries() -> Iterator[RegistryEmulator]:
    """The emulator the server asks, answering for the eLife record."""
    with EMULATOR:
        EMULATOR.serve(
            crossref.work_request("10.7554/elife.01567"),
            fixture("crossref/works_10.7554_elife.01567.json"),
        )
        no_hits(EMULATOR, reference("@book{Doe2001, title = {A Book}, author = {Doe, Jane}}"))
        yield EMULATOR
        assert not EMULATOR.unexpected, EMULATOR.unexpected
        assert not EMULATOR.unused, EMULATOR.unused
    shutil.rmtree(CACHE_HOME, ignore_errors=True)


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(
        server_command=[sys.executable, "-c", "from citecore.cli import main; main(['lsp'])"],
        server_env=SERVER_ENV,
    ),
)
async def client(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    await _initialize(lsp_client, project, "visual-studio-code")
    yield
    await lsp_client.shutdown_session()


async def _initialize(
    lsp_client: LanguageClient, project: Path, editor: str, options: object = None
) -> None:
    """Start a session as `editor` would, with the project as its workspace folder."""
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(editor),
            workspace_folders=[types.WorkspaceFolder(uri=project.as_uri(), name="paper")],
            initialization_options=options,
        )
    )


def _open(client: LanguageClient, path: Path, language: str = "markdown") -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id=language, version=1, text=path.read_text())
        )
    )
    return uri


async def _diagnostics(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    await asyncio.wait_for(
        client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout=60
    )
    return list(client.diagnostics.get(uri, []))


@pytest.mark.asyncio
async def test_open_change_save_hover_and_fix(client: LanguageClient, project: Path) -> None:
    uri = _open(client, project / "paper.md")
    found = await _diagnostics(client, uri)
    by_code = {(d.code, d.range.start.line) for d in found}
    # The comma-joined group, and @doe2001 defined only as Doe2001: ranges are the citations.
    assert ("comma_separated_keys", 5) in by_code and ("undefined", 5) in by_code
    undefined = next(d for d in found if d.code == "undefined")
    assert (undefined.range.start.character, undefined.range.end.character) == (13, 35)

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=undefined.range,
            context=types.CodeActionContext(diagnostics=[undefined]),
        )
    )
    titles = [a.title for a in actions or [] if isinstance(a, types.CodeAction)]
    assert "Separate the keys: [@doe2001; @sankar2014]" in titles
    assert "Cite @Doe2001 (as defined)" in titles

    # A keystroke: diagnostics follow the text, no save, no network.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=PAPER.replace(
                "[@doe2001,@sankar2014]", "[@Doe2001; @sankar2014]"))],
        )
    )  # fmt: skip
    assert not [d for d in await _diagnostics(client, uri) if d.range.start.line == 5]

    # On save the cited entries are verified (the emulator answers); the year is wrong.
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri))
    )
    for _ in range(4):
        found = await _diagnostics(client, uri)
        if any(d.code == "mismatch" for d in found):
            break
    mismatch = next(d for d in found if d.code == "mismatch")
    assert mismatch.range.start.line == 4 and "2011" in mismatch.message

    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(4, 35))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "**mismatch**" in hover.contents.value
    assert "https://doi.org/10.7554/elife.01567" in hover.contents.value

    fixes = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=mismatch.range,
            context=types.CodeActionContext(diagnostics=[mismatch]),
        )
    )
    replace = next(
        a for a in fixes or [] if isinstance(a, types.CodeAction) and a.title.startswith("Replace")
    )
    assert replace.edit is not None and replace.edit.changes is not None
    [edit] = replace.edit.changes[(project / "refs.bib").as_uri()]
    assert edit.new_text.startswith("@article{sankar2014,") and "2014" in edit.new_text
    assert (edit.range.start.line, edit.range.end.line) == (0, 5)


@pytest.mark.asyncio
async def test_a_latex_chapter_is_checked_through_its_main_file(
    client: LanguageClient, project: Path
) -> None:
    (project / "chapters").mkdir()
    (project / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{natbib}\n\\begin{document}\n"
        "\\input{chapters/intro}\n\\bibliographystyle{plainnat}\n\\bibliography{refs}\n"
        "\\end{document}\n"
    )
    chapter = project / "chapters" / "intro.tex"
    chapter.write_text("As shown \\citep[p.~3]{sankar2014, ghost2020}.\n")
    uri = _open(client, chapter, "latex")
    found = await _diagnostics(client, uri)
    [undefined] = [d for d in found if d.code == "undefined"]
    assert "ghost2020" in undefined.message
    # The range is the whole command, as written.
    assert (undefined.range.start.character, undefined.range.end.character) == (9, 44)


@pytest.mark.asyncio
async def test_a_bibliography_file_gets_its_own_diagnostics_and_fixes(
    client: LanguageClient, project: Path
) -> None:
    bib = project / "refs.bib"
    bib.write_text(ELIFE_WRONG_YEAR + "@article{late, title = {T}, author = {A, B}, year = 2999}\n")
    uri = _open(client, bib, "bibtex")
    found = await _diagnostics(client, uri)
    future = next(d for d in found if d.code == "future_year")
    assert future.range.start.line == 7


@pytest.mark.asyncio
async def test_grounding_on_request_shows_the_passage_in_the_hover(
    client: LanguageClient, project: Path
) -> None:
    sources = project / "sources"
    sources.mkdir()
    (sources / "sankar2014.txt").write_text(
        "Methods. We built a pipeline.\fResults. Automated quantitative histology reveals "
        "vascular morphodynamics during hypocotyl secondary growth in Arabidopsis."
    )
    (project / "citecheck.toml").write_text('sources = "sources"\njudge = "local"\n')
    uri = _open(client, project / "paper.md")
    await _diagnostics(client, uri)
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="citecheck.ground", arguments=[uri])
    )
    # The verdict may reach the hover a moment after the command returns (under load).
    for _ in range(300):  # up to 30 s: grounding loads WordNet first
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(4, 35))
        )
        if hover is not None and "Claim: **" in str(hover.contents):
            break
        await asyncio.sleep(0.1)
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "Claim: **" in hover.contents.value and "p. 2" in hover.contents.value
    # Reopened, the document shows the cached verdict at once, no command needed.
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri))
    )
    await _diagnostics(client, uri)
    _open(client, project / "paper.md")
    for _ in range(50):
        again = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(4, 35))
        )
        if again is not None and "Claim: **" in str(again.contents):
            break
        await asyncio.sleep(0.1)
    assert again is not None and "p. 2" in str(again.contents)


@pytest.mark.asyncio
async def test_bad_options_are_said_once_and_the_server_goes_on(
    client: LanguageClient, project: Path
) -> None:
    (project / "citecheck.toml").write_text("strict = [unclosed\n")
    uri = _open(client, project / "paper.md")
    found = await _diagnostics(client, uri)
    # The file's problem is one diagnostic, and the document is checked all the same.
    assert any(d.code == "bad_option" and "citecheck.toml" in d.message for d in found)
    assert any(d.code == "undefined" for d in found)
    (project / "citecheck.toml").write_text("strict = true\n")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=PAPER)],
        )
    )
    assert any(d.code == "undefined" for d in await _diagnostics(client, uri))


@pytest.mark.asyncio
async def test_quick_edits_end_on_the_last_texts_diagnostics_and_close_clears_them(
    client: LanguageClient, project: Path
) -> None:
    uri = _open(client, project / "paper.md")
    await _diagnostics(client, uri)
    for version in range(2, 8):
        text = PAPER.replace("[@doe2001,@sankar2014]", f"[@ghost{version}]")
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
    for _ in range(20):
        found = await _diagnostics(client, uri)
        if any("ghost7" in d.message for d in found):
            break
    assert [d.message for d in found if d.code == "undefined"] == [
        "ghost7: cited key is not in any bibliography"
    ]
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri))
    )
    # Each analysis publishes the document and then its bibliography: the notification awaited
    # may be the bibliography's of the last edit, still on its way when the close was sent.
    for _ in range(5):
        if not await _diagnostics(client, uri):
            break
    assert not client.diagnostics.get(uri)


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(
        server_command=[sys.executable, "-c", "from citecore.cli import main; main(['lsp'])"],
        server_env=SERVER_ENV,
    ),
)
async def offline_client(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    await _initialize(lsp_client, project, "neovim", {"offline": True, "format": "bogus"})
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_an_offline_editor_never_asks_the_registries_even_on_save(
    offline_client: LanguageClient, project: Path, tmp_path: Path
) -> None:
    (project / "refs.bib").write_text(
        "@book{fresh, title = {A Book Never Asked For}, author = {Poe, Paul}, year = 2003}\n"
    )
    paper = project / "paper.md"
    paper.write_text("---\nbibliography: refs.bib\n---\n\nA claim [@fresh].\n")
    uri = _open(offline_client, paper)
    await _diagnostics(offline_client, uri)
    before = EMULATOR.requests()
    offline_client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri))
    )
    found = await _diagnostics(offline_client, uri)
    await asyncio.sleep(0.5)
    assert EMULATOR.requests() == before
    assert not [d for d in found if d.code in ("not_found", "unverifiable")]
    # A bad setting of the editor's is said, and the others (offline) still hold.
    assert any("unknown report format 'bogus'" in m.message for m in offline_client.messages)
