# The two commands a newcomer needs: `make demo` and `make test`.
# Both create .venv when it is missing and install into it what they need:
# the demo only the library and its adapters (tens of MB, seconds), the suite
# every extra it exercises (the fleet, the service, Ray, the docs site, the linters).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEMO_STAMP := $(VENV)/.installed-demo
TEST_STAMP := $(VENV)/.installed-test
DECLARED := pyproject.toml $(wildcard adapters/pyproject.toml)
# Every extra the suite and the docs build import.
TEST_EXTRAS := test,lint,docs,chart,prometheus,redis,postgres,ray,server,otel,testing,fastjson

.PHONY: demo test lint docs compiled compiled-check bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall whenever the project's declared dependencies change. The suite's install is
# a superset of the demo's, so it brings the demo's stamp up to date too: `make test`
# then `make demo` installs nothing twice, and `make demo` then `make test` adds the rest.
$(DEMO_STAMP): $(BIN)/python $(DECLARED)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e . -e ./adapters
	touch $@

$(TEST_STAMP): $(BIN)/python $(DECLARED)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check \
		-e ".[$(TEST_EXTRAS)]" -e ./adapters
	touch $@ $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/vouched demo

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests bench examples adapters docs
	$(BIN)/ruff format --check src tests bench examples adapters docs/hooks.py docs/examples
	$(BIN)/mypy
	@# radon counts what mccabe does not (each and/or, comprehension filters): rank C
	@# (below 21) is the scanner's ceiling, as tests/scan/test_scan_complexity.py holds (STYLE 35)
	$(BIN)/xenon --max-absolute C src/vouched/_scan

# The documentation site, strictly: a broken link, a missing page or include fails.
docs: $(TEST_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir build/site

# The pure-Python suite (docs snippets included) and the site. The compiled scanner
# is its own step, `make compiled-check`, which CI runs after this one.
test: lint docs
	$(BIN)/python -m pytest -q

bench: $(TEST_STAMP)
	@for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# The optional compiled scanner (mypyc; pyproject's hook says which modules). Built from a
# copy of the sources, so no .so ever lands in src/ to shadow the .py a developer edits;
# the wheel goes to build/compiled/dist/, unpacked to build/compiled/lib/ (for PYTHONPATH).
COMPILED := build/compiled
compiled: $(COMPILED)/.built

$(COMPILED)/.built: pyproject.toml $(shell find src -name "*.py") | $(TEST_STAMP)
	rm -rf $(COMPILED)
	mkdir -p $(COMPILED)/project
	cp -r pyproject.toml README.md .gitignore src $(COMPILED)/project/
	HATCH_BUILD_HOOK_ENABLE_MYPYC=1 $(BIN)/python -m pip wheel --quiet --no-deps \
		--no-build-isolation --wheel-dir $(COMPILED)/dist $(COMPILED)/project
	$(BIN)/python -m zipfile -e $(COMPILED)/dist/vouched-*.whl $(COMPILED)/lib
	rm -rf $(COMPILED)/project
	touch $@

# The compiled build and its checks (every named module imported compiled, reports byte
# for byte the pure ones): off `make test`'s path, a step of its own in CI.
compiled-check: compiled
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/compiled

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist site
