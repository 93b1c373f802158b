"""citecheck and pandoc: reading Markdown through pandoc (`reader`), the document's `citecheck:`
metadata (`metadata`), and which files pandoc is reading when citecheck runs as its filter
(`inputs`). They sit low in the pipeline (extraction uses them); the filter itself is the shell
`citecore.filter`. Nothing is imported here: the filter's replay path must not load the pipeline.
"""
