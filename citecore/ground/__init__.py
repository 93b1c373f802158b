"""Grounding: does the cited source support the claim sentence?

sources (which file is the cited work) → text (pages of it, cached by SHA-256) → evidence (the
passages that best match the claim) → a judge's verdict → the alignment proof that the passage
the judge relied on really is in the source text.
"""
