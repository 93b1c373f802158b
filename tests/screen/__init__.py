"""Tests of citecore.screen."""
