"""A corpus of malformed inputs, written on demand (some are too large or too binary to keep in
git): bibliographies, Markdown documents, LaTeX projects and PDF sources that are broken the ways
real files are. Each case is a folder of files and the command that reads them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

GOOD_ENTRY = "@article{good2020, title = {A Good Entry}, author = {Doe, Jane}, year = 2020}\n"
HEAD = "---\nbibliography: refs.bib\n---\n\n"
DOC = HEAD + "We cite [@good2020] and [@bad].\n"
TEX = (
    "\\documentclass{article}\\begin{document}\nWe cite \\cite{good2020} and \\cite{bad}.\n"
    "\\bibliographystyle{plain}\\bibliography{refs}\n\\end{document}\n"
)


@dataclass(frozen=True)
class Case:
    """One malformed input: its files, and which command reads it (`check doc.md`, `latex
    main.tex`, `verify refs.bib`, or `ground` to read the sources of doc.md)."""

    name: str
    files: dict[str, bytes | str | None]  # None: no such file (a default taken away)
    command: str

    def write(self, folder: Path) -> Path:
        """Write the files under `folder`; return the case's folder."""
        root = folder / self.name
        root.mkdir(parents=True, exist_ok=True)
        for name, content in self.files.items():
            if content is None:
                continue
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        return root


# A file field naming a home of no such user, and a name longer than a file system allows.
NO_SUCH_USER_FILE = GOOD_ENTRY + "@misc{bad, file = {~nosuchuser/" + "x" * 300 + "}}\n"

BAD_BIBS: dict[str, bytes | str] = {
    "truncated_entry": GOOD_ENTRY + "@article{bad, title = {Cut off in the mid",
    "truncated_after_key": GOOD_ENTRY + "@article{bad,",
    "unbalanced_open": GOOD_ENTRY + "@article{bad, title = {{Unbalanced}, year = 2020}\n",
    "unbalanced_close": GOOD_ENTRY + "@article{bad, title = {Unbalanced}}}, year = 2020}\n",
    "no_key": GOOD_ENTRY + "@article{, title = {No key}}\n",
    "no_fields": GOOD_ENTRY + "@article{bad}\n",
    "empty_value": GOOD_ENTRY + "@article{bad, title = {}, year = }\n",
    "undelimited": GOOD_ENTRY + "@article{bad, author = Smith and Jones, year = 2020}\n",
    "nul_bytes": (GOOD_ENTRY + "@article{bad, title = {A\x00B}}\n").encode(),
    "binary": GOOD_ENTRY.encode() + bytes(range(256)) * 4,
    "invalid_utf8": GOOD_ENTRY.encode() + b"@article{bad, title = {Caf\xe9 \xff\xfe}}\n",
    "utf16": (GOOD_ENTRY + "@article{bad, title = {UTF-16}}\n").encode("utf-16"),
    "bom": b"\xef\xbb\xbf" + GOOD_ENTRY.encode(),
    "huge_line": GOOD_ENTRY + "@article{bad, title = {" + "x" * 10_000_000 + "}}\n",
    "deep_braces": GOOD_ENTRY + "@article{bad, title = " + "{" * 5000 + "}" * 5000 + "}\n",
    "string_loop": "@string{a = b}\n@string{b = a}\n" + GOOD_ENTRY + "@misc{bad, title = a}\n",
    "undefined_string": GOOD_ENTRY + "@misc{bad, title = undefinedmacro # {x}}\n",
    "crossref_cycle": GOOD_ENTRY
    + "@misc{bad, crossref = {other}}\n@misc{other, crossref = {bad}}\n",
    "crossref_missing": GOOD_ENTRY + "@misc{bad, crossref = {nowhere}}\n",
    "bad_names": GOOD_ENTRY + "@misc{bad, author = {and and , , and {} and others and}}\n",
    "weird_type": GOOD_ENTRY + "@{bad, title = {No type}}\n",
    "only_comment": "% nothing but a comment\n@comment{x}\n",
    "empty": "",
    "doi_garbage": GOOD_ENTRY + "@misc{bad, doi = {10./\x7f\u202e}, year = {20x}}\n",
    "year_huge": GOOD_ENTRY + "@misc{bad, year = {99999999999999999999}, month = {13}}\n",
    "date_garbage": GOOD_ENTRY + "@misc{bad, date = {2020-99-99/--}, month = {{}}}\n",
    "file_field_garbage": GOOD_ENTRY + "@misc{bad, file = {:::;;;\\\\::}}\n",
    "file_field_no_such_user": NO_SUCH_USER_FILE,
}

BAD_DOCS: dict[str, bytes | str] = {
    "broken_yaml": "---\nbibliography: [refs.bib\ntitle: : :\n---\n\nText [@good2020].\n",
    "yaml_tabs": "---\nbibliography:\n\t- refs.bib\n---\n\nText [@good2020].\n",
    "yaml_citecheck_garbage": "---\nbibliography: refs.bib\ncitecheck: [1, 2]\n---\n\n[@a]\n",
    "yaml_bad_option": "---\nbibliography: refs.bib\ncitecheck:\n  cutoff: soon\n---\n\n[@a]\n",
    "missing_bibliography": "---\nbibliography: nowhere.bib\n---\n\nText [@good2020].\n",
    "doc_nul": "---\nbibliography: refs.bib\n---\n\nText\x00 [@good2020].\n",
    "doc_invalid_utf8": b"---\nbibliography: refs.bib\n---\n\nCaf\xe9 [@good2020].\n",
    "doc_huge_line": "---\nbibliography: refs.bib\n---\n\n" + "word " * 2_000_000 + "[@good2020]\n",
    "doc_unclosed_fence": "---\nbibliography: refs.bib\n---\n\n```\n[@good2020]\n",
    "doc_only_yaml": "---\nbibliography: refs.bib\n---\n",
    "doc_empty": "",
    "doc_many_cites": "---\nbibliography: refs.bib\n---\n\n" + "[@good2020] " * 5000 + "\n",
    "doc_weird_keys": HEAD + "[@{a b}] [@{}] [@-] @@x [-@] [@\u202e]\n",
    # Names no file can have: longer than the file system allows, the home of no such user.
    "bibliography_name_too_long": DOC.replace("refs.bib", "refs" * 100 + ".bib"),
    "bibliography_of_no_such_user": DOC.replace("refs.bib", "~nosuchuser/refs.bib"),
}

BAD_TEX: dict[str, dict[str, bytes | str | None]] = {
    "cyclic_input": {
        "main.tex": TEX.replace("We cite", "\\input{a} We cite"),
        "a.tex": "\\input{b}\n",
        "b.tex": "\\input{a}\n",
    },
    "self_input": {"main.tex": TEX.replace("We cite", "\\input{main} We cite")},
    "missing_include": {"main.tex": TEX.replace("We cite", "\\include{nowhere} We cite")},
    "unbalanced_cite": {"main.tex": TEX.replace("\\cite{bad}", "\\cite{bad")},
    "unclosed_optional": {"main.tex": TEX.replace("\\cite{bad}", "\\cite[p.~3{bad}")},
    "href_everywhere": {
        "main.tex": TEX.replace(
            "We cite", "\\href{x}{\\cite{a}} \\href \\url \\href{}{} We cite \\url{%}"
        )
    },
    "macro_defs": {
        "main.tex": TEX.replace(
            "We cite",
            "\\def\\x#1{\\cite{#1}} \\newcommand{\\y}[2][d]{\\citep[#1]{#2}} "
            "\\newcommand\\z{\\cite{} We cite",
        )
    },
    "tex_nul": {"main.tex": TEX.replace("We cite", "We\x00 cite")},
    "tex_invalid_utf8": {"main.tex": TEX.encode().replace(b"We cite", b"Caf\xe9 cite")},
    "tex_binary": {"main.tex": TEX.encode() + bytes(range(256)) * 8},
    "tex_huge_line": {"main.tex": TEX.replace("We cite", "x" * 5_000_000 + " We cite")},
    "tex_verbatim_unclosed": {"main.tex": TEX.replace("We cite", "\\begin{verbatim} We cite")},
    "tex_math_unclosed": {"main.tex": TEX.replace("We cite", "$x^{ We cite")},
    "input_name_too_long": {
        "main.tex": TEX.replace("We cite", "\\input{" + "x" * 300 + "} We cite")
    },
    "package_name_too_long": {
        "main.tex": TEX.replace("\\begin", "\\usepackage{" + "y" * 300 + "}\\begin")
    },
    "bibliography_too_long": {"main.tex": TEX.replace("{refs}", "{" + "refs" * 100 + "}")},
    "tex_empty": {"main.tex": ""},
    "aux_garbage": {
        "main.tex": TEX,
        "main.aux": b"\\citation{\xff\x00\n\\bibdata{\n\\citation{good2020",
    },
    "bcf_garbage": {"main.tex": TEX, "main.bcf": "<?xml version='1.0'?><bcf:controlfile><unclosed"},
    "bibliography_is_directory": {"main.tex": TEX, "refs.bib": None, "refs.bib/x": "no"},
}


# Opens, and fails only when its page is loaded: MuPDF's own error, not a RuntimeError.
PAGE_TREE_CYCLE = (
    b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
    b"2 0 obj << /Type /Pages /Kids [2 0 R] /Count 1 >> endobj\n"
    b"trailer << /Root 1 0 R >>\n%%EOF\n"
)


def _pdf(kind: str) -> bytes:
    """A PDF broken one way, made with pymupdf."""
    import pymupdf

    if kind == "page_tree_cycle":
        return PAGE_TREE_CYCLE

    with pymupdf.open() as document:
        page = document.new_page()
        if kind == "scan":
            page.draw_rect(pymupdf.Rect(50, 50, 300, 400), fill=(0.3, 0.3, 0.3))
            return bytes(document.tobytes())
        page.insert_text((72, 72), "We cite a good entry that says what the claim says.")
        if kind == "encrypted":
            return bytes(
                document.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="o", user_pw="u")
            )
        whole = bytes(document.tobytes())
    return whole[: len(whole) // 2] if kind == "truncated" else b"%PDF-1.7\n" + b"\x00" * 999


PDF_KINDS = ("scan", "encrypted", "truncated", "garbage", "page_tree_cycle")

# Project options and CSL bibliographies: the TOML, JSON and YAML readers.
BAD_PROJECTS: dict[str, dict[str, bytes | str | None]] = {
    "toml_syntax": {"citecheck.toml": "[citecheck\ncutoff = \n"},
    "toml_invalid_utf8": {"citecheck.toml": b"cutoff = '\xff\xfe'\n"},
    "toml_wrong_type": {"citecheck.toml": "[citecheck]\ncutoff = 5\nstrict = 'perhaps'\n"},
    "toml_table_is_string": {"citecheck.toml": "citecheck = 'yes'\n"},
    "toml_unknown_option": {"citecheck.toml": "[citecheck]\nfrobnicate = true\n"},
    "csl_json_syntax": {
        "refs.bib": None,
        "refs.json": '[{"id": "good2020", "title": "A Good Entry"}, {"id": ',
        "doc.md": DOC.replace("refs.bib", "refs.json"),
    },
    "csl_json_not_items": {
        "refs.bib": None,
        "refs.json": '{"id": 5, "author": true, "issued": {"date-parts": "soon"}}',
        "doc.md": DOC.replace("refs.bib", "refs.json"),
    },
    "csl_yaml_syntax": {
        "refs.bib": None,
        "refs.yaml": "references:\n- id: good2020\n  title: [unclosed\n",
        "doc.md": DOC.replace("refs.bib", "refs.yaml"),
    },
    "csl_yaml_scalar": {
        "refs.bib": None,
        "refs.yaml": "just a string\n",
        "doc.md": DOC.replace("refs.bib", "refs.yaml"),
    },
    "inline_references_garbage": {
        "doc.md": "---\nreferences: [1, {id: }, {id: good2020, author: 7}]\n---\n\n[@good2020]\n",
    },
}


def cases() -> Iterator[Case]:
    """Every malformed case."""
    for name, bib in BAD_BIBS.items():
        yield Case(f"bib_{name}", {"refs.bib": bib}, "verify refs.bib")
        yield Case(f"doc_bib_{name}", {"refs.bib": bib, "doc.md": DOC}, "check doc.md")
    for name, doc in BAD_DOCS.items():
        yield Case(name, {"refs.bib": GOOD_ENTRY, "doc.md": doc}, "check doc.md")
    for name, files in BAD_TEX.items():
        yield Case(name, {"refs.bib": GOOD_ENTRY, **files}, "latex main.tex")
    for name, files in BAD_PROJECTS.items():
        yield Case(name, {"refs.bib": GOOD_ENTRY, "doc.md": DOC, **files}, "check doc.md")
    for kind in PDF_KINDS:
        sources: dict[str, bytes | str | None] = {
            "refs.bib": GOOD_ENTRY,
            "doc.md": DOC,
            "sources/good2020.pdf": _pdf(kind),
        }
        yield Case(f"pdf_{kind}", sources, "ground")
        yield Case(f"pdf_list_{kind}", {"paper.pdf": _pdf(kind)}, "verify paper.pdf")
    long_key = "k" * 300  # its source's file name would be longer than a file system allows
    yield Case(
        "ground_names_no_file_can_have",
        {
            "refs.bib": NO_SUCH_USER_FILE + f"@misc{{{long_key}, title = {{T}}}}\n",
            "doc.md": HEAD + f"We cite [@good2020], [@bad] and [@{long_key}].\n",
            "sources/good2020.txt": "A good entry that says what the claim says.",
        },
        "ground",
    )
