"""A synthetic venue at any scale: registry records in citecheck's normalized JSON-lines form
(the shape `snapshot build` imports) and submissions whose references are, in known
proportions, real (written from a record), corrupted (a record with its year shifted or a title
word replaced) or fabricated (a title and authors that no record has). Deterministic per seed.

A computer-science venue too (`cs_record`, `write_cs_dumps`, `write_submissions(cs=True)`):
DBLP's records of conference papers without DOIs, a fifth of them arXiv preprints that arXiv's
metadata snapshot also holds, and submissions citing them by title only, as writers cite
conference papers.

Used by tests/screen/test_screen_snapshot.py at small scale and bench/screen_scale.py and
bench/dblp_snapshot.py at millions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from citecore.model import Person, Source
from citecore.registries.record import WorkRecord
from tests.generated_dblp import write_dump

_WORDS = (
    "adaptive bayesian causal deep efficient federated graph hierarchical inference kernel "
    "latent manifold neural optimal probabilistic quantum robust sparse spectral stochastic "
    "temporal variational attention benchmark calibration clustering compression diffusion "
    "embedding estimation generalization imaging learning models networks planning protein "
    "ranking reasoning representation retrieval sampling segmentation signals simulation "
    "structure synthesis transfer transformers uncertainty vision climate galaxy genome "
    "materials molecules ocean policy language speech robotics markets epidemics"
).split()
_FAMILIES = (
    "Smith Zhang Müller García Nguyen Kumar Rossi Kowalski Okafor Tanaka Silva Novak Cohen "
    "Andersson Haddad Ivanova Dubois O’Brien van der Walt Lee Park Chen Wang Singh Ali"
).split()
_VENUES = (
    "Nature", "Physical Review Letters", "Journal of Machine Learning Research",
    "Bioinformatics", "The Astrophysical Journal", "PLOS ONE", "Neural Computation",
    "IEEE Transactions on Pattern Analysis and Machine Intelligence",
)  # fmt: skip


def _title(rng: random.Random) -> str:
    words = rng.sample(_WORDS, rng.randint(5, 11))
    return " ".join(words).capitalize()


_ONSETS, _VOWELS = "b c d f g k l m n p r s t v z br tr pl st".split(), "a e i o u".split()
# The coined terms of the computer-science flavour's titles, drawn by Zipf's law from a vocabulary
# this large. Calibrated against the real titles of the corpus's DBLP-exported bibliographies
# (tests/screen/test_synthetic_titles.py): the word a title search asks for, a title's third
# rarest, is held by as few titles as in real ones (a vocabulary of 30,000 terms and three to six
# of a title's words drawn from _WORDS made it thirty times too common).
_TERMS = 1_000_000
_FUNCTION_WORDS = "of for a the and with in on to via from".split()


def _term(rank: int) -> str:
    """The coined technical term of this rank ("zotrabepal"): words a title vocabulary holds once
    or many thousand times, as real titles' terms of art."""
    syllables = []
    for _ in range(4):
        rank, onset = divmod(rank, len(_ONSETS))
        rank, vowel = divmod(rank, len(_VOWELS))
        syllables.append(_ONSETS[onset] + _VOWELS[vowel])
    return "".join(syllables) + "l"


def cs_title(rng: random.Random) -> str:
    """A title as computer-science titles are made: one to three of the field's common words, up
    to three function words and three to five terms of art drawn as words are used (Zipf: a few
    often, most rarely), so that the rarest words of a title are as rare in the snapshot as in
    DBLP."""
    words = rng.sample(_WORDS, rng.randint(1, 3)) + rng.sample(_FUNCTION_WORDS, rng.randint(0, 3))
    # Log-uniform ranks: the term of rank r drawn in proportion to 1/r (Zipf's law).
    words += [_term(int(_TERMS ** rng.random()) - 1) for _ in range(rng.randint(3, 5))]
    rng.shuffle(words)
    return " ".join(words).capitalize()


def record(number: int) -> dict[str, object]:
    """The synthetic registry record number `number` (the same every time)."""
    rng = random.Random(number * 7919 + 17)
    authors = [
        {"family": rng.choice(_FAMILIES), "given": rng.choice("ABCDEFGHJKLMNPRST") + "."}
        for _ in range(rng.randint(1, 6))
    ]
    return {
        "source": "crossref",
        "title": f"{_title(rng)} {number}",  # the number keeps every title distinct
        "authors": authors,
        "year": rng.randint(1990, 2025),
        "venue": rng.choice(_VENUES),
        "doi": f"10.5555/synth.{number}",
        "work_type": "journal-article",
    }


_CONFERENCES = (
    "NeurIPS", "ICML", "CVPR", "ACL", "SIGMOD Conference", "STOC", "USENIX Security Symposium",
    "International Conference on Learning Representations", "KDD", "CHI",
)  # fmt: skip


def cs_record(number: int) -> dict[str, object]:
    """The synthetic DBLP record number `number`: a conference paper of 2014–2024 without a
    DOI (every venue had been founded by then), or (every fifth) an arXiv preprint of 2015–16
    with its id, as DBLP lists CoRR's."""
    data = record(number)
    rng = random.Random(number * 6007 + 5)
    data.update(
        source="dblp", doi="", work_type="inproceedings", venue=rng.choice(_CONFERENCES),
        year=rng.randint(2014, 2024), title=cs_title(rng),
    )  # fmt: skip
    if number % 5 == 0:
        # Up to 99,999 papers a month: the month moves on every 50,000 records.
        months = number // 50_000
        year, month = 2015 + months // 12, 1 + months % 12
        data.update(venue="CoRR", work_type="article", year=year)
        data["arxiv_id"] = f"{year % 100:02d}{month:02d}.{number % 50_000 + 10_000:05d}"
    return data


def _work(data: dict[str, object]) -> WorkRecord:
    people = data["authors"]
    assert isinstance(people, list)
    return WorkRecord(
        Source(data["source"]), str(data["title"]),
        tuple(Person(p["family"], p["given"]) for p in people), int(str(data["year"])),
        str(data["venue"]), arxiv_id=str(data.get("arxiv_id", "")),
        work_type=str(data["work_type"]),
    )  # fmt: skip


def _arxiv_line(data: dict[str, object]) -> str:
    """A preprint as arXiv's metadata snapshot holds it."""
    people = data["authors"]
    assert isinstance(people, list)
    return json.dumps({
        "id": data["arxiv_id"], "title": data["title"], "abstract": "",
        "authors": ", ".join(f"{p['given']} {p['family']}" for p in people),
        "authors_parsed": [[p["family"], p["given"], ""] for p in people],
        "versions": [{"version": "v1", "created": f"Mon, 1 Jan {data['year']} 00:00:00 GMT"}],
        "update_date": f"{data['year']}-01-01", "doi": None, "journal-ref": None,
    })  # fmt: skip


def write_cs_dumps(folder: Path, records: int) -> tuple[Path, Path]:
    """DBLP's XML dump of `records` synthetic records and arXiv's metadata snapshot of their
    preprints, as the two are published."""
    folder.mkdir(parents=True, exist_ok=True)
    dblp, arxiv = folder / "dblp.xml.gz", folder / "arxiv-metadata.jsonl"
    write_dump(dblp, (_work(cs_record(n)) for n in range(records)))
    with arxiv.open("w", encoding="utf-8") as stream:
        for number in range(0, records, 5):
            stream.write(_arxiv_line(cs_record(number)) + "\n")
    return dblp, arxiv


def write_dumps(folder: Path, records: int, partitions: int) -> list[Path]:
    """`records` records as `partitions` JSON-lines files, as the registries' dumps come."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"part-{n:04d}.jsonl" for n in range(partitions)]
    streams = [path.open("w", encoding="utf-8") for path in paths]
    try:
        for number in range(records):
            streams[number % partitions].write(json.dumps(record(number)) + "\n")
    finally:
        for stream in streams:
            stream.close()
    return paths


@dataclass(frozen=True)
class Mix:
    """The proportions of a submission's references."""

    real: float = 0.7
    corrupted: float = 0.15  # the rest is fabricated


def _bibtex(key: str, data: dict[str, object], with_doi: bool) -> str:
    """An entry as writers cite the work: a journal article, a conference paper by its
    booktitle, an arXiv preprint as Google Scholar exports it."""
    authors = " and ".join(
        f"{a['family']}, {a['given']}"
        for a in data["authors"]  # type: ignore[attr-defined]
    )
    kind, container = "article", f"journal = {{{data['venue']}}}"
    if data.get("arxiv_id"):
        container = f"journal = {{arXiv preprint arXiv:{data['arxiv_id']}}}"
    elif data.get("work_type") == "inproceedings":
        kind, container = "inproceedings", f"booktitle = {{{data['venue']}}}"
    fields = [
        f"  title = {{{data['title']}}}",
        f"  author = {{{authors}}}",
        f"  {container}",
        f"  year = {{{data['year']}}}",
    ]
    if with_doi and data.get("doi"):
        fields.append(f"  doi = {{{data['doi']}}}")
    return f"@{kind}{{{key},\n" + ",\n".join(fields) + "\n}\n"


def submission_entries(
    number: int, records: int, references: int, mix: Mix, popular: int = 2000, cs: bool = False
) -> Iterator[tuple[str, str]]:
    """(label, BibTeX) for each reference of submission `number`: `real`, `corrupted` or
    `fabricated`. A third of the real ones come from `popular` works every venue cites, so
    that submissions share references as real ones do. `cs`: the works are the computer-science
    venue's (`cs_record`), cited without identifiers."""
    rng = random.Random(number * 104729 + 3)
    make, venues = (cs_record, _CONFERENCES) if cs else (record, _VENUES)
    title = cs_title if cs else lambda rng: f"{_title(rng)} {rng.randrange(10**9)}"
    for index in range(references):
        key = f"ref{number}x{index}"
        draw = rng.random()
        if rng.random() < 0.33:
            work = rng.randrange(min(popular, records))
        else:
            work = rng.randrange(records)
        data = dict(make(work))
        if draw < mix.real:
            yield "real", _bibtex(key, data, with_doi=rng.random() < 0.5)
        elif draw < mix.real + mix.corrupted:
            if rng.random() < 0.5:
                data["year"] = int(data["year"]) + rng.choice((-3, -2, 2, 3))  # type: ignore[call-overload]
                yield "corrupted", _bibtex(key, data, with_doi=True)
            else:
                words = str(data["title"]).split()
                at = rng.randrange(len(words) - 1)
                words[at] = rng.choice([w for w in _WORDS if w != words[at].lower()])
                data["title"] = " ".join(words)
                yield "corrupted", _bibtex(key, data, with_doi=False)
        else:
            fake = {
                "title": title(rng),
                "authors": [{"family": rng.choice(_FAMILIES), "given": "Q."}],
                "venue": rng.choice(venues),
                # Before the copy's last year: a copy cannot deny a work of its last year.
                "year": rng.randint(2014, 2023) if cs else rng.randint(1990, 2025),
                "work_type": "inproceedings" if cs else "journal-article",
            }
            yield "fabricated", _bibtex(key, fake, with_doi=False)


def write_submissions(
    folder: Path,
    submissions: int,
    records: int,
    references: int,
    mix: Mix = Mix(),
    cs: bool = False,
) -> dict[str, str]:
    """`submissions` .bib files in `folder`; returns each reference key's label. `cs`: of the
    computer-science venue (`submission_entries`)."""
    folder.mkdir(parents=True, exist_ok=True)
    labels = {}
    for number in range(submissions):
        entries = list(submission_entries(number, records, references, mix, cs=cs))
        for n, (label, _) in enumerate(entries):
            labels[f"ref{number}x{n}"] = label
        text = "\n".join(entry for _, entry in entries)
        (folder / f"sub{number:05d}.bib").write_text(text, encoding="utf-8")
    return labels
