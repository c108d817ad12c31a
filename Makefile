# Two commands do all set-up on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve test build browser bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[docs,test]"
	touch $@

browser:
	bash scripts/ensure-chromium

serve: $(STAMP)
	$(BIN)/mkdocs serve

build: $(STAMP)
	$(BIN)/mkdocs build --strict

test: $(STAMP) browser
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) site
