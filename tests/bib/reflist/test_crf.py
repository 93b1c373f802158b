"""The reference CRF beside the rules: what it decides of a printed reference, what it leaves
to them, and a reading without the model (the session's model is trained on AnyStyle's core
and good data; its gold data, never trained on, measures the reading)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citecore.bib.reflist.crf import (
    MODEL_VARIABLE,
    LabelledReference,
    first_author_by_labels,
    model_problem,
    reference_labeller,
    title_by_labels,
)
from citecore.bib.reflist.crf_training import labelled_references, tokens_and_labels
from citecore.bib.reflist.refparse import parse_reference_text
from citecore.model import SourceLocation
from citecore.normalize import fold
from tests.paths import CORPUS

HERE = SourceLocation("refs.txt", 1)
# Vancouver without a date after the authors: the rules take the journal for the title.
NO_DATE_FIRST = (
    "Bergk V, Martin-Facklam M. Information deficits in the summary of product characteristics "
    "preclude an optimal management of drug interactions. European Journal of Clinical "
    "Pharmacology 2005;61:327–35."
)


def _labelled(tokens: str, labels: str, sure: float = 1.0) -> LabelledReference:
    """A labelling as the CRF gives it; its title words a title with probability `sure`."""
    words = tokens.split()
    starts = tuple(m.start() for m in re.finditer(r"\S+", tokens))
    odds = tuple(sure if label == "title" else 0.0 for label in labels.split())
    return LabelledReference(tuple(words), tuple(labels.split()), starts, odds)


def test_the_crf_labels_the_fields_of_a_printed_reference() -> None:
    labeller = reference_labeller()
    assert labeller is not None, model_problem()
    labelled = labeller.label(NO_DATE_FIRST)
    assert labelled.field("title").startswith("Information deficits in the summary")
    assert labelled.field("author") == "Bergk V, Martin-Facklam M."
    assert labelled.field("journal", "container-title").startswith("European Journal")


def test_the_rules_title_stands_where_the_crf_calls_it_a_title() -> None:
    text = "Smith J. Deep nets. Nature 2015;5:1-2."
    labelled = _labelled(text, "author author title title journal volume")
    assert title_by_labels(text, "Deep nets", labelled) == "Deep nets"


def test_the_crf_title_stands_where_it_calls_under_half_of_the_rules_title_a_title() -> None:
    text = "Smith J. Deep nets. Nature 2015;5:1-2."
    labelled = _labelled(text, "author author title title journal volume")
    assert title_by_labels(text, "Nature 2015;5:1-2", labelled) == "Deep nets"
    assert title_by_labels(text, "", labelled) == "Deep nets"  # the rules read none
    no_title = _labelled(text, "author author note note journal volume")
    assert title_by_labels(text, "Deep nets", no_title) == "Deep nets"


def test_the_crf_title_is_the_text_as_printed() -> None:
    """Whatever spaces the entry holds, the title read is a piece of it (as the rules' are)."""
    text = "Smith J. Deep  nets\tagain. Nature 2015;5:1-2."
    labelled = _labelled(text, "author author title title title journal volume")
    assert title_by_labels(text, "Nature 2015;5:1-2", labelled) == "Deep  nets\tagain"


def test_a_title_the_model_is_unsure_of_leaves_the_rules_title() -> None:
    text = "Binder. http://mybinder.org/, 2017. last accessed, March 2017."
    unsure = _labelled(text, "publisher url date title title date date", sure=0.3)
    assert title_by_labels(text, "Binder", unsure) == "Binder"


def test_a_crf_title_inside_the_rules_title_leaves_the_rules_title() -> None:
    text = "Nuismer SL (2013) ‘COEVOLUTION AND THE ARCHITECTURE’, Evolution, 67, 338."
    labels = "author author date title note note note journal volume pages"
    rules = "COEVOLUTION AND THE ARCHITECTURE"
    assert title_by_labels(text, rules, _labelled(text, labels)) == rules


def test_a_crf_title_after_in_is_the_container_of_the_rules_title() -> None:
    text = "Bayer M. SQLAlchemy. In: Brown A, editor. The architecture of open source. 2012."
    labels = "author author note note editor editor editor title title title title title date"
    assert title_by_labels(text, "SQLAlchemy", _labelled(text, labels)) == "SQLAlchemy"
    acs = "Bayer, M. SQLAlchemy. In The architecture of open source; Brown, A., Eds.; 2012."
    labels = "author author note title title title title title title editor editor editor date"
    assert title_by_labels(acs, "SQLAlchemy", _labelled(acs, labels)) == "SQLAlchemy"


def test_a_title_the_rules_cleaned_is_compared_by_its_words() -> None:
    text = "Smith J. “Deep nets,” Nature 2015."
    labelled = _labelled(text, "author author title title journal date")
    assert title_by_labels(text, "Deep nets", labelled) == "Deep nets"


def test_the_first_author_comes_from_the_crf_run_after_a_printed_number() -> None:
    labelled = _labelled("[10] Lydia Bieri and Nina Zipser. Extensions.",
                         "citation-number author author author author author title")  # fmt: skip
    first = first_author_by_labels(labelled)
    assert first is not None and (first.family, first.given) == ("Bieri", "Lydia")
    untitled = _labelled("Extensions. Lydia Bieri", "title author author")
    assert first_author_by_labels(untitled) is None


def test_the_reader_takes_the_crf_title_where_the_rules_misread_the_style() -> None:
    reference = parse_reference_text(NO_DATE_FIRST, "r", HERE)
    assert reference.title.startswith("Information deficits in the summary of product")
    assert reference.title.endswith("drug interactions")
    assert reference.authors[0].family == "Bergk"


def test_without_the_model_the_rules_read_alone_and_say_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(MODEL_VARIABLE, str(tmp_path / "absent.crfsuite"))
    assert reference_labeller() is None
    assert "citecheck reference-model build" in model_problem()
    assert parse_reference_text(NO_DATE_FIRST, "r", HERE).authors[0].family == "Bergk"
    broken = tmp_path / "broken.crfsuite"
    broken.write_bytes(b"not a model")
    monkeypatch.setenv(MODEL_VARIABLE, str(broken))
    assert reference_labeller() is None
    assert "could not be opened" in model_problem()


def _first_author_right(labelled_run: str, family: str) -> bool:
    words = [fold(w) for w in re.findall(r"[^\W\d_][\w'’-]+", labelled_run) if len(w) > 1][:2]
    return bool(family) and any(fold(family) == w or fold(family).endswith(w) for w in words)


def test_held_out_references_are_read_as_people_labelled_them() -> None:
    """AnyStyle's gold references (never trained on): titles and first authors as labelled,
    at the floors docs/reference-lists.md reports (88.8% and 91.4%; the rules alone 75.3% and
    82.6%)."""
    assert reference_labeller() is not None, model_problem()  # the model reads them, not rules
    gold = labelled_references(CORPUS / "reference-strings/anystyle/parser/gold.xml")
    titles = authors = titled = authored = 0
    for segments in gold:
        tokens, _ = tokens_and_labels(segments)
        read = parse_reference_text(" ".join(tokens), "r", HERE)
        title = next((text for label, text in segments if label == "title"), "")
        author = next((text for label, text in segments if label == "author"), "")
        if title:
            titled += 1
            titles += fold(read.title) == fold(title)
        if author:
            authored += 1
            authors += _first_author_right(author, read.authors[0].family if read.authors else "")
    assert titles / titled >= 0.88 and authors / authored >= 0.90, (titles, authors)


def test_a_list_read_without_the_model_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # start-up: the command line, for this test only
    from citecore.cli import main

    listed = tmp_path / "refs.txt"
    listed.write_text(f"References\n\n1. {NO_DATE_FIRST}\n2. {NO_DATE_FIRST}\n")
    monkeypatch.setenv(MODEL_VARIABLE, str(tmp_path / "absent.crfsuite"))
    main(["verify", "--offline", str(listed), str(listed)])
    said = [r for r in caplog.records if "read by rules alone" in r.getMessage()]
    assert len(said) == 1 and said[0].levelname == "WARNING"


def test_references_labelled_on_several_threads_are_labelled_as_one_at_a_time() -> None:
    """A screen's worker reads PDFs on several threads: the marginals asked after tagging must
    be those of the same reference."""
    # start-up: threads, for this test only
    from concurrent.futures import ThreadPoolExecutor

    labeller = reference_labeller()
    assert labeller is not None
    texts = [NO_DATE_FIRST, "Smith J. Deep nets. Nature 2015;5:1-2.", "", "   "] * 25
    alone = [labeller.label(text) for text in texts]
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(labeller.label, texts))
    assert together == alone
