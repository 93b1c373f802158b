"""Public names a package loads from their modules only when first used, so that importing the
package costs nothing a replayed rebuild does not need."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from typing import Any


def load_public(package: str, homes: Mapping[str, str], name: str) -> Any:
    """`name` of `package`, imported from its module in `homes` and kept on the package, so it
    is loaded once; AttributeError for a name the package does not offer (a module
    `__getattr__` must say so)."""
    home = homes.get(name)
    if home is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    setattr(sys.modules[package], name, value)
    return value
