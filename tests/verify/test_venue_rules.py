"""Venue comparison as a librarian states it: a journal cited by its full name, its ISO 4
abbreviation, its initialism or with its subtitle left out is the same journal; a conference is
the same whatever proceedings title a registry gives it, but not another conference or
another track; what cannot be decided is said to be undecided, never a mismatch."""

from __future__ import annotations

import itertools

import pytest

from citecore.registries.dblp_dump import volume_name
from citecore.verify.journal_names import is_acronym, iso4
from citecore.verify.venues import Agreement, compare_venues, venue_year_problem

SAME, DIFFERENT, UNDECIDED = Agreement.SAME, Agreement.DIFFERENT, Agreement.UNDECIDED


@pytest.mark.parametrize(
    ("cited", "names", "agreement"),
    [
        # journals: as written, abbreviated, initialism, subtitle, qualifiers, ampersands
        ("Nature", ["Nature"], SAME),
        ("Proc. Natl. Acad. Sci. U.S.A.", ["Proceedings of the National Academy of Sciences"],
         SAME),
        ("PNAS", ["Proceedings of the National Academy of Sciences"], SAME),
        ("J. Mach. Learn. Res.", ["Journal of Machine Learning Research"], SAME),
        ("JMLR", ["Journal of Machine Learning Research"], SAME),
        ("Journal of Physics A", ["Journal of Physics A: Mathematical and Theoretical"], SAME),
        ("Angewandte Chemie", ["Angewandte Chemie (International ed. in English)"], SAME),
        ("Science & Justice", ["Science and Justice"], SAME),
        ("PLOS ONE", ["PLoS ONE"], SAME),
        ("Nature", ["Nature Communications"], DIFFERENT),
        ("Journal of Biological Chemistry", ["Journal of Chemical Physics"], DIFFERENT),
        # conferences: any proceedings title of the same conference and track
        ("NeurIPS", ["Advances in Neural Information Processing Systems 35"], SAME),
        ("Advances in Neural Information Processing Systems",
         ["NeurIPS 2022", "Advances in Neural Information Processing Systems"], SAME),
        ("ICLR", ["Advances in Neural Information Processing Systems 35"], DIFFERENT),
        ("Proceedings of the 60th Annual Meeting of the Association for Computational "
         "Linguistics", ["ACL 2022"], SAME),
        # nothing to decide with
        ("", ["Nature"], UNDECIDED),
        ("Nature", [], UNDECIDED),
        ("XYZW", ["Journal of Applied Widgets"], DIFFERENT),
    ],
)  # fmt: skip
def test_compare_venues(cited: str, names: list[str], agreement: Agreement) -> None:
    comparison = compare_venues(cited, names)
    assert comparison.agreement is agreement, comparison.reason
    if agreement is DIFFERENT and comparison.reason:
        assert cited.split()[0].lower() in comparison.reason.lower() or "not" in comparison.reason


# DBLP's proceedings titles, as its dump and API give them.
_ISSRE_2019 = ("30th IEEE International Symposium on Software Reliability Engineering, ISSRE 2019, "
               "Berlin, Germany, October 28-31, 2019")  # fmt: skip
_ECCV_2018 = ("Computer Vision - ECCV 2018 - 15th European Conference, Munich, Germany, "
              "September 8-14, 2018, Proceedings, Part I")  # fmt: skip


@pytest.mark.parametrize(
    ("cited", "names", "agreement"),
    [
        # the acronym DBLP gives a conference, spelled by the name the writer wrote out
        ("International Symposium on Software Reliability Engineering", ["ISSRE"], SAME),
        ("Proceedings of the 30th International Symposium on Software Reliability Engineering",
         ["ISSRE"], SAME),
        ("Design, Automation and Test in Europe", ["DATE"], SAME),
        # an acronym the written-out name does not spell and the table does not know: undecided
        ("Proceedings of the 10th International Conference on Quality Software", ["QSIC"],
         UNDECIDED),
        ("Proceedings of the 17th Conference on Embedded Networked Sensor Systems", ["SenSys"],
         UNDECIDED),
        # ... but a journal is no conference, and a table conference is not another one
        ("Journal of Systems and Software", ["QSIC"], DIFFERENT),
        ("Computer Vision and Pattern Recognition", ["ISSRE"], DIFFERENT),
        ("International Conference on Quantum Machine Learning", ["ICML"], DIFFERENT),
        # the proceedings volume's title, compared part by part
        ("International Symposium on Software Reliability Engineering", ["ISSRE", _ISSRE_2019],
         SAME),
        ("Proc. of the IEEE Int. Symp. on Software Reliability Eng.", ["ISSRE", _ISSRE_2019],
         SAME),
        ("European Conference on Computer Vision", ["ECCV (1)", _ECCV_2018], SAME),
        ("International Conference on Software Engineering", ["ISSRE", _ISSRE_2019], DIFFERENT),
        ("Journal of Systems and Software", ["ISSRE", _ISSRE_2019], DIFFERENT),
        # a comma within the name: the name is the title up to its acronym and year
        ("International Conference on Software Quality, Reliability and Security",
         ["QRS", "19th IEEE International Conference on Software Quality, Reliability and "
          "Security, QRS 2019, Sofia, Bulgaria, July 22-26, 2019"], SAME),
        ("International Symposium on Formal Methods",
         ["FM", "Formal Methods - 24th International Symposium, FM 2021, Virtual Event, "
          "November 20-26, 2021, Proceedings"], SAME),
        # a name without a year is no volume title: its parts are not names of their own
        ("Science", ["Science, Technology, & Human Values"], DIFFERENT),
    ],
)  # fmt: skip
def test_dblps_names_for_a_conference(cited: str, names: list[str], agreement: Agreement) -> None:
    """DBLP names a conference paper's venue by the acronym of its booktitle and, through the
    paper's `crossref`, by its proceedings volume's title: a venue written out is the same when
    it spells the acronym or names the volume; an acronym nobody can check it against is said
    to be undecided, never a mismatch."""
    comparison = compare_venues(cited, names)
    assert comparison.agreement is agreement, comparison.reason


def test_a_workshop_or_findings_paper_is_not_the_main_conference() -> None:
    comparison = compare_venues(
        "Findings of the Association for Computational Linguistics: EMNLP 2021",
        ["Proceedings of the 2021 Conference on Empirical Methods in Natural Language Processing"],
    )
    assert comparison.agreement is DIFFERENT and "track" in comparison.reason


@pytest.mark.parametrize(
    ("venue", "year", "problem"),
    [
        ("NeurIPS", 2020, ""),
        ("ICLR", 2010, "ICLR was first held in 2013, after the cited year 2010"),
        ("NeurIPS 2019", 2022, "the venue names the year 2019, the entry 2022"),
        ("NeurIPS 2021", 2022, ""),  # a year either side: proceedings appear the next year
        ("NIPS'17", 2017, ""),
        ("ICML '19", 2022, "the venue names the year 2019, the entry 2022"),
        ("NIPS 17", 2022, "the venue names the year 2017, the entry 2022"),
        # a number after a word is the proceedings' volume, not a year ("… Systems 35": 2022)
        ("Advances in Neural Information Processing Systems 35", 2022, ""),
        ("Advances in Neural Information Processing Systems 36", 2023, ""),
        ("Proceedings of Machine Learning Research 97", 2019, ""),
        ("Journal of Machine Learning Research", 1950, ""),  # journals have no table row
        ("ICLR", None, ""),
    ],
)
def test_venue_year_problems(venue: str, year: int | None, problem: str) -> None:
    assert venue_year_problem(venue, year) == problem


@pytest.mark.parametrize(
    ("venue", "acronym"),
    [("ICML", True), ("NeurIPS", True), ("Nature", False), ("eLife", False)],
)
def test_acronyms(venue: str, acronym: bool) -> None:
    assert is_acronym(venue) is acronym


def test_iso4_abbreviations() -> None:
    assert iso4("Journal of Machine Learning Research") == "J. Mach. Learn. Res."
    assert iso4("Nature") == "Nature"


@pytest.mark.parametrize(
    ("title", "name"),
    [
        (_ISSRE_2019, ("30th IEEE International Symposium on Software Reliability Engineering",)),
        ("2016 IEEE Conference on Computer Vision and Pattern Recognition, CVPR 2016, Las Vegas, "
         "NV, USA, June 27-30, 2016",
         ("2016 IEEE Conference on Computer Vision and Pattern Recognition",)),
        ("Findings of the Association for Computational Linguistics: EMNLP 2020, Online Event, "
         "16-20 November 2020", ("Findings of the Association for Computational Linguistics",)),
        ("Formal Methods - 24th International Symposium, FM 2021, Virtual Event, November 20-26, "
         "2021, Proceedings",
         ("Formal Methods - 24th International Symposium", "Formal Methods",
          "24th International Symposium")),
        ("Science, Technology, & Human Values", ()),  # no year: no volume's title
        ("ISSRE 2019, Berlin, Germany", ()),  # the acronym first: no name
    ],
)  # fmt: skip
def test_the_name_in_a_volumes_title(title: str, name: tuple[str, ...]) -> None:
    assert volume_name(title) == name


# Conferences as writers write them out, and as DBLP names them (booktitle).
_WRITTEN_AND_DBLP = (
    ("Proceedings of the 44th International Conference on Software Engineering", "ICSE (1)"),
    ("Proceedings of the 31st ACM SIGSOFT International Symposium on Software Testing and "
     "Analysis", "ISSTA"),
    ("37th IEEE/ACM International Conference on Automated Software Engineering", "ASE"),
    ("Proceedings of the Seventeenth European Conference on Computer Systems", "EuroSys"),
    ("Computer Aided Verification", "CAV (1)"),
    ("Tools and Algorithms for the Construction and Analysis of Systems", "TACAS (1)"),
    ("Proceedings of the 59th ACM/IEEE Design Automation Conference", "DAC"),
    ("2022 IEEE International Conference on Software Maintenance and Evolution", "ICSME"),
    ("Proceedings of the 30th IEEE/ACM International Conference on Program Comprehension",
     "ICPC"),
    ("19th USENIX Symposium on Networked Systems Design and Implementation", "NSDI"),
    ("Proceedings of the 28th ACM SIGKDD Conference on Knowledge Discovery and Data Mining",
     "KDD"),
    ("Proceedings of the 20th Annual International Conference on Mobile Systems, Applications "
     "and Services", "MobiSys"),
)  # fmt: skip


@pytest.mark.parametrize(("written", "dblp"), _WRITTEN_AND_DBLP)
def test_a_conference_written_out_is_never_accused_for_dblps_name(written: str, dblp: str) -> None:
    assert compare_venues(written, [dblp]).agreement is not DIFFERENT


def test_another_conference_written_out_is_never_taken_for_dblps_name() -> None:
    for (written, _), (_, dblp) in itertools.permutations(_WRITTEN_AND_DBLP, 2):
        assert compare_venues(written, [dblp]).agreement is not SAME, (written, dblp)


def test_no_volume_number_is_read_as_a_year() -> None:
    # NeurIPS's proceedings are numbered from 1987 (volume 1) and ICML's PMLR volumes run on:
    # whatever the volume, the venue names no year, so none is ever the wrong one.
    for volume in range(1, 100):
        neurips = f"Advances in Neural Information Processing Systems {volume}"
        assert venue_year_problem(neurips, 1987 + volume) == "", neurips
        pmlr = f"Proceedings of Machine Learning Research {volume}"
        assert venue_year_problem(pmlr, 2019) == "", pmlr
        icml = f"Proceedings of the {volume}th International Conference on Machine Learning"
        assert venue_year_problem(icml, 1983 + volume) == "", icml


@pytest.mark.parametrize(
    ("cited", "names", "agreement"),
    [
        # NLM keeps a journal's edition or section letter; the registry's title may not.
        ("Urologe A", ["Der Urologe", "Urologe"], Agreement.SAME),
        ("Urologe. Ausg. A", ["Der Urologe"], Agreement.SAME),
        ("Phys Rev B", ["Physical Review"], Agreement.SAME),
        ("Biochim Biophys Acta Sect B", ["Biochimica et Biophysica Acta"], Agreement.SAME),
        # ... but a letter against a record that names another stays different.
        ("Physical Review B", ["Physical Review A"], Agreement.DIFFERENT),
        ("J Phys B", ["Journal of Physics A: Mathematical and Theoretical"], Agreement.DIFFERENT),
        ("Neurobiol Aging", ["Neurobiology of Aging"], Agreement.SAME),
        ("Comput Intell Neurosci", ["Computational Intelligence and Neuroscience"], Agreement.SAME),
    ],
)
def test_medline_abbreviations(cited: str, names: list[str], agreement: Agreement) -> None:
    assert compare_venues(cited, names).agreement is agreement
