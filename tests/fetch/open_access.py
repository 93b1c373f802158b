"""Open-access copies the loopback emulator serves where the registries' answers say they are:
an arXiv PDF at `/pdf/<id>`, a PDF named by OpenAlex's `best_oa_location` or by Unpaywall's
locations; each made from a text of ours (tests/cases/open-access-tour/)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from citecore.model import Source
from citecore.registries import openalex, unpaywall
from citecore.registries.settings import rate_variables
from tests.emulator import RegistryEmulator, Reply
from tests.fetch.made import pdf_of
from tests.paths import CASES

TOUR_TEXTS = CASES / "open-access-tour"
# (where the copy is announced, the work's identifier) → the text it is made from.
TOUR_COPIES: Mapping[tuple[Source, str], str] = {
    (Source.ARXIV, "2205.01068"): "zhang2022opt.md",
    (Source.ARXIV, "2312.07559"): "lala2023paperqa.md",
    (Source.ARXIV, "2103.02143"): "peng2021rfa.md",
    (Source.ARXIV, "2204.14198"): "flamingo.md",
    (Source.OPENALEX, "10.1109/CVPR.2016.90"): "he2016deep.md",
    (Source.UNPAYWALL, "10.1155/2022/8490760"): "zheng2022legal.md",
}


def serve_copies(
    emulator: RegistryEmulator, copies: Mapping[tuple[Source, str], str], texts: Path
) -> None:
    """Announce and serve each copy: arXiv's by its id, the others in their registry's answer
    for the DOI, pointing at a PDF the emulator serves."""
    for (source, identifier), name in copies.items():
        pdf = pdf_of((texts / name).read_text(encoding="utf-8"))
        if source is Source.ARXIV:
            emulator.serve_path(f"/pdf/{identifier}", Reply(raw=pdf), unused_ok=True)
            continue
        url = emulator.serve_path(f"/oa/{identifier}.pdf", Reply(raw=pdf), unused_ok=True)
        location: dict[str, object] = {
            "is_oa": True,
            "pdf_url": url,
            "url_for_pdf": url,
            "url": url,
            "license": "cc-by",
            "version": "publishedVersion",
        }
        if source is Source.OPENALEX:
            body: dict[str, object] = {"id": "W1", "title": name, "best_oa_location": location}
            emulator.serve(openalex.work_request(identifier), Reply(body=json.dumps(body)),
                           unused_ok=True)  # fmt: skip
        else:
            body = {"is_oa": True, "best_oa_location": location, "oa_locations": [location]}
            emulator.serve(unpaywall.oa_request(identifier), Reply(body=json.dumps(body)),
                           unused_ok=True)  # fmt: skip


def fast_environment(emulator: RegistryEmulator) -> dict[str, str]:
    """Every source at the emulator, limits that do not slow a test down, a contact address."""
    environ = dict(emulator.environment())
    for source in Source:
        rate, concurrency = rate_variables(source)
        environ[rate], environ[concurrency] = "1000", "4"
    environ["CITECHECK_EMAIL"] = "writer@example.org"
    return environ
