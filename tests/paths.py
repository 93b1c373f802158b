"""Where the tests find their inputs: this repository and the shared corpus beside it."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CITECHECK_SHARED", REPO.parent / "shared"))
CORPUS = SHARED / "corpus"
FIXTURES = SHARED / "fixtures" / "real"
CASES = Path(__file__).resolve().parent / "cases"
