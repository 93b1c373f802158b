"""What each way into citecheck must not load: its start-up time, written down once.

An unchanged rebuild is replayed from the cache and must cost less than pandoc's own no-op
filter, so the filter's process loads nothing of the check until it knows it must check;
`import citecore` loads only the names of the public API; a check that neither grounds nor asks
the network loads no PDF reader, no model and no HTTP client. `IMPORT_BUDGET` says it for each
way in (`tests/test_startup.py` holds each to it), and the build server warms up by importing
`CHECK_ONLY`, what the replay leaves out and a check needs: the two cannot drift apart.

An import left inside a function says why with a `# start-up:` comment (the test checks that
too): which of these promises it keeps.
"""

from __future__ import annotations

# Loaded only once a build must be checked: the check's libraries and its costliest modules.
CHECK_ONLY: tuple[str, ...] = (
    "asyncio",
    "bibtexparser",
    "httpx",
    "panflute",
    "pylatexenc",
    "citecore.bib.bibtex",
    "citecore.bib.latex_text",
    "citecore.extract.markdown",
    "citecore.filter.run",
    "citecore.pandoc.document",
    "citecore.registries.http",
    "citecore.verify.resolve",
)

# Loaded only by what needs them: grounding (PDF text, the embedder, the judges), the network,
# screening on a cluster, a terminal table, the language server.
ON_DEMAND: tuple[str, ...] = (
    "distributed",
    "google.genai",
    "httpx",
    "nltk",
    "pygls",
    "pymupdf",
    "pymupdf4llm",
    "rich",
    "tokenizers",
    "wordllama",
)

# Way in (a module imported) -> modules it must not load (a package counts with its modules).
IMPORT_BUDGET: dict[str, tuple[str, ...]] = {
    "citecore": ("citecore.api", "citecore.model", *CHECK_ONLY, *ON_DEMAND),
    "citecore.cli.app": (*CHECK_ONLY, *ON_DEMAND),
    "citecore.filter.process": (*CHECK_ONLY, *ON_DEMAND),
    "citecore.filter.run": ON_DEMAND,
    "citecore.api": (*CHECK_ONLY, *ON_DEMAND),
}
