"""Plain-text reference lists and the reference sections of real PDFs."""

from __future__ import annotations

import pytest

from citecore.bib.reflist.read import references_from_pdf, references_from_text
from citecore.bib.reflist.text import split_references
from tests.paths import CORPUS

LIST = """References

[1] A. Vaswani, N. Shazeer, N. Parmar, et al. Attention is all you need. In Advances in Neural
Information Processing Systems 30, pages 5998–6008, 2017. arXiv:1706.03762.
[2] LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436–444.
https://doi.org/10.1038/nature14539
[3] Smith J, Doe A. “A quoted title of some length here.” J Tests. 2019;3:1-2.
[4] Not a reference, it has no year or identifier
"""


def test_numbered_list_fields() -> None:
    refs = references_from_text(LIST, "refs.txt")
    summary = [
        (r.key, r.location.line, r.title, r.authors[0].family, r.year, r.doi, r.arxiv_id)
        for r in refs
    ]
    assert summary == [
        ("ref1-vaswani2017", 3, "Attention is all you need", "Vaswani", 2017, "", "1706.03762"),
        ("ref2-lecun2015", 5, "Deep learning", "LeCun", 2015, "10.1038/nature14539", ""),
        ("ref3-smith2019", 7, "A quoted title of some length here", "Smith", 2019, "", ""),
    ]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        # Cite Them Right set flush: entries open with names or with an author and its date
        (
            "Firke, S. (2021) Janitor: Simple tools. Available at: https://x.org/janitor.\n"
            "FCC (2021) “Fourteenth broadband deployment report.” https://www.fcc.gov/reports/\n"
            "fourteenth-broadband-deployment-report.\n"
            "World Bank Group (2023) “World development indicators.” https://databank.org/\n"
            "“SmartNoise” (2023) SmartNoise. Available at: https://docs.smartnoise.org/.\n",
            4,
        ),
        ("- Doe J. A title here. 2001.\n- Roe R. Another title. 2002.\n", 2),
        ("Doe J. A title here. 2001.\n\nRoe R. Another\ntitle. 2002.\n\nNo year here.\n", 2),
        ("1. Doe J. One. 2001.\n2. Roe R. Two. 10.1000/xyz\n", 2),
    ],
)
def test_list_forms(text: str, count: int) -> None:
    assert len(split_references(text)) == count


@pytest.mark.parametrize(
    ("pdf", "at_least", "expected"),
    [
        (
            "vaswani2017-attention-is-all-you-need-arXiv1706.03762v5.pdf",
            35,
            ("Layer normalization", "Ba", 2016),
        ),
        (
            "he2016-deep-residual-learning-arXiv1512.03385.pdf",
            45,
            ("Learning long-term dependencies with gradient descent is difficult", "Bengio", 1994),
        ),
        (
            "goodfellow2014-generative-adversarial-nets-arXiv1406.2661v1.pdf",
            25,
            ("Theano: new features and speed improvements", "Bastien", 2012),
        ),
    ],
)
def test_reference_sections_of_real_pdfs(
    pdf: str, at_least: int, expected: tuple[str, str, int]
) -> None:
    refs = references_from_pdf(CORPUS / "pdfs" / pdf)
    assert len(refs) >= at_least
    first = refs[0]
    assert (first.title, first.authors[0].family, first.year) == expected


@pytest.mark.parametrize(
    ("printed", "author", "organization", "year", "title"),
    [
        (
            "R Core Team. (2020). R: A language and environment for statistical computing. "
            "R Foundation for Statistical Computing. https://www.R-project.org/",
            "R Core Team", True, 2020, "R: A language and environment for statistical computing",
        ),
        (
            "World Bank Group (2023) World development indicators. Available at: https://x.org/",
            "World Bank Group", True, 2023, "World development indicators",
        ),
        (
            "OECD (2021) Education at a glance 2021: OECD indicators. Paris: OECD Publishing.",
            "OECD", True, 2021, "Education at a glance 2021: OECD indicators",
        ),
        (
            "U.S. Department of Commerce. Non-Fiscal Surveys of the Common Core of Data (2020).",
            "U.S. Department of Commerce", True, 2020,
            "Non-Fiscal Surveys of the Common Core of Data",
        ),
        (
            "Yoshua Bengio. 2009. Learning deep architectures for AI. Now Publishers.",
            "Bengio", False, 2009, "Learning deep architectures for AI",
        ),
        (
            "Walt, Stéfan van der, and Li Smith. 2011. “The NumPy Array.” Computing in Science 13.",
            "Walt", False, 2011, "The NumPy Array",
        ),
        # Lists that run on past names no form describes (real bibliographies of the corpus).
        (
            "Perou, C. M., Sørlie, T., Rijn, van de, M., Botstein, D., 2000. Molecular portraits "
            "of human breast tumours. Nature 406, 747–752.",
            "Perou", False, 2000, "Molecular portraits of human breast tumours",
        ),
        (
            "Hale, T.; Angrist, N.; Webster, S.; al., et. A Global Panel Database of Pandemic "
            "Policies. Nature Human Behaviour 2021, 5 (4), 529–538.",
            "Hale", False, 2021, "A Global Panel Database of Pandemic Policies",
        ),
        (
            "Regier, J.; McAuliffe, J.; Prabhat. Learning an Astronomical Catalog of the Visible "
            "Universe. ArXiv e-prints 2016.",
            "Regier", False, 2016, "Learning an Astronomical Catalog of the Visible Universe",
        ),
        (
            "Agafonkin V, leaflet contributors. Leaflet - an open-source JavaScript library "
            "[Internet]. 2019 [cited 2019 May 14]. Available from: http://leafletjs.com/",
            "Agafonkin", False, 2019, "Leaflet - an open-source JavaScript library",
        ),
        (
            "Wang, J.; Murray, J. m.; Zhang, N. R. Gene expression distribution deconvolution. "
            "Proc. Natl. Acad. Sci. U.S.A. 2018, 115 (28), E6437–E6446.",
            "Wang", False, 2018, "Gene expression distribution deconvolution",
        ),
        (
            "E.-J. Wagenmakers, the dc.js Developers, and 0. Ghattas, Estimation method. "
            "Springer, 2012.",
            "Wagenmakers", False, 2012, "Estimation method",
        ),
        (  # ACM's names in natural order: a middle initial, a capitalised particle
            "Kevin P. Lawton. Bochs: A portable pc emulator for unix/x. Linux J., 1996.",
            "Lawton", False, 1996, "Bochs: A portable pc emulator for unix/x",
        ),
        (
            "Michael L. Van de Vanter, Chris Seaton, and Thomas Würthinger. Fast, flexible, "
            "polyglot instrumentation support for debuggers. CoRR, abs/1803.10201, 2018.",
            "Vanter", False, 2018, "Fast, flexible, polyglot instrumentation support for debuggers",
        ),
        (  # a given name and an initial without its period: natural order
            "John K Kruschke. What to believe: Bayesian methods for data analysis. Trends in "
            "Cognitive Sciences. 2010 Jul;14(7):293–300.",
            "Kruschke", False, 2010, "What to believe: Bayesian methods for data analysis",
        ),
        (
            "John D Hunter, others. Matplotlib: A 2D graphics environment. Computing in science "
            "and engineering. 2007;9(3):90–5.",
            "Hunter", False, 2007, "Matplotlib: A 2D graphics environment",
        ),
        (  # Vancouver's one-word title after "Family II."
            "Grecco HE. Pint. GitHub repository. https://github.com/hgrecco/pint; GitHub; 2018.",
            "Grecco", False, 2018, "Pint",
        ),
        (  # Vancouver's "Family I." before a one-word title and "In:" stays Vancouver's
            "Bayer M. SQLAlchemy. In: Brown A, Wilson G, editors. The Architecture of Open Source "
            "Applications. 2012.",
            "Bayer", False, 2012, "SQLAlchemy",
        ),
        (  # ACM: organisations listed "…, and …" before the title
            "National Academies of Sciences, Engineering, and Medicine. Fostering Integrity in "
            "Research. The National Academies Press, Washington, DC, 2017.",
            "National Academies of Sciences, Engineering, and Medicine", True, 2017,
            "Fostering Integrity in Research",
        ),
        (  # ACM: no author, the date first
            "2011. pyfakefs implements a fake file system. https://github.com/x/pyfakefs.",
            None, False, 2011, "pyfakefs implements a fake file system",
        ),
        (  # IEEE: a book's edition ends its title; a subtitle before "In"
            "S. D. Conte and C. W. D. Boor, Elementary Numerical Analysis: An Algorithmic "
            "Approach, 3rd ed. McGraw-Hill Higher Education, 1980, https://goo.gl/E5qKGA.",
            "Conte", False, 1980, "Elementary Numerical Analysis: An Algorithmic Approach",
        ),
        (
            "A. Groce, I. Ahmed, and P. E. McKenney. 2015. How verified is my code? "
            "Falsification-driven verification. In ASE.",
            "Groce", False, 2015, "How verified is my code? Falsification-driven verification",
        ),
        (  # a month and year after an undated title; a lower-case initial after a hyphen
            "J.-h. Kim, C. Willis, and M. Burnette. TERRA-REF Analysis Workbench: Containerbased "
            "Environments for Low-Barrier Access to Research Data, May 2017.",
            "Kim", False, 2017,
            "TERRA-REF Analysis Workbench: Containerbased Environments for Low-Barrier Access to "
            "Research Data",
        ),
        (  # MDPI/ACS: "; et al.", a two-letter initial, a nickname after the initials
            "Harris, C.R.; Walt, S.J. van der; Smith, N.J.; et al. Array Programming with NumPy. "
            "Nature 2020, 585, 357–362.",
            "Harris", False, 2020, "Array Programming with NumPy",
        ),
        (
            "Xiong, W.; Faes, L.; Ivanov, P.Ch. Entropy Measures. Physical Review E 2017, 95.",
            "Xiong", False, 2017, "Entropy Measures",
        ),
        (
            "Namdari, A.; Li, Z.(Steven). A Review of Entropy Measures. Advances in Mechanical "
            "Engineering 2019, 11, 168781401985735.",
            "Namdari", False, 2019, "A Review of Entropy Measures",
        ),
        (  # Nature's order: the organisation, a period, the title, the date
            "The QGIS Team. QGIS project. (2016). http://www.qgis.org",
            "The QGIS Team", True, 2016, "QGIS project",
        ),
        (  # a PLOS article number is no year
            "Lowndes, J. S. S. et al. Best practices for assessing ocean health. PeerJ 3, e1503 "
            "(2015). doi:10.7717/peerj.1503",
            "Lowndes", False, 2015, "Best practices for assessing ocean health",
        ),
        (
            "The Astropy Collaboration; Price-Whelan, A. M.; Zabalza, V. The Astropy Project. "
            "AJ 2018, 156, 123.",
            "The Astropy Collaboration", True, 2018, "The Astropy Project",
        ),
        # Elsevier–Harvard: a name alone before ", YEAR." is the author; alone, the title.
        (
            "Sanoma, 2024. The LVS bes project (English).",
            "Sanoma", True, 2024, "The LVS bes project (English)",
        ),
        # No journal printed: the title runs to the date and volume, its sentences included.
        (
            "Moran SE, Sing DK, et al. High Tide on the Cosmic Shoreline? A Water-rich "
            "Atmosphere from JWST Observations. 2023 May;948(1):L11.",
            "Moran", False, 2023,
            "High Tide on the Cosmic Shoreline? A Water-rich Atmosphere from JWST Observations",
        ),
        (
            "Etz A, Vandekerckhove J. A Bayesian perspective on the reproducibility project: "
            "psychology. Marinazzo D, editor. PLOS ONE. 2016;11: e0149794.",
            "Etz", False, 2016,
            "A Bayesian perspective on the reproducibility project: psychology",
        ),
        (  # APA 6's spaced ellipsis for the authors left out
            "Burriss, R. P., Troscianko, J., Quigley, R., . . . Rowland, H. M. (2015). Changes in "
            "Women’s Facial Skin Color. PLOS ONE, 10(7), e0130093.",
            "Burriss", False, 2015,
            "Changes in Women’s Facial Skin Color",
        ),
        (  # a word quoted inside a title is not the title
            "Auguie, B. (2017). gridExtra: Miscellaneous functions for “grid” graphics. "
            "Retrieved from https://CRAN.R-project.org/package=gridExtra",
            "Auguie", False, 2017,
            "gridExtra: Miscellaneous functions for “grid” graphics",
        ),
        (
            "Kahane, G., & Savulescu, J. (2015). “Utilitarian” judgments in sacrificial moral "
            "dilemmas. Cognition, 134, 193–209.",
            "Kahane", False, 2015,
            "“Utilitarian” judgments in sacrificial moral dilemmas",
        ),
        (
            "Lakens, D., & Zwaan, R. (2017). Justify Your Alpha: A Response to “Redefine "
            "Statistical Significance”. PsyArXiv. doi:10.17605/OSF.IO/9S3Y6",
            "Lakens", False, 2017,
            "Justify Your Alpha: A Response to “Redefine Statistical Significance”",
        ),
        (  # Harvard's single quotes around a title with a plural's apostrophe in it
            "Baker, N. J. and Roslin, T. (2015) ‘Species’ roles in food webs show fidelity’, "
            "Ecography, 38(2), pp. 130–139.",
            "Baker", False, 2015,
            "Species’ roles in food webs show fidelity",
        ),
        (
            "Smith, J. (2015) ‘Counting the species’, Nature, 3, pp. 1–2.",
            "Smith", False, 2015,
            "Counting the species",
        ),
        (  # a quoted title of its own
            "A. Vaswani and N. Parmar, “Attention is all you need,” in Proc. NeurIPS, 2017.",
            "Vaswani", False, 2017,
            "Attention is all you need",
        ),
        (  # Harvard's edition note between the date and the title
            "Holland, J.H. (1975) second edition, 1992. Adaptation in natural and artificial "
            "systems. Ann Arbor, MI, University of Michigan Press.",
            "Holland", False, 1975, "Adaptation in natural and artificial systems",
        ),
        (  # a year at the end of the title, the entry's date printed before it: the title's
            "Brandt, M. J., & Blanken, I. (2014). A Replication of Banerjee, Chatterjee, and "
            "Sinha (2012). Social Psychology, 45(3), 246–252.",
            "Brandt", False, 2014, "A Replication of Banerjee, Chatterjee, and Sinha (2012)",
        ),
        (  # no date: "(n.d.)" is the date's place, and the entry is still a reference
            "Chauhan, D., Singh, S. & Banga, V.K. (n.d.) Speedup of Type-1 Fuzzy Logic Systems "
            "on Graphics Processing Units Using CUDA. 5.",
            "Chauhan", False, None,
            "Speedup of Type-1 Fuzzy Logic Systems on Graphics Processing Units Using CUDA",
        ),
    ],
)  # fmt: skip
def test_authors_as_a_librarian_reads_them(
    printed: str, author: str | None, organization: bool, year: int | None, title: str
) -> None:
    (reference,) = references_from_text(printed, "refs.txt")
    if author is None:
        assert not reference.authors
    else:
        first = reference.authors[0]
        assert (first.family, first.is_organization) == (author, organization)
    assert (reference.year, reference.title) == (year, title)


def test_the_rule_for_the_same_authors_is_the_entry_befores() -> None:
    """IEEE prints "——," for the authors of the entry before: those are this entry's."""
    text = (
        "References\n\n[1] E. J. Powley, D. Whitehouse, and P. I. Cowling, “Monte Carlo Tree "
        "Search with Macro-Actions,” in Proc. IEEE CIG, 2013, pp. 73–80.\n[2] ——, “Heuristic "
        "route planning for the Physical Travelling Salesman Problem,” in Proc. IEEE CIG, 2012.\n"
    )
    first, second = references_from_text(text, "refs.txt")
    assert second.authors == first.authors
    assert second.title == "Heuristic route planning for the Physical Travelling Salesman Problem"
    assert (second.key, second.year) == ("ref2-powley2012", 2012)
