# The two commands of the README: `make book` and `make test`. Each creates .venv with
# `python3 -m venv` if it is missing and installs prml14 with its book and test extras first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# The vendored MathJax (see its rule below); defined here, before the rules that need it.
MATHJAX_STAMP := $(VENV)/.mathjax-stamp
MATHJAX := _vendor/_static/mathjax/tex-mml-chtml.js
export PATH := $(abspath $(BIN)):$(PATH)
# Single-threaded BLAS keeps timings and floating-point results reproducible across machines.
export OMP_NUM_THREADS ?= 1
export OPENBLAS_NUM_THREADS ?= 1
# Let Python cache the compiled package (__pycache__, ignored by git): every page's kernel and
# every test worker imports prml14 anew, and compiling it costs each about 0.15 s.
unexport PYTHONDONTWRITEBYTECODE

BOOK_PAGES := $(wildcard book/*.md)
NOTEBOOKS  := $(shell grep -l '^  formats: md:myst,ipynb' $(BOOK_PAGES))

.PHONY: install book test lint format unit nbval book-check browser pdf notebooks generated bench clean \
	fuzz test-min

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[book,test]'
	touch $(STAMP)

install: $(STAMP)

## generated: rewrite the generated pages (equation index, API reference) and README status line
generated: $(STAMP)
	$(BIN)/python tools/equation_index.py

## book: build the HTML book into _build/html (warnings are errors)
book: generated $(MATHJAX)
	$(BIN)/jupyter-book build . -W -n --keep-going
	@echo "The book is in _build/html/index.html"

## test: everything CI checks (the browser test loads the book that book-check built)
test: lint unit nbval book-check browser

# Lint: the package, tests, tools, benchmarks and the code cells of the pages (ruff reads the
# paired .ipynb; book/ruff.toml narrows their lines to the 88 characters of the content column).
LINTED := prml14 tests tools benchmarks book/*.ipynb
lint: $(STAMP)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)

## format: ruff-format the package and the pages' code cells (the .md, then its .ipynb)
format: $(STAMP)
	$(BIN)/ruff check --fix --select I prml14 tests tools benchmarks
	$(BIN)/ruff format prml14 tests tools benchmarks
	for page in $(NOTEBOOKS); do \
	  $(BIN)/jupytext --quiet --pipe 'ruff check --quiet --fix --select I --stdin-filename book/page.py -' $$page && \
	  $(BIN)/jupytext --quiet --pipe 'ruff format --line-length 88 -' $$page && \
	  $(BIN)/jupytext --quiet --to ipynb --update $$page || exit 1; \
	done

unit: $(STAMP)
	$(BIN)/python -m pytest

nbval: $(STAMP)
	$(BIN)/python -m pytest --nbval-lax book

# The execution cache does not notice changes to prml14: clear it so every page really runs.
book-check: $(STAMP) $(MATHJAX)
	rm -rf _build/.jupyter_cache _build/jupyter_execute
	$(BIN)/jupyter-book build . -W -n --keep-going

# The book is read offline: MathJax 3 is served from the book itself, as _static/mathjax. It is
# copied from the PyPI package django-static-mathjax into _vendor/_static/mathjax (not in git),
# which the build copies as an "extra path" into _build/html: Jupyter Book would load every .js
# under _static itself on every page. Copied: the combined tex-mml-chtml.js that _config.yml's
# mathjax_path names, and the components and fonts it loads on demand (TeX extensions, CHTML
# fonts, menu, accessibility, speech rules).
$(MATHJAX_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet 'django-static-mathjax==3.2.2.1'
	touch $(MATHJAX_STAMP)

$(MATHJAX): $(MATHJAX_STAMP)
	rm -rf _vendor/_static/mathjax
	mkdir -p _vendor/_static/mathjax
	src=$$($(BIN)/python -c 'import mathjax, pathlib; print(pathlib.Path(mathjax.__file__).parent / "static" / "mathjax")') && \
	  cp $$src/LICENSE _vendor/_static/mathjax/ && \
	  cp -R $$src/es5/tex-mml-chtml.js $$src/es5/input $$src/es5/output $$src/es5/ui \
	    $$src/es5/a11y $$src/es5/sre $$src/es5/adaptors _vendor/_static/mathjax/

## browser: load every page of the built book in headless Chromium (needs chromium, chromium-driver)
browser: book-check
	PRML14_BROWSER=1 $(BIN)/python -m pytest -p no:cacheprovider -v -s tests/test_browser.py

## pdf: the whole book as one PDF, _build/latex/book.pdf (LaTeX builder; TeX packages: see README)
pdf: generated
	$(BIN)/jupyter-book build . --builder pdflatex
	@echo "The PDF is in _build/latex/book.pdf"

## notebooks: update each paired .ipynb from its .md (the source; cell ids kept) and execute it
notebooks: $(STAMP)
	for page in $(NOTEBOOKS); do \
	  $(BIN)/jupytext --to ipynb --update $$page && \
	  $(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	    --NotebookClient.record_timing=False $${page%.md}.ipynb || exit 1; \
	done

## bench: every benchmarks/bench_*.py, one thread, beside the reference libraries; writes
## benchmarks/results.json and the README's table
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python tools/bench_table.py

## fuzz: the fuzz suite with ten times the random examples of make test (slow: an estimated
## 15-30 minutes on 2 cores; make test also walks every hostile case once, deterministically)
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests/test_fuzz.py

## test-min: the unit tests in .venv-min, with the oldest versions pyproject.toml declares
MIN_VENV := .venv-min
MIN_STAMP := $(MIN_VENV)/.installed-stamp
$(MIN_STAMP): pyproject.toml tools/min_requirements.py
	test -x $(MIN_VENV)/bin/python || $(PYTHON) -m venv $(MIN_VENV)
	$(MIN_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(BIN)/python tools/min_requirements.py > $(MIN_VENV)/constraints.txt
	$(MIN_VENV)/bin/python -m pip install --quiet -c $(MIN_VENV)/constraints.txt -e '.[test]'
	touch $(MIN_STAMP)

test-min: $(STAMP) $(MIN_STAMP)
	PRML14_MIN_VERSIONS=1 $(MIN_VENV)/bin/python -m pytest -m "not slow" \
	  --ignore=tests/test_layout.py --ignore=tests/test_notebook_pairing.py \
	  --ignore=tests/test_book_conventions.py

clean:
	rm -rf _build .pytest_cache .hypothesis $(MIN_VENV)
	find . -name __pycache__ -not -path './$(VENV)/*' -exec rm -rf {} +
