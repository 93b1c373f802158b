"""The matching rules, table-driven on real-world name, title and venue forms."""

from __future__ import annotations

import pytest

from citecore.bib.bibtex import parse_bibtex
from citecore.bib.names import parse_bibtex_name
from citecore.model import Person, Reference, Source, SourceLocation
from citecore.registries.record import WorkRecord
from citecore.verify.compare import (
    compare,
    compare_authors,
    compare_titles,
    same_person,
)
from citecore.verify.journal_names import is_acronym
from citecore.verify.venues import Agreement, compare_venues, venue_year_problem


@pytest.mark.parametrize(
    ("cited", "found", "same"),
    [
        ("Attention Is All You Need", "Attention is all you need", True),
        (
            "{BERT}: Pre-training of Deep Bidirectional Transformers",
            "BERT: Pretraining of deep bidirectional transformers",
            True,
        ),
        (
            "Deep Residual Learning for Image Recognition",
            "Deep residual learning for image recognition: a study",
            True,
        ),  # subtitle omitted
        ("Deep Learning", "Deep learning: a critical appraisal", False),  # main title too short
        ("The α-decay of heavy nuclei", "The alpha-decay of heavy nuclei", True),
        ("Café society in Zürich", "Cafe Society in Zurich", True),
        ("Generative adversarial nets", "Generative adversarial networks", False),
        ("Generative adversarial nets", "Conditional image synthesis", False),
    ],
)
def test_titles(cited: str, found: str, same: bool) -> None:
    assert compare_titles(cited, found).same is same


def test_title_similarity_separates_near_misses_from_other_works() -> None:
    near = compare_titles("Generative adversarial nets", "Generative adversarial networks")
    other = compare_titles("Generative adversarial nets", "Conditional image synthesis")
    assert near.similarity >= 0.75 > other.similarity


@pytest.mark.parametrize(
    ("cited", "found", "same"),
    [
        ("LeCun, Yann", Person("LeCun", "Yann"), True),
        ("Yann LeCun", Person("LeCun", "Y."), True),
        ("LeCun Y", Person("LeCun", "Yann"), True),
        (r"Heged{\H u}s, P{\'e}ter", Person("Hegedűs", "Péter"), True),
        ("von Neumann, John", Person("von Neumann", "John"), True),
        ("von Neumann, John", Person("Neumann", "J."), True),
        ("Maria de la Cruz", Person("de la Cruz", "Maria"), True),
        ("García Márquez, Gabriel", Person("Márquez", "G."), True),
        ("Smith, John", Person("Smyth", "John"), False),
        ("Antoniol, Giuliano", Person("Antonio", "Giuliano"), True),  # one letter, long name
        ("Wang, Li", Person("Wong", "Li"), False),
        (
            "{World Health Organization}",
            Person("World Health Organization", is_organization=True),
            True,
        ),
    ],
)
def test_people(cited: str, found: Person, same: bool) -> None:
    assert same_person(parse_bibtex_name(cited), found) is same


SAME, DIFFERENT, UNDECIDED = Agreement.SAME, Agreement.DIFFERENT, Agreement.UNDECIDED


@pytest.mark.parametrize(
    ("cited", "names", "agreement"),
    [
        # Journals: full names, ISO 4 and NLM abbreviations (PubMed's MedlineTA, Europe PMC's
        # ISO abbreviation, Crossref's short-container-title), initialisms.
        ("Nature", ["Nature"], SAME),
        ("Nature", ["Nature Communications"], DIFFERENT),
        ("Nat. Commun.", ["Nature Communications"], SAME),
        ("Science", ["Science Advances"], DIFFERENT),
        ("Proc. Natl. Acad. Sci.", ["Proceedings of the National Academy of Sciences"], SAME),
        (
            "Proc Natl Acad Sci U S A",
            ["Proceedings of the National Academy of Sciences of the United States of America"],
            SAME,
        ),
        ("Proc Natl Acad Sci USA", ["Proceedings of the National Academy of Sciences"], SAME),
        ("PNAS", ["Proceedings of the National Academy of Sciences", "PNAS"], SAME),
        ("N Engl J Med", ["New England Journal of Medicine"], SAME),
        ("JAMA", ["Journal of the American Medical Association"], SAME),
        ("Lancet", ["The Lancet"], SAME),
        ("BMJ", ["British Medical Journal"], SAME),
        ("J Biol Chem", ["Journal of Biological Chemistry"], SAME),
        ("Nucleic Acids Res", ["Nucleic Acids Research"], SAME),
        ("Phys. Rev. Lett.", ["Physical Review Letters"], SAME),
        ("Physical Review Letters", ["Physical Review B"], DIFFERENT),
        ("PLoS ONE", ["PLOS ONE"], SAME),
        ("J. Mach. Learn. Res.", ["Journal of Machine Learning Research"], SAME),
        ("JMLR", ["Journal of Machine Learning Research"], SAME),
        ("Mach. Learn.", ["Machine Learning"], SAME),
        ("Trans. Mach. Learn. Res.", ["Transactions on Machine Learning Research"], SAME),
        (
            "IEEE Trans. Pattern Anal. Mach. Intell.",
            ["IEEE Transactions on Pattern Analysis and Machine Intelligence"],
            SAME,
        ),
        ("Cell", ["Cell Reports", "Cell Rep."], DIFFERENT),
        ("Nat Commun", ["Nature"], DIFFERENT),
        ("Sci Adv", ["Science"], DIFFERENT),
        ("Phys Rev D", ["Physical Review D"], SAME),
        ("Phys Rev D", ["Physical Review B"], DIFFERENT),
        ("J. Phys. A", ["Journal of Physics A: Mathematical and Theoretical"], SAME),
        ("J. Phys. B", ["Journal of Physics A: Mathematical and Theoretical"], DIFFERENT),
        ("Proc. R. Soc. B", ["Proceedings of the Royal Society B: Biological Sciences"], SAME),
        (
            "Angew. Chem. Int. Ed. Engl.",
            ["Angewandte Chemie (International ed. in English)"],
            SAME,
        ),
        (
            "Philos Trans R Soc Lond B Biol Sci",
            ["Philosophical Transactions of the Royal Society B: Biological Sciences"],
            SAME,
        ),
        ("J Am Chem Soc", ["Journal of the American Chemical Society"], SAME),
        ("JACS", ["Journal of the American Chemical Society"], SAME),
        ("Mon Not R Astron Soc", ["Monthly Notices of the Royal Astronomical Society"], SAME),
        ("Astrophys J", ["The Astrophysical Journal"], SAME),
        ("Q J Econ", ["The Quarterly Journal of Economics"], SAME),
        ("Dtsch Arztebl Int", ["Deutsches Arzteblatt international"], SAME),
        ("J Neurosci", ["Journal of Neurochemistry"], DIFFERENT),
        ("Lancet", ["The Lancet Oncology"], DIFFERENT),
        ("Mol Biol Evol", ["Molecular Biology and Evolution", "Mol. Biol. Evol."], SAME),
        # Conferences: acronyms, former names, proceedings titles across the years.
        ("NeurIPS", ["Advances in Neural Information Processing Systems 35"], SAME),
        ("NIPS", ["Advances in Neural Information Processing Systems 30"], SAME),
        ("NIPS", ["NeurIPS"], SAME),
        ("Advances in Neural Information Processing Systems", ["NeurIPS"], SAME),
        ("ICML", ["Proceedings of the 39th International Conference on Machine Learning"], SAME),
        ("ICML", ["International Conference on Machine Learning and Applications"], DIFFERENT),
        (
            "AAAI",
            ["Proceedings of the 39th International Conference on Machine Learning"],
            DIFFERENT,
        ),
        ("AAAI", ["Proceedings of the AAAI Conference on Artificial Intelligence"], SAME),
        ("AAAI", ["National Conference on Artificial Intelligence"], SAME),
        ("ICLR", ["International Conference on Learning Representations"], SAME),
        (
            "CVPR",
            ["2022 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"],
            SAME,
        ),
        (
            "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
            ["2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)"],
            SAME,
        ),
        ("ICCV", ["2021 IEEE/CVF International Conference on Computer Vision (ICCV)"], SAME),
        (
            "ICCV",
            ["2022 IEEE/CVF Conference on Computer Vision and Pattern Recognition"],
            DIFFERENT,
        ),
        ("ECCV", ["Computer Vision – ECCV 2022"], SAME),
        ("ECCV", ["Lecture Notes in Computer Science"], UNDECIDED),
        (
            "EMNLP",
            [
                "Proceedings of the 2020 Conference on Empirical Methods in Natural Language "
                "Processing (EMNLP)"
            ],
            SAME,
        ),
        (
            "NAACL-HLT",
            [
                "Proceedings of the 2019 Conference of the North American Chapter of the "
                "Association for Computational Linguistics: Human Language Technologies"
            ],
            SAME,
        ),
        (
            "ACL",
            [
                "Proceedings of the 60th Annual Meeting of the Association for Computational "
                "Linguistics"
            ],
            SAME,
        ),
        (
            "KDD",
            [
                "Proceedings of the 26th ACM SIGKDD International Conference on Knowledge "
                "Discovery & Data Mining"
            ],
            SAME,
        ),
        ("KDD", ["Pacific-Asia Conference on Knowledge Discovery and Data Mining"], DIFFERENT),
        ("WWW", ["Proceedings of the ACM Web Conference 2022"], SAME),
        ("TheWebConf", ["WWW '20: Proceedings of The Web Conference 2020"], SAME),
        (
            "SIGIR",
            [
                "Proceedings of the 44th International ACM SIGIR Conference on Research and "
                "Development in Information Retrieval"
            ],
            SAME,
        ),
        (
            "CHI",
            ["Proceedings of the 2019 CHI Conference on Human Factors in Computing Systems"],
            SAME,
        ),
        (
            "UAI",
            [
                "Proceedings of the Thirty-Seventh Conference on Uncertainty in Artificial "
                "Intelligence"
            ],
            SAME,
        ),
        ("AISTATS", ["International Conference on Artificial Intelligence and Statistics"], SAME),
        ("COLT", ["Conference on Learning Theory"], SAME),
        ("ISIT", ["2021 IEEE International Symposium on Information Theory (ISIT)"], SAME),
        ("SOSP", ["Proceedings of the 27th ACM Symposium on Operating Systems Principles"], SAME),
        ("OSDI", ["14th USENIX Symposium on Operating Systems Design and Implementation"], SAME),
        ("SysML", ["Proceedings of Machine Learning and Systems"], SAME),
        ("ICML", ["Journal of Machine Learning Research"], DIFFERENT),
        # Workshops and Findings are not the main track.
        (
            "CVPR",
            [
                "2021 IEEE/CVF Conference on Computer Vision and Pattern Recognition Workshops "
                "(CVPRW)"
            ],
            DIFFERENT,
        ),
        (
            "EMNLP",
            ["Findings of the Association for Computational Linguistics: EMNLP 2021"],
            DIFFERENT,
        ),
        (
            "Findings of ACL",
            ["Findings of the Association for Computational Linguistics: ACL 2023"],
            SAME,
        ),
        ("NeurIPS Workshop on Machine Learning for Health", ["NeurIPS"], DIFFERENT),
        # Invented venues are no venue of the record.
        (
            "Symposium on Neural Scaling Laws",
            ["International Conference on Learning Representations"],
            DIFFERENT,
        ),
        ("International Conference on Quantum Machine Learning", ["ICML"], DIFFERENT),
        (
            "Journal of Adversarial Machine Learning",
            ["Transactions on Machine Learning Research"],
            DIFFERENT,
        ),
        # An acronym the table does not know, against a name it cannot be matched to.
        (
            "GECCO",
            ["Proceedings of the Genetic and Evolutionary Computation Conference"],
            UNDECIDED,
        ),
    ],
)
def test_venues(cited: str, names: list[str], agreement: Agreement) -> None:
    assert compare_venues(cited, names).agreement is agreement


@pytest.mark.parametrize(
    ("venue", "acronym"),
    [
        ("NeurIPS", True),
        ("CVPR 2016", True),
        ("NAACL-HLT", True),
        ("Nature", False),
        ("Science", False),
    ],
)
def test_acronyms(venue: str, acronym: bool) -> None:
    assert is_acronym(venue) is acronym


@pytest.mark.parametrize(
    ("venue", "year", "problem"),
    [
        ("ICLR", 2010, "ICLR was first held in 2013"),
        ("ICLR", 2015, ""),
        ("NeurIPS 2019", 2021, "the venue names the year 2019"),
        ("NeurIPS 2019", 2020, ""),  # proceedings appear the year after, often
        ("Nature", 1850, ""),
    ],
)
def test_venue_years(venue: str, year: int, problem: str) -> None:
    assert venue_year_problem(venue, year).startswith(problem)


def reference(bib: str) -> Reference:
    return parse_bibtex(bib, "r.bib").references[0]


RECORD = WorkRecord(
    Source.CROSSREF,
    "Deep learning",
    (Person("LeCun", "Yann"), Person("Bengio", "Yoshua"), Person("Hinton", "Geoffrey")),
    2015,
    "Nature",
    "10.1038/nature14539",
)


@pytest.mark.parametrize(
    ("bib", "fields", "notes"),
    [
        (
            "@article{k, title={Deep Learning}, author={LeCun, Yann and Bengio, Yoshua and "
            "Hinton, Geoffrey}, journal={Nature}, year=2015}",
            [],
            0,
        ),
        ("@article{k, title={Deep Learning}, author={LeCun, Yann and others}, year=2016}", [], 1),
        (
            "@article{k, title={Deep Learning}, author={Bengio, Yoshua and LeCun, Yann and "
            "others}, year=2015}",
            ["first_author"],
            0,
        ),
        (
            "@article{k, title={Deep Learning}, author={LeCun, Y. and Smith, J. and others}, "
            "year=2015}",
            ["authors"],
            0,
        ),
        # A list that stops early without "and others".
        ("@article{k, title={Deep Learning}, author={LeCun, Yann and Bengio, Y.}}", ["authors"], 0),
        (
            "@article{k, title={Deep Learning}, author={LeCun, Yann and others}, year=2012}",
            ["year"],
            0,
        ),
        (
            "@article{k, title={Deep Learning}, author={LeCun, Yann and others}, "
            "journal={Nature Communications}}",
            ["venue"],
            0,
        ),
        # An acronym is compared, not skipped.
        (
            "@article{k, title={Deep Learning}, author={LeCun, Yann and others}, "
            "journal={NeurIPS}}",
            ["venue"],
            0,
        ),
        ("@article{k, title={Deep Learning}, journal={arXiv preprint arXiv:1234.56789}}", [], 0),
        (
            "@article{k, title={Deep Learning Revisited}, author={LeCun, Yann and others}}",
            ["title"],
            0,
        ),
    ],
)
def test_field_comparison(bib: str, fields: list[str], notes: int) -> None:
    result = compare(reference(bib), RECORD)
    assert [m.field for m in result.mismatches] == fields
    assert len(result.remarks) == notes


def test_a_preprint_record_leaves_a_claimed_venue_to_the_published_version() -> None:
    preprint = WorkRecord(
        Source.ARXIV, "Deep learning", (Person("LeCun", "Yann"),), 2015, "some journal ref"
    )
    ref = Reference(
        "k",
        "article",
        SourceLocation("r.bib", 1),
        "Deep Learning",
        (Person("LeCun", "Yann"),),
        venue="Nature",
    )
    comparison = compare(ref, preprint)
    assert comparison.mismatches == () and comparison.needs_published


def people(*names: str) -> tuple[Person, ...]:
    return tuple(parse_bibtex_name(n) for n in names)


@pytest.mark.parametrize(
    ("cited", "complete", "found", "fields", "unconfirmed"),
    [
        # Transliterations, particles, initials and LaTeX accents all name the same people.
        (
            (r"Gonz{\'a}lez, Jos{\'e}", 'M{"u}ller, J.'),
            True,
            ("José González", "Jürgen Müller"),
            [],
            0,
        ),
        (
            ("van der Maaten, Laurens", "Hinton, Geoffrey"),
            True,
            ("L. van der Maaten", "G. Hinton"),
            [],
            0,
        ),
        (("Wang, X.", "Li, Y."), True, ("Xiaolong Wang", "Yi Li", "Abhinav Gupta"), ["authors"], 0),
        (("Wang, X.", "Li, Y."), False, ("Xiaolong Wang", "Yi Li", "Abhinav Gupta"), [], 0),
        # A cited author who is not on the record is named.
        (
            ("Wang, X.", "Smith, John"),
            False,
            ("Xiaolong Wang", "Yi Li", "Abhinav Gupta"),
            ["authors"],
            0,
        ),
        # The record lists fewer authors than cited: only unconfirmed until another source says.
        (("Wang, X.", "Smith, John", "Li, Y."), True, ("Xiaolong Wang",), [], 2),
        # Corporate authors are not accused.
        (("{The ATLAS Collaboration}",), True, ("G. Aad", "B. Abbott"), [], 0),
    ],
)
def test_authors(
    cited: tuple[str, ...],
    complete: bool,
    found: tuple[str, ...],
    fields: list[str],
    unconfirmed: int,
) -> None:
    from citecore.bib.names import parse_display_name

    check = compare_authors(people(*cited), tuple(parse_display_name(n) for n in found), complete)
    assert [m.field for m in check.mismatches] == fields
    assert len(check.unconfirmed) == unconfirmed


def test_a_consortium_beside_the_people_is_no_omitted_author() -> None:
    found = (Person("Wang", "Xiaolong"), Person("Li", "Yi"), Person("CMS", is_organization=True))
    assert compare_authors(people("Wang, X.", "Li, Y."), found).mismatches == ()
