# Two commands do all the set-up on a fresh machine: `make book` and `make test`.
# Every target creates what it needs (virtual environment, JS copies, browser) if missing.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
LAB_PORT ?= 8888
# Extra JupyterLab options, e.g. LAB_ARGS=--LabApp.expose_app_in_browser=True (the lab test).
LAB_ARGS ?=
# `make test` runs the test files on this many pytest-xdist workers (`auto`: one per core),
# handed out in the order tests/conftest.py sorts them (the longest files first), not by size.
TEST_WORKERS ?= auto
BUILD := _build
HTML := $(BUILD)/html
# pip on some machines prints a warning per package about unused local indexes; hide that noise only.
PIP_QUIET := 2>&1 | { grep -v "^WARNING: Location 'file://" || true; }

.PHONY: help venv wheels vendor book test unit lint lint-js test-js check lock need-npm lab serve notebooks bench clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/'

$(BIN)/python:
	@echo "Creating $(VENV) (first run only)"
	@$(PYTHON) -m venv $(VENV)

# Installs the exact versions of requirements.lock (`make lock` makes it from the extras book,
# lab and test of pyproject.toml, the one place requirements are declared); re-installs when
# the lock or the package metadata change. The installer is uv (pinned here, put into the
# venv by the venv's own pip): it installs the lock in about 15 s where pip takes about 35 s.
# It compiles the bytecode at install, as pip does: where PYTHONDONTWRITEBYTECODE is set,
# every kernel would otherwise compile NumPy & co. again.
UV_VERSION := 0.13.9
LOCKED_EXTRAS := --extra book --extra lab --extra test
$(BIN)/uv: $(BIN)/python
	@$(BIN)/python -m pip install -q "uv==$(UV_VERSION)" $(PIP_QUIET)

# Then this tree's two distributions, editable: rope-core (the library) and rope-book (the
# book's part of rope_core). rope-book is installed in setuptools' "compat" mode, a .pth that
# puts the repository root on sys.path: its default editable finder would declare rope_core a
# namespace package and hide rope_core/__init__.py.
$(VENV)/.installed: $(BIN)/uv requirements.lock pyproject.toml rope-book/pyproject.toml
	@echo "Installing the Python packages of requirements.lock into $(VENV)"
	@$(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python -r requirements.lock
	@$(BIN)/uv pip install -q --python $(BIN)/python --no-deps -e .
	@$(BIN)/uv pip install -q --python $(BIN)/python --no-deps -e rope-book \
	  --config-settings editable_mode=compat
	@touch $@

# The lock is for Python 3.11, the version CI and Binder run (runtime.txt for Binder).
lock: $(BIN)/uv  ## re-pin requirements.lock to the newest versions pyproject.toml's ranges allow
	$(BIN)/uv pip compile -q --upgrade --python-version 3.11 $(LOCKED_EXTRAS) \
	  --custom-compile-command "make lock" -o requirements.lock pyproject.toml

venv: $(VENV)/.installed  ## create .venv with everything the book, notebooks and tests need

# scripts/build_wheels.py builds both from a fresh copy of the sources (setuptools would put
# whatever an earlier build left in build/lib into the next wheel).
wheels: $(VENV)/.installed  ## build the two wheels into dist/: rope-core (the library) and rope-book (the book's part)
	$(BIN)/python scripts/build_wheels.py dist

node_modules/.package-lock.json: package.json package-lock.json
	@echo "Installing the pinned JavaScript tools of package-lock.json (npm ci)"
	@npm ci --no-audit --no-fund --loglevel=error --silent

book/_vendor/static/rope-vendor/.stamp: node_modules/.package-lock.json scripts/vendor_js.sh $(VENV)/.installed
	@bash scripts/vendor_js.sh
	@touch $@

vendor: book/_vendor/static/rope-vendor/.stamp  ## check the pinned JS tools: MathJax (maths typeset at build time) and axe-core (tests)

# One build path for `make book` and the tests: scripts/build_book.py drops the execution
# cache when rope_core (widget JS included), the installed packages or the execute settings
# changed, executes the pages on every core, then builds strictly (a warning is an error).
# Checked first, so that a machine without npm hears it before minutes of pip installs.
need-npm:
	@command -v npm >/dev/null || { echo "make book needs npm (Node.js 22 or newer, a supported LTS) for the book's JavaScript:" \
	  "install it first, e.g. 'apt-get install nodejs npm'" >&2; exit 1; }

book: need-npm $(VENV)/.installed vendor  ## build the HTML book into _build/html
	@echo "Building the book (pages whose code or rope_core changed are executed again)"
	@$(BIN)/python scripts/build_book.py
	@echo "The book: $(abspath $(HTML))/index.html"
	@echo "Next: 'make serve' to read it on http://127.0.0.1:$(PORT), 'make lab' to run the chapters"

test: need-npm $(VENV)/.installed vendor  ## set up, then run every test (unit, chapters, book build, browsers)
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then echo "Installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "chromium is missing: the browser tests skip (they fail under CI=true)." \
	    "Install it with: sudo apt-get install chromium"; fi; }
	$(MAKE) --no-print-directory lint lint-js test-js
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

unit: $(VENV)/.installed  ## the fast unit tests: rope_core's maths and the pages' sources (no `slow` training tests)
	$(BIN)/python -m pytest -q -m "not chapters and not book and not browser and not lab and not slow"

lint: $(VENV)/.installed  ## ruff on the whole tree (rules in pyproject.toml)
	$(BIN)/ruff check --quiet .

lint-js: need-npm node_modules/.package-lock.json  ## ESLint on the widgets', the site's and the build's JavaScript (eslint.config.mjs)
	@npx --no-install eslint --max-warnings=0 .

# The widget modules are ES modules in .js files (the browser loads them as such); Node finds
# that out itself, and says so once per file: that notice is left out.
test-js: need-npm  ## node --test: the widgets' pure helpers (tests/js/)
	@node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON --test --test-reporter=dot tests/js/*.test.mjs

check: lint lint-js test-js unit  ## what to run before every commit: ruff, ESLint, the JS unit tests, then the unit tests

# The book's JupyterLab settings, installed into .venv by the script Binder's postBuild runs too:
# a double-click on a book/*.md chapter opens it as a notebook (jupytext), and saving an edit
# changes only the lines edited (scripts/jupyter_lab_config.py).
LAB_SETTINGS := $(VENV)/etc/jupyter/jupyter_server_config.py
$(LAB_SETTINGS): scripts/install_lab_settings.sh scripts/jupyterlab-overrides.json $(VENV)/.installed
	bash scripts/install_lab_settings.sh $(abspath $(VENV))

lab: $(VENV)/.installed $(LAB_SETTINGS)  ## JupyterLab on 127.0.0.1; chapters in book/ open as notebooks, an edit saves as a diff of only that edit
	$(BIN)/jupyter lab --ip=127.0.0.1 --port=$(LAB_PORT) --no-browser \
	  $(if $(filter 0,$(shell id -u)),--allow-root,) --ServerApp.root_dir=$(CURDIR) $(LAB_ARGS)

serve:  ## serve the built book on 127.0.0.1
	@test -f $(HTML)/index.html || { echo "No book yet: run 'make book' first" >&2; exit 1; }
	@echo "Serving the book at http://127.0.0.1:$(PORT)/index.html (Ctrl-C to stop)"
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory $(HTML) $(PORT)

notebooks: $(VENV)/.installed  ## plain-Jupyter .ipynb of every chapter (code inlined, install cell first; for Colab) into _build/notebooks/
	@mkdir -p $(BUILD)/notebooks
	$(BIN)/python scripts/export_notebooks.py book $(BUILD)/notebooks

bench: $(VENV)/.installed  ## run the benchmarks (apply_rope always; widgets need a built book)
	$(BIN)/python benchmarks/bench_apply_rope.py
	@if [ -f $(HTML)/index.html ]; then $(BIN)/python benchmarks/bench_widgets.py; fi

# Trains on EXPERIMENT_WORKERS processes with one BLAS thread each, at niceness EXPERIMENT_NICE
# (0: a niced run on a busy machine gets almost no CPU); `make book` never trains.
EXPERIMENT_WORKERS ?= 2
EXPERIMENT_NICE ?= 0
# The controls (other YaRN ramps, equal pretraining, BOS token, learning rates, partial RoPE,
# a bit-for-bit retraining) run after the main runs, which they read.
experiments: $(VENV)/.installed  ## retrain every model of the chapter "Train a tiny model" (~11 min on 2 idle cores, then ~5 min of controls; the chapter gives the sum) into rope_core/tinymodel/results/
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 nice -n $(EXPERIMENT_NICE) $(BIN)/python -m rope_core.tinymodel.experiments --workers $(EXPERIMENT_WORKERS)
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 nice -n $(EXPERIMENT_NICE) $(BIN)/python -m rope_core.tinymodel.controls --workers $(EXPERIMENT_WORKERS)

clean:  ## remove the build, the JS copies and caches (keeps .venv and node_modules)
	rm -rf $(BUILD) build dist book/_vendor .pytest_cache .hypothesis
	find . -name __pycache__ -not -path './.venv/*' -not -path './node_modules/*' -prune -exec rm -rf {} +
