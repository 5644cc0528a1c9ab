# The two commands of the README: `make demo` (the main job) and `make test` (the whole suite).
# Both install the project into .venv first; the venv sees the system's site-packages, so a torch
# that is already installed is reused instead of downloaded again.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv --system-site-packages $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,dev]"
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/belief-graph demo

# The suite starts a private Neo4j of its own (free ports, its own data) and discards it: never
# the one `make demo` and the CLI use, unless NEO4J_URI names a database explicitly.
test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/python -m ruff check belief_graph tests bench
	$(BIN)/python -m ruff format --check belief_graph tests bench
	$(BIN)/python -m mypy belief_graph
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV)
