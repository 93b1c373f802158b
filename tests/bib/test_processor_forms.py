"""Bibliography forms that BibTeX and biber accept and that real exporters write: `%` comment
lines inside entries, redefined `@string`s, braces after a backslash, DBLP's homonym numbers,
shortDOIs, ISBN lists, every `eprint` form, placeholders. None of them is a local error; biber
(`biber --tool`) is the oracle for what an entry holds."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
from pathlib import Path
from tempfile import TemporaryDirectory

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.bib.bibtex import parse_bibtex
from citecore.bib.loader import load_bibliographies
from citecore.findings import reference_findings
from citecore.model import SEVERITY, FindingKind, Person, ReferenceVerdict, Severity, Source
from citecore.registries import crossref, doi_org
from citecore.registries.record import WorkRecord
from citecore.verify.compare import compare
from tests.emulator import RegistryEmulator, Reply, fixture
from tests.paths import SHARED
from tests.verify.test_resolve import no_hits, verify

TODAY = dt.date(2026, 12, 2)
WILD_BIB = SHARED / "corpus" / "wild" / "bib"


def one(bib: str):  # type: ignore[no-untyped-def]
    parsed = parse_bibtex(bib, "refs.bib")
    assert not parsed.unparsed, parsed.unparsed
    return parsed.references[0]


def local_problems(bib: str) -> list[str]:
    path_text = parse_bibtex(bib, "refs.bib")
    from citecore.model import Bibliography

    bibliography = Bibliography(
        ("refs.bib",), {r.key: r for r in path_text.references}, (), path_text.unparsed
    )
    return [f"{f.kind.value}: {f.message}" for f in reference_findings(bibliography, TODAY)]


def test_dblp_homonym_numbers_are_not_part_of_the_name() -> None:
    ref = one(
        "@article{k, author = {Rohit Agrawal 0002 and Lehmann 0001, Jens and Chi Jin}, "
        "title = {T}, year = 2020}"
    )
    assert [(p.given, p.family, p.homonym) for p in ref.authors] == [
        ("Rohit", "Agrawal", "0002"),
        ("Jens", "Lehmann", "0001"),
        ("Chi", "Jin", ""),
    ]
    record = WorkRecord(
        source=Source.CROSSREF,
        title="T",
        authors=(Person("Agrawal", "Rohit"), Person("Lehmann", "Jens"), Person("Jin", "Chi")),
        year=2020,
    )
    comparison = compare(ref, record)
    assert not comparison.mismatches
    assert any("homonym" in note and "Rohit Agrawal 0002" in note for note in comparison.notes)


def test_comment_lines_inside_an_entry_are_read_as_biber_reads_them() -> None:
    ref = one(
        "@article{a,\n  author = {Jane Doe},\n  % a comment line\n  title = {A title},\n"
        "  %  year = {1999},\n  year = {2001}, % trailing comment\n}\n"
    )
    assert (ref.title, ref.year, ref.location.line) == ("A title", 2001, 1)


def test_a_commented_out_string_is_no_string_and_a_later_one_redefines() -> None:
    parsed = parse_bibtex(
        "%@String{j = {Commented}}\n@String{j = {First}}\n@String{j = {Second}}\n"
        "@article{x, title = {{\\\\{\\bf SP}}}, journal = j, year = 2000}\n",
        "refs.bib",
    )
    assert not parsed.unparsed
    assert parsed.references[0].venue == "Second"


def test_shortdois_isbn_lists_and_eprint_forms_are_no_local_error() -> None:
    problems = local_problems(
        "@article{a, title = {T}, year = 2000, doi = {10/bqhp9z}}\n"
        "@book{b, title = {T2}, year = 2000, isbn = {978-3-319-45278-4 978-3-319-45279-1}}\n"
        "@book{c, title = {T3}, year = 2000, isbn = {0262182394, 9780262182393}}\n"
        "@misc{d, title = {T4}, year = 2013, eprint = {1301.3781 [cs]}, eprinttype = {arxiv}}\n"
        "@misc{e, title = {T5}, year = 2023, eprint = {arXiv:2301.04531 [cs.LG]}}\n"
        "@misc{f, title = {T6}, year = 2004, eprint = {0401008}, archiveprefix = {arXiv}, "
        "primaryclass = {hep-th}}\n"
        "@article{g, title = {T7}, year = 2023, eprint = {37676166}, eprinttype = {pmid}}\n"
    )
    assert problems == []
    refs = {r.key: r for r in parse_bibtex(
        "@misc{d, title = {T4}, eprint = {1301.3781 [cs]}, eprinttype = {arxiv}}\n"
        "@misc{e, title = {T5}, eprint = {arXiv:2301.04531 [cs.LG]}}\n"
        "@misc{f, title = {T6}, eprint = {0401008}, archiveprefix = {arXiv}, "
        "primaryclass = {hep-th}}\n"
        "@article{g, title = {T7}, eprint = {37676166}, eprinttype = {pmid}}\n"
        "@article{h, title = {T8}, eprint = {https://doi.org/10.1175/2008JCLI2630.1}}\n",
        "refs.bib",
    ).references}  # fmt: skip
    assert refs["d"].arxiv_id == "1301.3781"
    assert refs["e"].arxiv_id == "2301.04531"
    assert refs["f"].arxiv_id == "hep-th/0401008"
    assert refs["g"].pmid == "37676166"
    assert refs["h"].doi == "10.1175/2008JCLI2630.1" and not refs["h"].arxiv_id


def test_each_isbn_of_a_list_is_checked_and_an_issn_is_named() -> None:
    problems = local_problems(
        "@book{b, title = {T}, year = 2000, isbn = {978-3-319-45278-4 978-3-319-45279-2}}\n"
        "@article{m, title = {T2}, year = 2000, isbn = {0079-6123}}\n"
    )
    assert problems == [
        "malformed_id: ISBN '9783319452792' is malformed (expected an ISBN-10 or ISBN-13 "
        "with a valid check digit)",
        "malformed_id: ISBN field holds an ISSN (0079-6123), not an ISBN",
    ]
    # What BibTeX accepts is never an error: a malformed identifier is a warning.
    assert SEVERITY[FindingKind.MALFORMED_ID] is Severity.WARNING


def test_a_placeholder_is_said_once_and_never_sent(emulator: RegistryEmulator) -> None:
    bib = (
        "@article{k, title = {A Paper Still in Preparation}, author = {Doe, Jane}, "
        "year = 2024, doi = {10.xxxx/xxxxx}, eprint = {XXXX.YYYYY}, archiveprefix = {arXiv}}"
    )
    assert local_problems(bib) == [
        "malformed_id: DOI '10.xxxx/xxxxx' is a placeholder, not an identifier (not looked up)",
        "malformed_id: arXiv id 'XXXX.YYYYY' is a placeholder, not an identifier (not looked up)",
    ]
    ref = one(bib)
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    # Only the title searches went out: no DOI or arXiv id request, and no second accusation.
    assert not any(m.field in ("doi", "arxiv") for m in result.mismatches)
    assert result.verdict is ReferenceVerdict.NOT_FOUND


def test_a_shortdoi_is_resolved_through_doi_org(emulator: RegistryEmulator) -> None:
    ref = one(
        "@article{sankar2014, title = {Automated quantitative histology reveals vascular "
        "morphodynamics during {Arabidopsis} hypocotyl secondary growth}, author = {Sankar, "
        "Martial and Nieminen, Kaisa and Ragni, Laura and Xenarios, Ioannis and Hardtke, "
        "Christian S.}, journal = {eLife}, year = {2014}, doi = {10/f5zpm4}}"
    )
    alias = (
        '{"responseCode":1,"handle":"10/f5zpm4","values":[{"index":1,"type":"HS_ALIAS",'
        '"data":{"format":"string","value":"10.7554/eLife.01567"}}]}'
    )
    emulator.serve(doi_org.alias_request("10/f5zpm4"), Reply(200, alias))
    emulator.serve(
        crossref.work_request("10.7554/elife.01567"),
        fixture("crossref/works_10.7554_elife.01567.json"),
    )
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert "shortDOI 10/f5zpm4 stands for 10.7554/eLife.01567" in result.notes


def test_a_shortdoi_doi_org_does_not_know_is_a_doi_mismatch(emulator: RegistryEmulator) -> None:
    ref = one("@article{k, title = {A Paper}, author = {Doe, Jane}, year = 2020, doi = {10/zzzz9}}")
    emulator.serve(
        doi_org.alias_request("10/zzzz9"),
        Reply(404, '{"responseCode":100,"handle":"10/zzzz9"}'),
    )
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert [(m.field, m.reason) for m in result.mismatches] == [
        ("doi", "this shortDOI does not exist")
    ]


@pytest.mark.parametrize("path", sorted(WILD_BIB.glob("*.bib")), ids=lambda p: p.name)
def test_real_exports_get_no_false_local_error(path: Path) -> None:
    """Every real exporter's bibliography: no error-level local finding on an entry, except the
    ones BibTeX and biber themselves reject (a repeated key, an entry they cannot read)."""
    bibliography = load_bibliographies([path])
    errors = [
        f
        for f in reference_findings(bibliography, TODAY)
        if f.severity is Severity.ERROR
        and f.kind not in (FindingKind.DUPLICATE_KEY, FindingKind.UNPARSED)
    ]
    assert errors == []


# -- the class, against biber ------------------------------------------------------------------

FIELDS = st.lists(
    st.tuples(
        st.sampled_from(["title", "journal", "year", "note", "publisher", "volume"]),
        # Letters only: biber drops a field whose whole value is "0" (Perl's false), a quirk
        # of its own that says nothing about comments.
        st.text(alphabet="abcdefgh XYZ", min_size=1, max_size=12).map(str.strip).filter(bool),
    ),
    min_size=1,
    max_size=5,
    unique_by=lambda kv: kv[0],
)
COMMENT = st.sampled_from(["% a comment", "%year = {1999},", "  %% note }", "%@string{x = {y}}"])


@st.composite
def commented_entry(draw: st.DrawFn) -> str:
    lines = ["@misc{key,"]
    for name, value in draw(FIELDS):
        if draw(st.booleans()):
            lines.append(draw(COMMENT))
        lines.append(f"  {name} = {{{value}}},")
    if draw(st.booleans()):
        lines.append(draw(COMMENT))
    lines.append("}")
    return "\n".join(lines) + "\n"


def biber_fields(bib: str) -> dict[str, str]:
    with TemporaryDirectory() as folder:
        Path(folder, "in.bib").write_text(bib, encoding="utf-8")
        subprocess.run(
            ["biber", "--tool", "--quiet", "--output-file=out.bib", "in.bib"],
            cwd=folder,
            capture_output=True,
            check=True,
        )
        out = Path(folder, "out.bib").read_text(encoding="utf-8")
    # biber writes a value that reads as a month's name ("feb") bare, as its own macro would be.
    return {
        name.lower(): braced or bare
        for name, braced, bare in re.findall(
            r"^\s+([A-Z]+) = (?:\{(.*)\}|([a-z]+)),$", out, flags=re.M
        )
    }


@pytest.mark.skipif(shutil.which("biber") is None, reason="needs biber")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commented_entry())
def test_comment_lines_read_as_biber_reads_them(bib: str) -> None:
    expected = biber_fields(bib)
    ref = one(bib)
    assert ref.title == expected.get("title", "")
    assert ref.venue == expected.get("journaltitle", "")
    assert ref.volume == expected.get("volume", "")
    assert ref.publisher == expected.get("publisher", "")
