"""One real work printed in the citation styles journals use, each entry read into fields as a
librarian reads it: first author, year, title, container, DOI and arXiv id — the same answers
whatever the style, and a field the entry does not print left empty.

The works are real (facts from their publishers' records: Crossref for the DOIs); the printed
forms follow each style's manual (APA 7, Vancouver/ICMJE, IEEE, Chicago author–date, Harvard,
Nature, ACS, MLA 9, ACM, Springer LNCS, AMA, ACL)."""

from __future__ import annotations

import pytest

from citecore.bib.reflist.read import references_from_text

TITLE = "Deep Residual Learning for Image Recognition"
ATTENTION = "Attention is all you need"
SCIPY = "SciPy 1.0: fundamental algorithms for scientific computing in Python"
SCIPY_DOI = "10.1038/s41592-019-0686-2"

# (style, printed entry, first author's family name, year, title, DOI, arXiv id)
PRINTED = [
    ("APA", "He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning for image "
     "recognition. In Proceedings of the IEEE Conference on Computer Vision and Pattern "
     "Recognition (pp. 770–778). https://doi.org/10.1109/CVPR.2016.90",
     "He", 2016, "Deep residual learning for image recognition", "10.1109/cvpr.2016.90", ""),
    ("IEEE", "K. He, X. Zhang, S. Ren, and J. Sun, “Deep residual learning for image "
     "recognition,” in Proc. IEEE Conf. Comput. Vis. Pattern Recognit. (CVPR), 2016, "
     "pp. 770–778.",
     "He", 2016, "Deep residual learning for image recognition", "", ""),
    ("Vancouver", "Virtanen P, Gommers R, Oliphant TE, Haberland M, Reddy T, Cournapeau D, et al. "
     "SciPy 1.0: fundamental algorithms for scientific computing in Python. Nat Methods. "
     "2020;17(3):261-72. doi:10.1038/s41592-019-0686-2",
     "Virtanen", 2020, SCIPY, SCIPY_DOI, ""),
    ("Nature", "Virtanen, P. et al. SciPy 1.0: fundamental algorithms for scientific computing "
     "in Python. Nat. Methods 17, 261–272 (2020).",
     "Virtanen", 2020, SCIPY, "", ""),
    ("Chicago", "Virtanen, Pauli, Ralf Gommers, Travis E. Oliphant, et al. 2020. “SciPy 1.0: "
     "Fundamental Algorithms for Scientific Computing in Python.” Nature Methods 17 (3): "
     "261–72. https://doi.org/10.1038/s41592-019-0686-2.",
     "Virtanen", 2020, "SciPy 1.0: Fundamental Algorithms for Scientific Computing in Python",
     SCIPY_DOI, ""),
    ("Harvard", "Virtanen, P. et al. (2020) ‘SciPy 1.0: fundamental algorithms for scientific "
     "computing in Python’, Nature Methods, 17(3), pp. 261–272. doi: 10.1038/s41592-019-0686-2.",
     "Virtanen", 2020, SCIPY, SCIPY_DOI, ""),
    ("ACS", "Virtanen, P.; Gommers, R.; Oliphant, T. E.; et al. SciPy 1.0: Fundamental "
     "Algorithms for Scientific Computing in Python. Nat. Methods 2020, 17, 261–272.",
     "Virtanen", 2020, "SciPy 1.0: Fundamental Algorithms for Scientific Computing in Python",
     "", ""),
    ("MLA", "Vaswani, Ashish, et al. “Attention Is All You Need.” Advances in Neural "
     "Information Processing Systems, vol. 30, 2017.",
     "Vaswani", 2017, "Attention Is All You Need", "", ""),
    ("ACL", "Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. "
     "Gomez, Łukasz Kaiser, and Illia Polosukhin. 2017. Attention is all you need. In Advances "
     "in Neural Information Processing Systems, pages 5998–6008.",
     "Vaswani", 2017, ATTENTION, "", ""),
    ("arXiv preprint", "Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, "
     "A. N., Kaiser, Ł., & Polosukhin, I. (2017). Attention is all you need. arXiv preprint "
     "arXiv:1706.03762.",
     "Vaswani", 2017, ATTENTION, "", "1706.03762"),
    ("AMA", "Virtanen P, Gommers R, Oliphant TE, et al. SciPy 1.0: fundamental algorithms for "
     "scientific computing in Python. Nat Methods. 2020;17(3):261-272. "
     "doi:10.1038/s41592-019-0686-2",
     "Virtanen", 2020, SCIPY, SCIPY_DOI, ""),
    ("LNCS", "He, K., Zhang, X., Ren, S., Sun, J.: Deep residual learning for image "
     "recognition. In: Proceedings of the IEEE Conference on Computer Vision and Pattern "
     "Recognition, pp. 770–778 (2016)",
     "He", 2016, "Deep residual learning for image recognition", "", ""),
    ("ACM", "Kaiming He, Xiangyu Zhang, Shaoqing Ren, and Jian Sun. 2016. Deep Residual "
     "Learning for Image Recognition. In Proceedings of the IEEE Conference on Computer Vision "
     "and Pattern Recognition (CVPR). 770–778. https://doi.org/10.1109/CVPR.2016.90",
     "He", 2016, TITLE, "10.1109/cvpr.2016.90", ""),
]  # fmt: skip


@pytest.mark.parametrize(
    ("style", "printed", "family", "year", "title", "doi", "arxiv"),
    PRINTED,
    ids=[case[0] for case in PRINTED],
)
def test_a_work_reads_the_same_in_every_style(
    style: str, printed: str, family: str, year: int, title: str, doi: str, arxiv: str
) -> None:
    (reference,) = references_from_text(printed, "refs.txt")
    assert reference.authors and reference.authors[0].family == family, style
    assert reference.year == year
    assert reference.title == title
    assert reference.doi.lower() == doi
    assert reference.arxiv_id == arxiv
    assert reference.text == printed  # the printed words are kept whole for the report


def test_a_numbered_list_in_one_style_reads_each_entry_apart() -> None:
    listed = "References\n\n" + "\n".join(
        f"{number}. {printed}"
        for number, (_, printed, *_) in enumerate(PRINTED, 1)
        if not printed[:1].isdigit()
    )
    read = references_from_text(listed.split("\n\n", 1)[1], "refs.txt")
    assert len(read) == len(PRINTED)
    assert [r.title for r in read] == [case[4] for case in PRINTED]


@pytest.mark.parametrize(
    "printed",
    [
        "World Health Organization. Global tuberculosis report 2020. Geneva: WHO; 2020.",
        "R Core Team (2023). R: A Language and Environment for Statistical Computing. R "
        "Foundation for Statistical Computing, Vienna, Austria.",
    ],
)
def test_an_organisation_as_author_is_an_organisation(printed: str) -> None:
    (reference,) = references_from_text(printed, "refs.txt")
    assert reference.authors and reference.authors[0].is_organization
    assert reference.year in (2020, 2023)


def test_a_field_the_entry_does_not_print_stays_empty() -> None:
    (reference,) = references_from_text(
        "Smith J. Notes on a method. Unpublished manuscript; 2019.", "refs.txt"
    )
    assert reference.doi == "" and reference.arxiv_id == "" and reference.url == ""
    assert reference.authors_complete is False  # only the first author is read from free text
