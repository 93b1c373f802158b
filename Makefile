# citecheck: `make demo` renders the bundled example; `make test` runs the checks CI runs.
# Both install what they need first (pip, and TeX Live from Debian packages for PDF output).

PYTHON ?= python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# What the demo and the tests compile with: pdfLaTeX and XeLaTeX (fontspec examples), biber,
# the fonts, and the babel languages the LaTeX corpus uses.
TEX_PACKAGES := texlive-latex-base texlive-latex-recommended texlive-latex-extra texlive-bibtex-extra biber \
	texlive-fonts-recommended lmodern texlive-xetex texlive-lang-german texlive-lang-french latexmk poppler-utils

.PHONY: install install-tex demo test lint bench

install:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e '.[dev]'

# What they need of it, asked of TeX itself (kpsewhich) rather than of the package manager: a
# machine with latexmk and pdflatex may still lack lmodern.sty.
TEX_FILES := lmodern.sty natbib.sty biblatex.sty hyperref.sty xcolor.sty caption.sty verbatim.sty \
	geometry.sty microtype.sty parskip.sty bookmark.sty upquote.sty csquotes.sty amsmath.sty \
	iftex.sty fontspec.sty unicode-math.sty babel.sty ngerman.ldf french.ldf
TEX_COMMANDS := latexmk pdflatex xelatex bibtex biber kpsewhich pdftotext pdftoppm
TEX_MISSING = $$(for c in $(TEX_COMMANDS); do command -v $$c >/dev/null 2>&1 || echo $$c; done; \
	for f in $(TEX_FILES); do kpsewhich $$f >/dev/null 2>&1 || echo $$f; done)

install-tex:
	@missing="$(TEX_MISSING)"; \
	if [ -z "$$missing" ]; then echo "TeX Live: every command and package the demo and tests use is there"; \
	else echo "TeX Live: missing" $$missing "- installing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install \
		-y -qq --no-install-recommends $(TEX_PACKAGES) >/dev/null; \
		still="$(TEX_MISSING)"; \
		if [ -n "$$still" ]; then echo "TeX Live: still missing" $$still; exit 1; fi; fi

demo: install install-tex
	bash scripts/demo.sh

lint:
	ruff check .
	ruff format --check .
	mypy

test: install install-tex lint
	$(PYTHON) -m pytest -q

bench: install
	$(PYTHON) bench/filter_overhead.py
	$(PYTHON) bench/verify_throughput.py
	$(PYTHON) bench/hallucination_local.py
	$(PYTHON) bench/hallucination_emulated.py
	$(PYTHON) bench/local_judge.py
	$(PYTHON) bench/align_speed.py
	$(PYTHON) bench/extraction_differential.py --examples 1000
	$(PYTHON) bench/latex_differential.py --examples 300
	$(PYTHON) bench/chaos.py
	$(PYTHON) bench/kill_resume.py
	CITECHECK_OFFLINE=1 $(PYTHON) bench/grounding_run.py
	$(PYTHON) bench/reflist_styles.py
	$(PYTHON) bench/reflist_layouts.py --examples 1000
	$(PYTHON) bench/screen_scale.py --records 1000000 --submissions 500
