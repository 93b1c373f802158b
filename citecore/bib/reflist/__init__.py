"""Reference lists that are not bibliography files, read into References: a plain-text or
Markdown list (`text`), a PDF's reference section (`pdf_lines`, `pdf_entries`, or a GROBID
server: `grobid`), each printed reference read into fields (`refparse`); `read` is the way in.
The package itself imports nothing."""
