#!/usr/bin/env python3
"""citecheck as a JSON filter script: `pandoc paper.md --filter filters/citecheck.py`.

The same filter runs as `pandoc --filter citecheck` once the package is installed; both are thin
shells over `citecore.filter.process`.
"""

from citecore.filter.process import main

if __name__ == "__main__":
    main()
