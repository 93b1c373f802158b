"""API keys come from the environment and go nowhere else: after a run that used them, no log
line, cache entry, report or resume file holds them."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from citecore.cli import main
from tests.emulator import RegistryEmulator
from tests.world import World

KEYS = {
    "OPENALEX_API_KEY": "oa-secret-6f1c2e9a",
    "S2_API_KEY": "s2-secret-b7d4a013",
    "NCBI_API_KEY": "ncbi-secret-09e8c7d6",
    "GOOGLE_API_KEY": "google-secret-4a5b6c7d",
}
BIB = """@article{he2016,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  year = {2016}, doi = {10.1109/CVPR.2016.90}
}
@article{nobody1999, title = {A Study Nobody Ever Wrote}, author = {Doe, Jane}, year = 1999}
@article{pm, title = {Something Indexed by PubMed}, author = {Roe, R.}, pmid = {12345678}}
"""


def test_no_key_is_written_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    cache = tmp_path / "cache.sqlite3"
    with RegistryEmulator(strict=False, world=World.load()) as emulator:
        monkeypatch.delenv("CITECHECK_OFFLINE")
        for name, value in {**emulator.environment(), **KEYS}.items():
            monkeypatch.setenv(name, value)
        outputs = []
        for suffix in ("json", "md"):
            report = tmp_path / f"report.{suffix}"
            code = main(
                [
                    "verify",
                    str(bib),
                    "--cache",
                    str(cache),
                    "--resume",
                    str(tmp_path / "resume"),
                    "-o",
                    str(report),
                    "-q",
                ]
            )
            assert code in (0, 1)
            outputs.append(report)
        asked = " ".join(str(i) for i in emulator.identification)
    assert KEYS["OPENALEX_API_KEY"] in asked  # the keys were really used
    written = b"".join(
        path.read_bytes() for path in tmp_path.rglob("*") if path.is_file() and path != bib
    )
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for value in KEYS.values():
        assert value.encode() not in written
        assert value not in logged
    assert json.loads(outputs[0].read_text())["schema_version"] == 1
