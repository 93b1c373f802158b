"""Bibliography loading: BibTeX/BibLaTeX, CSL JSON, CSL YAML and inline references."""
