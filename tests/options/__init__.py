"""Tests of citecore.options."""
