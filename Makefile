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

install-tex:
	@missing=$$(for p in $(TEX_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null \
		| grep -q 'install ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then echo "TeX Live: already installed"; else \
		echo "TeX Live: installing $$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install \
		-y -qq --no-install-recommends $$missing >/dev/null; fi

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
	CITECHECK_OFFLINE=1 $(PYTHON) bench/grounding_run.py
