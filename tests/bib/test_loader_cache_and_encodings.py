"""Bibliography files as they come: any encoding a reference manager writes, parsed once per
text (rebuilds read the cache), located by name the way pandoc and LaTeX look for them."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.bib import bibtex
from citecore.bib.loader import load_bibliographies, read_bibliography_file, resolve_bibliography
from citecore.bib.parsed import PARSER_VERSION
from citecore.cache import Cache, content_key
from citecore.errors import BibliographyNotFoundError

ENTRY = (
    "@article{muller2020,\n  title = {Über Flüsse},\n  author = {Müller, Jörg},\n  year = 2020\n}\n"
)


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: text.encode("utf-8"),
        lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),  # a byte-order mark (Windows tools)
        lambda text: text.encode("utf-16"),  # with its byte-order mark
        lambda text: text.encode("utf-16-be").join((b"\xfe\xff", b"")),
        lambda text: text.encode("latin-1"),  # older files
    ],
    ids=["utf-8", "utf-8-bom", "utf-16-le", "utf-16-be", "latin-1"],
)
def test_every_encoding_reads_the_same(tmp_path: Path, encode: object) -> None:
    path = tmp_path / "refs.bib"
    assert callable(encode)
    path.write_bytes(encode(ENTRY))
    (reference,), duplicates, unparsed = read_bibliography_file(path)
    assert (reference.title, reference.authors[0].family) == ("Über Flüsse", "Müller")
    assert reference.location.line == 1 and not duplicates and not unparsed


def test_a_bibtex_text_is_parsed_once_per_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(ENTRY)
    calls: list[str] = []
    real = bibtex.parse_bibtex

    def counting(text: str, file: str) -> object:
        calls.append(file)
        return real(text, file)

    monkeypatch.setattr("citecore.bib.bibtex.parse_bibtex", counting)
    with Cache(tmp_path / "c.sqlite3") as cache:
        first = load_bibliographies([path], cache=cache)
        again = load_bibliographies([path], cache=cache)
        assert first == again and len(calls) == 1  # the rebuild read the cache
        path.write_text(ENTRY.replace("year = 2020", "year = 2021"))
        changed = load_bibliographies([path], cache=cache)
        assert changed.references["muller2020"].year == 2021 and len(calls) == 2


def test_a_stale_cache_entry_is_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(ENTRY)
    with Cache(tmp_path / "c.sqlite3") as cache:
        load_bibliographies([path], cache=cache)
        # Another version's record shape: the entry is refused and the file parsed again.
        key = content_key(PARSER_VERSION, str(path), ENTRY)
        assert cache.get("bibtex", key) is not None  # the entry this test spoils
        cache.put("bibtex", key, '{"references": 3}')
        bibliography = load_bibliographies([path], cache=cache)
    assert bibliography.references["muller2020"].title == "Über Flüsse"


def test_names_are_looked_for_as_given_then_in_each_folder(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "refs.bib").write_text(ENTRY)
    found = resolve_bibliography("refs.bib", [tmp_path / "a", tmp_path / "b"])
    assert found == tmp_path / "b" / "refs.bib"
    with pytest.raises(BibliographyNotFoundError) as raised:
        resolve_bibliography("other.bib", [tmp_path / "a"], named_by="paper.md")
    message = str(raised.value)
    assert message.startswith("paper.md: bibliography 'other.bib' not found")
    assert str(tmp_path / "a" / "other.bib") in message  # where it looked


def test_inline_references_come_after_the_files_and_lose_to_them(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(ENTRY)
    inline = [{"id": "muller2020", "title": "Inline"}, {"id": "only-inline", "title": "Here"}]
    text = "---\nreferences:\n- id: muller2020\n  title: Inline\n- id: only-inline\n"
    bibliography = load_bibliographies([path], inline, "paper.md", text)
    assert bibliography.sources == (str(path), "paper.md")
    assert bibliography.references["muller2020"].title == "Über Flüsse"
    assert [d.title for d in bibliography.duplicates] == ["Inline"]
    assert bibliography.references["only-inline"].location.line == 5
