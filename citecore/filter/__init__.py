"""The pandoc JSON filter, a shell over `citecore.api`: the process (`process`: stdin to stdout),
an unchanged rebuild replayed from the cache before anything heavy is loaded (`replay`), and one
run on one document (`run`: check once, warn, report, annotate). Nothing is imported here: the
replay path must not load the pipeline."""
