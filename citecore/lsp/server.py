"""The language server (pygls over stdio) for .md, .qmd, .Rmd, .tex and .bib files.

- On open and on every change: diagnostics from the local checks and the cached registry and
  grounding verdicts (no network, no model: see citecore.lsp.analysis).
- On save: the cited entries are verified against the registries in the background, with
  `$/progress`, and the diagnostics published again (unchanged entries are cache hits).
- On request (`citecheck.ground` command): the document's claims are grounded in their sources
  with the configured judge, and hovers show the supporting passages with their pages.
- Hover on a citation: verdict, the registry's record, differences, supporting passage.
- Code actions: the registry's record for a mismatched entry (key kept), a missing DOI,
  `[@a,@b]` → `[@a; @b]`, a key written in another case.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from citecore.api import check_latex_file, check_markdown_file
from citecore.errors import CitecheckError, OptionsError
from citecore.ground.judges.factory import judge_kind
from citecore.lsp.analysis import (
    BIBLIOGRAPHY_SUFFIXES,
    Analysis,
    analyse_bibliography,
    analyse_document,
)
from citecore.lsp.features import code_actions, diagnostics, hover_text, lsp_range
from citecore.lsp.scan import LATEX_SUFFIXES
from citecore.model import GroundingStatus
from citecore.options import JudgeKind, build_options, resolve_options
from citecore.verify.registry import registry_verifier
from citecore.version import __version__

logger = logging.getLogger(__name__)
GROUND_COMMAND = "citecheck.ground"


class CitecheckServer(LanguageServer):
    """The server's state: the last analysis of each open file, and what it published."""

    def __init__(self) -> None:
        super().__init__("citecheck", __version__)
        self.analyses: dict[Path, Analysis] = {}
        self.published: set[Path] = set()
        # The version of each document an edit's check was started for: quick edits arrive
        # faster than they are checked, and each text is checked once.
        self.edited: dict[str, int] = {}
        self.options_layer: dict[str, Any] = {}

    def workspace_root(self, path: Path) -> Path:
        """The workspace folder holding `path` (where LaTeX main files are looked for); without
        one, the folder above the file's (a chapter's main file usually sits there)."""
        roots = [to_fs_path(f.uri) for f in self.workspace.folders.values()]
        roots.append(self.workspace.root_path)
        for root in filter(None, roots):
            if path.resolve().is_relative_to(Path(str(root)).resolve()):
                return Path(str(root))
        return path.parent.parent

    def open_texts(self) -> dict[Path, str]:
        """The text of every open document, as the editor holds it."""
        texts = {}
        for uri, document in self.workspace.text_documents.items():
            fs_path = to_fs_path(uri)
            if fs_path:
                texts[Path(fs_path)] = document.source
        return texts

    def _compute(self, path: Path, text: str | None) -> Analysis | None:
        """One analysis (run in a worker thread: the pipeline runs its own event loops)."""
        try:
            if text is None:
                return analyse_bibliography(path, self.options_layer)
            return analyse_document(path, text, self.options_layer, self.workspace_root(path))
        except CitecheckError as exc:  # bad options or an unreadable file: say it, go on
            self.window_show_message(
                types.ShowMessageParams(types.MessageType.Warning, f"citecheck: {exc}")
            )
            return None

    async def analyse(self, uri: str) -> Analysis | None:
        """Check one open document and publish its diagnostics (and its bibliographies'), unless
        the text changed meanwhile (the newer change publishes its own)."""
        fs_path = to_fs_path(uri)
        if not fs_path:
            return None
        path = Path(fs_path)
        document = self.workspace.get_text_document(uri)
        version = document.version
        text = None if path.suffix.lower() in BIBLIOGRAPHY_SUFFIXES else document.source
        analysis = await asyncio.to_thread(self._compute, path, text)
        if analysis is None or self.workspace.get_text_document(uri).version != version:
            return None
        previous = self.analyses.get(path)
        if previous is not None:
            analysis.grounding = previous.grounding
        self.analyses[path] = analysis
        self.publish(analysis)
        return analysis

    def publish(self, analysis: Analysis) -> None:
        """Send the diagnostics of an analysis, by file."""
        for file, found in diagnostics(analysis, self.open_texts()).items():
            self.published.add(file)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=file.as_uri(), diagnostics=found)
            )


server = CitecheckServer()


@server.feature(types.INITIALIZE)
def initialize(ls: CitecheckServer, params: types.InitializeParams) -> None:
    """Read the client's settings: `initializationOptions` are citecheck options (`offline`,
    `email`, `judge`, …), as `citecheck.toml` and `CITECHECK_*` would give them."""
    options = params.initialization_options
    if not isinstance(options, dict):
        return
    for name, value in options.items():
        try:  # one bad setting is said and left out; it never turns checking off
            build_options({str(name): value})
        except OptionsError as exc:
            ls.window_show_message(
                types.ShowMessageParams(
                    types.MessageType.Warning,
                    f"citecheck: initializationOptions: {exc}; ignored, so the option keeps "
                    "its default",
                )
            )
            continue
        ls.options_layer[str(name).replace("-", "_")] = value


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: CitecheckServer, params: types.DidOpenTextDocumentParams) -> None:
    """Diagnostics for a document just opened, then the grounding verdicts already cached."""
    analysis = await ls.analyse(params.text_document.uri)
    if analysis is not None:
        await _show_cached_grounding(ls, params.text_document.uri, analysis)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: CitecheckServer, params: types.DidChangeTextDocumentParams) -> None:
    """Diagnostics for the edited text (local checks and cached verdicts only), once per text:
    an edit handled after later edits were applied finds their text, which the first of them
    checks."""
    uri = params.text_document.uri
    version = ls.workspace.get_text_document(uri).version
    if version is not None and ls.edited.get(uri) == version:
        return
    if version is not None:
        ls.edited[uri] = version
    await ls.analyse(uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: CitecheckServer, params: types.DidCloseTextDocumentParams) -> None:
    """Forget a closed document and clear its diagnostics."""
    ls.edited.pop(params.text_document.uri, None)
    fs_path = to_fs_path(params.text_document.uri)
    if fs_path:
        ls.analyses.pop(Path(fs_path), None)
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
    )


def _verify(ls: CitecheckServer, analysis: Analysis) -> None:
    """Verify the entries an analysis cites (or holds) against the registries; the verdicts land
    in the cache the next analysis reads."""
    options = resolve_options({**ls.options_layer}, folder=analysis.path.parent)
    verifier = registry_verifier(options)
    if verifier is None:
        return
    cited = {c.key for c in analysis.citations}
    references = [
        r
        for k, r in analysis.bibliography.references.items()
        if not analysis.citations or k in cited
    ]
    verifier.verify(references)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: CitecheckServer, params: types.DidSaveTextDocumentParams) -> None:
    """Verify the document's entries in the background, with progress; then publish again."""
    uri = params.text_document.uri
    analysis = await ls.analyse(uri)
    if analysis is None or not analysis.bibliography.references:
        return
    token = str(uuid.uuid4())
    try:
        await ls.work_done_progress.create_async(token)
    except Exception:  # a client without progress support still gets the diagnostics
        token = ""
    if token:
        ls.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title="citecheck: verifying references")
        )
    try:
        await asyncio.to_thread(_verify, ls, analysis)
    except CitecheckError as exc:
        logger.warning("verification failed: %s", exc)
    finally:
        if token:
            ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message="done"))
    await ls.analyse(uri)


def _ground(ls: CitecheckServer, analysis: Analysis, cached_only: bool = False) -> None:
    """Ground the claims of a saved document with the configured judge (the build's pipeline),
    keeping each citation's verdict for the hovers and diagnostics. `cached_only` asks the
    judge nothing (`limit: 0`): only verdicts an earlier run cached are shown."""
    layer = {**ls.options_layer, "ground": True, "offline": True}
    if cached_only:
        layer["limit"] = 0
    path = analysis.path
    options = resolve_options(layer, folder=path.parent)
    if path.suffix.lower() in LATEX_SUFFIXES:
        result = check_latex_file(path, options)
    else:
        result = check_markdown_file(path, options).result
    # The build read the saved file, the editor holds its own reading of the open text: the two
    # are joined by place (line, key), the only thing they share.
    verdicts = ((c, result.grounding_of(c)) for c in result.citations)
    analysis.grounding = {
        ((c.location.line or 1) - 1, c.key): grounded
        for c, grounded in verdicts
        if grounded is not None
        and (not cached_only or grounded.status is not GroundingStatus.NOT_IN_STORE)
    }


async def _show_cached_grounding(ls: CitecheckServer, uri: str, analysis: Analysis) -> None:
    """The grounding verdicts already cached, for a project that grounds its claims: no model
    is asked (the judge runs on request only), and a Gemini judge, whose store would be synced
    first, is left to the command."""
    try:
        options = resolve_options({**ls.options_layer}, folder=analysis.path.parent)
    except CitecheckError:
        return
    if not options.ground or judge_kind(options) is JudgeKind.GEMINI or not analysis.citations:
        return
    try:
        await asyncio.to_thread(_ground, ls, analysis, True)
    except CitecheckError as exc:
        logger.warning("cached grounding verdicts not read: %s", exc)
        return
    ls.publish(analysis)


@server.command(GROUND_COMMAND)
async def ground_command(ls: CitecheckServer, uri: str) -> None:
    """Ground the claims of one document (argument: its URI), then publish again."""
    fs_path = to_fs_path(uri)
    analysis = ls.analyses.get(Path(fs_path)) if fs_path else None
    if analysis is None:
        return
    token = str(uuid.uuid4())
    await ls.work_done_progress.create_async(token)
    ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(title="citecheck: grounding"))
    try:
        await asyncio.to_thread(_ground, ls, analysis)
    finally:
        ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message="done"))
    await ls.analyse(uri)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: CitecheckServer, params: types.HoverParams) -> types.Hover | None:
    """The verdict, the registry's record and the supporting passage of a citation."""
    fs_path = to_fs_path(params.text_document.uri)
    analysis = ls.analyses.get(Path(fs_path)) if fs_path else None
    if analysis is None:
        return None
    found = hover_text(analysis, params.position.line, params.position.character)
    if found is None:
        return None
    text, span = found
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
        range=lsp_range(span),
    )


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
)
def code_action(ls: CitecheckServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """The quick fixes for the lines of the range."""
    fs_path = to_fs_path(params.text_document.uri)
    analysis = ls.analyses.get(Path(fs_path)) if fs_path else None
    if analysis is None:
        return []
    texts = ls.open_texts()
    actions: list[types.CodeAction] = []
    for line in range(params.range.start.line, params.range.end.line + 1):
        actions += code_actions(analysis, line, texts)
    return actions


def serve() -> None:
    """Run the server over stdio until the client exits it."""
    logging.basicConfig(level=logging.WARNING, format="citecheck-lsp: %(message)s")
    server.start_io()
