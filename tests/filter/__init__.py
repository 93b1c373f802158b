"""Tests of citecore.filter."""
