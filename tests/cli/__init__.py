"""Tests of citecore.cli."""
