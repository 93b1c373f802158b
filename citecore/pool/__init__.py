"""The literature pool: a verified list of papers a document must cover (model), the rules
it sets (policy), building one from candidate titles (build), corroborating its papers
(corroborate), BibTeX for it (bibtex), and the `citecheck pool` command (cli)."""
