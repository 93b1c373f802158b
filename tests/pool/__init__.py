"""Tests of citecore.pool."""
