# Two entry points, both starting from a fresh machine with Python 3.11, make and bash:
#   make site   sets everything up and builds the site into site/
#   make test   sets everything up and runs every test (ruff, mypy, pytest, browser tests)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: site test setup setup-test browser clean

# uv installs the same packages from the same index as pip, about three times faster: a cold
# `make site` spends its setup installing numba, numpy, matplotlib and mkdocs-material (pip:
# 55 s with its download cache warm; uv: 20 s with its own cache cold). The site needs only
# the package; the tests add the [test] extras and the distributed solver's [cluster] (MPI),
# installed on their own stamp.
UV_VERSION := 0.13.9

# The environment is made without pip (python -m venv spent 7.9 s of a 19.5 s setup putting
# pip into it, only to install uv); the system's pip installs uv into it (--python: pip 22.3
# and later). Where that pip is missing or older, the environment gets its own pip after all.
$(BIN)/uv:
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(BIN)/python install --quiet uv==$(UV_VERSION) \
	  || { $(BIN)/python -m ensurepip --default-pip >/dev/null \
	       && $(BIN)/python -m pip install --quiet uv==$(UV_VERSION); }

$(VENV)/.site-installed: pyproject.toml $(BIN)/uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml $(BIN)/uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[test,cluster]'
	touch $@

setup: $(VENV)/.site-installed

setup-test: $(VENV)/.test-installed

site: setup
	$(BIN)/ur-variants build

browser:
	bash scripts/install-chromium.sh

test: setup-test browser
	$(BIN)/ruff check generator tests bench scripts
	$(BIN)/ruff format --check generator tests bench scripts
	$(BIN)/mypy
	$(BIN)/python -m pytest

clean:
	rm -rf site .cache $(addprefix docs/,learn which-rules variants compare questions statistics claims sources glossary assets citations.bib citations.json citations.ris r changes play .generated .includes)
