"""What publishers' typesetting does to a printed entry, read back as the publisher printed it:
entries taken from the PDFs of ../shared/corpus/wild/publisher-pdfs (and forms like them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.bib.reflist.refparse import parse_reference_text, printed_doi
from citecore.bib.reflist.text import ends_entry, has_marker, join_lines
from citecore.cli import main
from citecore.model import SourceLocation

HERE = SourceLocation("paper.pdf")


@pytest.mark.parametrize(
    ("text", "doi"),
    [
        # Bentham's links in brackets, PMIDs after them
        ("[http://dx.doi.org/10.1016/j.joen.2005.09.014] [PMID: 16631834]",
         "10.1016/j.joen.2005.09.014"),
        # a DOI with brackets of its own keeps them (SICI; Lancet's "(20)")
        ("doi:10.1016/S0140-6736(20)30183-5.", "10.1016/S0140-6736(20)30183-5"),
        ("(doi: 10.1000/abc).", "10.1000/abc"),
        # a year glued on by the line break: Nature's "https://doi.org/… (2016)."
        ("https://doi.org/10.1186/s12859-016-1087-5(2016).", "10.1186/s12859-016-1087-5"),
        ("no identifier here", ""),
    ],
)  # fmt: skip
def test_a_printed_doi_is_read_without_what_follows_it(text: str, doi: str) -> None:
    assert printed_doi(text) == doi


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        # Dove's soft hyphens: the typesetter's break, always mended
        (["Phytoagent deoxyele\u00ad", "phantopin derivative"],
         "Phytoagent deoxyelephantopin derivative"),
        # a DOI broken at one of its full stops (Taylor & Francis)
        (["J. Biol. Chem. (2011), doi:10.1074/jbc.", "M111.291377."],
         "J. Biol. Chem. (2011), doi:10.1074/jbc.M111.291377."),
        # a DOI's end, then the next sentence: not joined
        (["https://doi.org/10.1000/abc.", "Nature 5, 1 (2020)."],
         "https://doi.org/10.1000/abc. Nature 5, 1 (2020)."),
    ],
)  # fmt: skip
def test_lines_are_joined_as_the_typesetter_broke_them(lines: list[str], joined: str) -> None:
    assert join_lines(lines) == joined


def test_link_labels_end_an_entry_and_a_year_after_a_stop_counts() -> None:
    assert ends_entry("Publisher Full Text")
    assert ends_entry("Article | PubMed | Google Scholar")
    assert not ends_entry("Publisher of full texts and")
    # "Biochem Pharmacol.2011;82(9)": typeset without its space, still a year
    assert has_marker("Anti-cancer effects of vicenin-2. Biochem Pharmacol.2011;82(9):1100–1109.")
    assert not has_marker("Version 1.2015 of the manual")


@pytest.mark.parametrize(
    ("text", "title", "family", "pmid"),
    [
        # Elsevier's numbered style: the title ends at the comma before "Journal vol (year) pages"
        ("S. Chen, J. Song, T.-P. Fan, Herbal genomics: examining the biology of traditional "
         "medicines, Science 347 (2015) 527e529.",
         "Herbal genomics: examining the biology of traditional medicines", "Chen", ""),
        ("D.J. Kliebemstein, A role for gene duplication in the Evolution of metabolism, PLoS "
         "One 3 (2008) e1838, 1e13.", "A role for gene duplication in the Evolution of metabolism",
         "Kliebemstein", ""),
        ("Y. Li, C. Xu, De novo assembly of the fruit transcriptome, PLoS One (2014c), "
         "https://doi.org/10.1371/journal.pone.0106438.", "De novo assembly of the fruit "
         "transcriptome", "Li", ""),
        # an author list is no title's phrase: "…, N. Bhatt, Ayurveda and traditional …:"
        ("B. Patwardhan, D. Warude, N. Bhatt, Ayurveda and traditional Chinese medicine: a "
         "comparative overview, Evid Based Comple. Alter Med. 2 (2005) 465e473.",
         "Ayurveda and traditional Chinese medicine: a comparative overview", "Patwardhan", ""),
        ("B. Dinda, R. Chowdhury, D. Mohanta, Naturally occurring iridoids, secoiridoids and "
         "their bioactivity, Chem. Pharm. Bull. (Tokyo) 57 (2009) 765e796.",
         "Naturally occurring iridoids, secoiridoids and their bioactivity", "Dinda", ""),
        # F1000's Vancouver names closed by a colon, a suffix after the initials
        ("Kohler NE, Turner PA: Shark tagging: a review of conventional methods and studies. "
         "Environ Biol Fish. 2001; 60(1–3): 191–223.",
         "Shark tagging: a review of conventional methods and studies", "Kohler", ""),
        ("Driggers WB III, Carlson JK: Age and growth of the blacknose shark. Environ Biol Fish. "
         "2004; 71(2): 171–178.", "Age and growth of the blacknose shark", "Driggers", ""),
        # a chapter: the title ends before "In Book (editors)"
        ("Ulrich GF, Jones CM: Habitat utilization of sharks. In Shark nursery grounds "
         "(McCandless, CT editors), American Fisheries Society. Bethesda. 2007; 125–139.",
         "Habitat utilization of sharks", "Ulrich", ""),
        # a species with its authority inside the title, and at its end before the journal
        ("Pattanayak P, Behera P. Ocimum sanctum Linn. A reservoir plant for therapeutic "
         "applications: An overview. Pharmacogn Rev 2010;4:95‐105.",
         "Ocimum sanctum Linn. A reservoir plant for therapeutic applications: An overview",
         "Pattanayak", ""),
        ("Joshi H, Parle M. Cholinergic basis of memory improving effect of Ocimum tenuiflorum "
         "Linn. Indian J Pharm Sci 2006;68:364‐5.",
         "Cholinergic basis of memory improving effect of Ocimum tenuiflorum Linn", "Joshi", ""),
        # a genus abbreviated inside the title
        ("I. Lamprou, V. J. Marmaras, Uptake of LPS/E. coli/latex beads via distinct pathways "
         "in medfly hemocytes. Biochim. Biophys. Acta 2005. doi:10.1016/j.bbamcr.2005.03.003.",
         "Uptake of LPS/E. coli/latex beads via distinct pathways in medfly hemocytes",
         "Lamprou", ""),
        # NLM brackets a translated title; PLOS prints PMIDs
        ("Bourroul GM, Fragoso HJ, et al. [The destruction complex of beta-catenin in colorectal "
         "carcinoma]. Einstein (Sao Paulo). 2016;14(2):135–142. Portuguese.",
         "The destruction complex of beta-catenin in colorectal carcinoma", "Bourroul", ""),
        ("Almoallim HM, Alharbi LA. Rheumatoid arthritis in Saudi Arabia. Saudi Med J. 2014; "
         "35(12):1442–54 PMID: 25491208,", "Rheumatoid arthritis in Saudi Arabia", "Almoallim",
         "25491208"),
        # PLOS's spaced initials (the XML's given names "S M"), alone and in a list; a list in
        # "Family, G." form after a name with spaced letters is not one of them
        ("Attar S M. Hyperlipidemia in rheumatoid arthritis patients in Saudi Arabia. Saudi Med "
         "J. 2015; 36(6):685–91. PMID: 25987110", "Hyperlipidemia in rheumatoid arthritis "
         "patients in Saudi Arabia", "Attar", "25987110"),
        ("Attar S M, Smith J A. Hyperlipidemia in arthritis. Saudi Med J. 2015; 36(6):685–91.",
         "Hyperlipidemia in arthritis", "Attar", ""),
        # Hindawi's IEEE-like entries: the list ends where the quoted title opens
        ("E. Jothie Richard, R. Illuri, B. Bethapudi et al., “Anti-stress activity of Ocimum "
         "sanctum: possible effects on the axis,” Phytotherapy Research, vol. 30, no. 5, "
         "pp. 805–814, 2016.", "Anti-stress activity of Ocimum sanctum: possible effects on "
         "the axis", "Richard", ""),
    ],
)  # fmt: skip
def test_publishers_entries_are_read_as_printed(
    text: str, title: str, family: str, pmid: str
) -> None:
    read = parse_reference_text(text, "", HERE)
    assert read.title == title
    assert read.authors and read.authors[0].family == family
    assert read.pmid == pmid


def test_an_italic_run_that_opens_a_title_is_part_of_it() -> None:
    text = (
        "Uma Devi P, Ganasoundari A. In vivo radioprotection by ocimum flavonoids: Survival of "
        "mice. Radiat Res 1999;151:74‐8."
    )
    read = parse_reference_text(text, "", HERE, italic=("In vivo",))
    assert read.title == "In vivo radioprotection by ocimum flavonoids: Survival of mice"
    book = parse_reference_text(
        "Rang HP, Dale MM. Pharmacology. Edinburgh: Churchill Livingstone; 2003.",
        "",
        HERE,
        italic=("Pharmacology",),
    )
    assert book.title == "Pharmacology"


def _pdf(path: Path, text: str | None) -> Path:
    """A one-page PDF with `text` on it, or only a grey box (a scan's image) for None."""
    import pymupdf  # start-up: only these tests make PDFs

    with pymupdf.open() as document:
        page = document.new_page()
        if text is None:
            page.draw_rect(pymupdf.Rect(50, 50, 300, 300), color=(0, 0, 0), fill=(0.5, 0.5, 0.5))
        else:
            page.insert_text((72, 72), text)
        document.save(path)
    return path


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (None, "it has no text layer (a scanned PDF? run OCR on it first"),
        ("A paper.\nIntroduction\nWe cite nobody.",
         "no References or Bibliography heading on its 1 page"),
        ("A paper.\nReferences\nWords that are no entry\nMore words",
         "the references heading on page 1"),
    ],
)  # fmt: skip
def test_a_pdf_whose_list_cannot_be_read_says_why_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | None, said: str
) -> None:
    pdf = _pdf(tmp_path / "paper.pdf", text)
    report = tmp_path / "report.json"
    assert main(["verify", str(pdf), "--offline", "-f", "json", "-o", str(report)]) == 2
    error = capsys.readouterr().err.strip()
    assert said in error and len(error.splitlines()) == 1
    assert not report.exists()  # nothing read, so no verdict on anything: nobody accused
