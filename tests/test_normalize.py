"""Text folding: what every comparison of titles and names rests on."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from citecore.normalize import fold, normalized_title


def _folded_by_unicode(text: str) -> str:
    """Folding as Unicode defines it, with no shortcut for ASCII text."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w\s]|_", " ", stripped).split())


@given(st.text())
def test_ascii_text_folds_as_unicode_says(text: str) -> None:
    assert fold(text) == _folded_by_unicode(text)
    ascii_only = text.encode("ascii", "ignore").decode()
    assert fold(ascii_only) == _folded_by_unicode(ascii_only)


def test_titles_and_names_fold_to_their_words() -> None:
    assert fold("Attention Is All You Need!") == "attention is all you need"
    assert fold("  Über_die   Straße ") == "uber die strasse"
    assert fold("𝓐 ﬁne Ⅳ") == "a fine iv"  # compatibility forms from PDFs
    assert normalized_title("Pre-trained Models") == normalized_title("Pretrained models")
