"""Tests of citecore.annotate."""
