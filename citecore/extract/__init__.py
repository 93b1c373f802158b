"""Extraction: find every citation in a document, with its claim sentence and its place."""
