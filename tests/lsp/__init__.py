"""Tests of citecore.lsp."""
