"""A generated citing paper, as the filter's benchmarks read it: a Markdown paper citing in
every form pandoc knows (bracketed, in text, with locators, in notes) from a BibTeX file."""

from __future__ import annotations

from pathlib import Path


def write_citing_paper(folder: Path, citations: int = 300, entries: int = 120) -> Path:
    """A Markdown paper citing `citations` times from a bibliography of `entries` entries."""
    bib = [
        f"@article{{key{i},\n  author = {{Author{i}, Ann and Other, Bob}},\n"
        f'  title = {{A study of topic number {i} in {{LaTeX}} and M{{\\"u}}nchen}},\n'
        f"  journal = {{Journal of Benchmarks}},\n  year = {{{1990 + i % 30}}},\n"
        f"  doi = {{10.1000/bench.{i}}}\n}}\n"
        for i in range(entries)
    ]
    (folder / "refs.bib").write_text("\n".join(bib))
    sentences = []
    for i in range(citations):
        key, other = f"key{i % entries}", f"key{(i * 7) % entries}"
        form = i % 4
        if form == 0:
            sentences.append(f"Claim {i} holds, e.g. in Fig. {i} [@{key}].")
        elif form == 1:
            sentences.append(f"@{key} showed result {i}.")
        elif form == 2:
            sentences.append(f"Both agree on {i}.{i} units [see @{key}, p. {i}; @{other}].")
        else:
            sentences.append(f"A noted claim {i}.^[As argued by @{key}.]")
    paragraphs = [" ".join(sentences[i : i + 5]) for i in range(0, len(sentences), 5)]
    text = "---\ntitle: Benchmark\nbibliography: refs.bib\n---\n\n" + "\n\n".join(paragraphs)
    (folder / "paper.md").write_text(text + "\n")
    return folder / "paper.md"
