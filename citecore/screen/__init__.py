"""Screening a venue: every submission's references verified on a Dask cluster.

`submissions` finds the submissions (PDFs, LaTeX projects, Markdown documents, bibliographies);
`reading` reads each one's references as the single-machine commands do; `works` says when two
references name the same work, so that it is looked up once; `gate` keeps each registry's
published rate for the whole cluster; `run` drives the stages on the cluster and `summary` writes
the venue's table. Verdicts come from the same `RegistryVerifier` as `citecheck verify`.
"""
