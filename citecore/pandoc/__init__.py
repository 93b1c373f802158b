"""citecheck and pandoc: reading Markdown through pandoc (reader), the document's `citecheck:`
metadata (metadata), which files pandoc is reading (inputs), and the JSON filter: the process
(process), an unchanged rebuild replayed from the cache (replay), and one run on one document
(run).

reader, metadata and inputs sit low in the pipeline (extraction uses them); process, replay and
run are the filter shell over `citecore.api`. Nothing is imported here: the replay path must not
load the pipeline.
"""
