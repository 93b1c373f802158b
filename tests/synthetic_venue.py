"""A synthetic venue at any scale: registry records in citecheck's normalized JSON-lines form
(the shape `snapshot build` imports) and submissions whose references are, in known
proportions, real (written from a record), corrupted (a record with its year shifted or a title
word replaced) or fabricated (a title and authors that no record has). Deterministic per seed.

Used by tests/screen/test_screen_snapshot.py at small scale and bench/screen_scale.py at millions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

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
    authors = " and ".join(
        f"{a['family']}, {a['given']}"
        for a in data["authors"]  # type: ignore[attr-defined]
    )
    fields = [
        f"  title = {{{data['title']}}}",
        f"  author = {{{authors}}}",
        f"  journal = {{{data['venue']}}}",
        f"  year = {{{data['year']}}}",
    ]
    if with_doi:
        fields.append(f"  doi = {{{data['doi']}}}")
    return f"@article{{{key},\n" + ",\n".join(fields) + "\n}\n"


def submission_entries(
    number: int, records: int, references: int, mix: Mix, popular: int = 2000
) -> Iterator[tuple[str, str]]:
    """(label, BibTeX) for each reference of submission `number`: `real`, `corrupted` or
    `fabricated`. A third of the real ones come from `popular` works every venue cites, so
    that submissions share references as real ones do."""
    rng = random.Random(number * 104729 + 3)
    for index in range(references):
        key = f"ref{number}x{index}"
        draw = rng.random()
        if rng.random() < 0.33:
            work = rng.randrange(min(popular, records))
        else:
            work = rng.randrange(records)
        data = dict(record(work))
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
                "title": f"{_title(rng)} {rng.randrange(10**9)}",
                "authors": [{"family": rng.choice(_FAMILIES), "given": "Q."}],
                "venue": rng.choice(_VENUES),
                "year": rng.randint(1990, 2025),
            }
            yield "fabricated", _bibtex(key, fake, with_doi=False)


def write_submissions(
    folder: Path, submissions: int, records: int, references: int, mix: Mix = Mix()
) -> dict[str, str]:
    """`submissions` .bib files in `folder`; returns each reference key's label."""
    folder.mkdir(parents=True, exist_ok=True)
    labels = {}
    for number in range(submissions):
        entries = list(submission_entries(number, records, references, mix))
        for n, (label, _) in enumerate(entries):
            labels[f"ref{number}x{n}"] = label
        text = "\n".join(entry for _, entry in entries)
        (folder / f"sub{number:05d}.bib").write_text(text, encoding="utf-8")
    return labels
