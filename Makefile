# Two entry points, both starting from a fresh machine with Python 3.11, make and bash:
#   make site   sets everything up and builds the site into site/
#   make test   sets everything up and runs every test (ruff, mypy, pytest, browser tests)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: site test setup setup-test browser clean

$(BIN)/ur-variants: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

setup: $(BIN)/ur-variants

site: setup
	$(BIN)/ur-variants build

browser:
	bash scripts/install-chromium.sh

test: setup browser
	$(BIN)/ruff check generator tests
	$(BIN)/ruff format --check generator tests
	$(BIN)/mypy
	$(BIN)/python -m pytest

clean:
	rm -rf site .cache $(addprefix docs/,variants compare questions statistics claims sources glossary assets citations.bib citations.json citations.ris r changes .generated .includes)
