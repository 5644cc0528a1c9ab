# The two commands of the README: `make demo` (the main job) and `make test` (the whole suite).
# Both install the project into .venv first; the venv sees the system's site-packages, so a torch
# that is already installed is reused instead of downloaded again.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The benchmarks (and the script that builds the extraction set's data) are type-checked so that
# they follow the engine's signatures; they patch its methods to time them, which these codes
# would refuse. The peers' drivers run on their own, in each peer's virtualenv, and import their
# protocol by its own name: hence the path and the explicit package bases.
BENCH_MYPY := --disable-error-code=method-assign --disable-error-code=assignment \
	--disable-error-code=unused-ignore --explicit-package-bases

# The suite runs on this many pytest-xdist workers, each with a private Neo4j of its own (about
# 3 GB of memory each); 2 suits a 2-core machine (docs/testing.md has the figures).
TEST_WORKERS ?= 2
PYTEST_PARALLEL := -n $(TEST_WORKERS) --dist loadgroup

.PHONY: demo test test-fast test-one test-versions lint install clean chromium

$(STAMP): pyproject.toml
	$(PYTHON) -m venv --system-site-packages $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,dev]"
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/belief-graph demo

# The browser tests drive Debian's Chromium (never a downloaded build): checked before anything
# else; installed when this runs as root with apt-get, else the one command to run is named.
chromium:
	@command -v chromium >/dev/null || [ -x /usr/bin/chromium ] || \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && apt-get install -y -qq chromium; \
	else \
		echo "make test needs Chromium for the browser tests: run 'sudo apt-get install chromium' and try again" >&2; \
		exit 1; \
	fi

# The suite starts a private Neo4j of its own (free ports, its own data) and discards it: never
# the one `make demo` and the CLI use, unless NEO4J_URI names a database explicitly.
test: chromium $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_PARALLEL)

# The edit loop: unit tests and the integration tests not marked slow (no server of their own, no
# browser, none over about 1.5 s), with a fifth of the property tests' examples. Under 3 minutes.
test-fast: $(STAMP)
	BELIEF_GRAPH_TEST_PROFILE=dev $(BIN)/python -m pytest $(PYTEST_PARALLEL) -m "not slow and not browser" --durations=10

# One file or one test against the private server, in one process: make test-one T=tests/...::name
test-one: $(STAMP)
	@test -n "$(T)" || { echo "name the test: make test-one T=tests/integration/test_time.py::test_contract_never_moves_an_end" >&2; exit 2; }
	$(BIN)/python -m pytest -p no:xdist --durations=10 $(T)

# The suite once per supported Neo4j version (NEO4J_VERSIONS in belief_graph/settings.py), each
# on its own private server of that version. One version: BELIEF_GRAPH_NEO4J_VERSION.
test-versions: chromium $(STAMP)
	@set -e; for version in $$($(BIN)/python -c 'from belief_graph.settings import NEO4J_VERSIONS; print(*NEO4J_VERSIONS)'); do \
		echo "== the suite on Neo4j $$version"; \
		BELIEF_GRAPH_NEO4J_VERSION=$$version $(BIN)/python -m pytest $(PYTEST_PARALLEL); \
	done

lint: $(STAMP)
	$(BIN)/python -m ruff check belief_graph tests bench data
	$(BIN)/python -m ruff format --check belief_graph tests bench data
	$(BIN)/python -m mypy belief_graph
	MYPYPATH=bench/peer_runners $(BIN)/python -m mypy bench data/extraction/build.py $(BENCH_MYPY)
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV)
