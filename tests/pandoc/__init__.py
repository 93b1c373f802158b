"""Tests of citecore.pandoc."""
