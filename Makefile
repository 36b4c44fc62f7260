# The two commands a newcomer needs: `make demo` and `make test`.
# Both create .venv when it is missing and install the project into it.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench compiled clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall whenever the project's declared dependencies change.
$(STAMP): $(BIN)/python pyproject.toml $(wildcard adapters/pyproject.toml)
	$(BIN)/python -m pip install --quiet -e ".[test,lint,chart,prometheus,redis,postgres,ray,server,otel,testing]"
	if [ -f adapters/pyproject.toml ]; then $(BIN)/python -m pip install --quiet -e ./adapters; fi
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/vouched demo

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples adapters
	$(BIN)/ruff format --check src tests bench examples adapters
	$(BIN)/mypy
	@# radon counts what mccabe does not (each and/or, comprehension filters): the scanner's
	@# ceiling, with tests/scan/test_scan_complexity.py holding the bar of 21 (STYLE 35)
	$(BIN)/xenon --max-absolute E src/vouched/_scan

test: lint
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	@for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# The optional compiled scanner (mypyc; pyproject's hook says which modules). Built from a
# copy of the sources, so no .so ever lands in src/ to shadow the .py a developer edits;
# the wheel goes to build/compiled/dist/, unpacked to build/compiled/lib/ (for PYTHONPATH).
COMPILED := build/compiled
compiled: $(COMPILED)/.built

$(COMPILED)/.built: pyproject.toml $(shell find src -name "*.py") | $(STAMP)
	rm -rf $(COMPILED)
	mkdir -p $(COMPILED)/project
	cp -r pyproject.toml README.md .gitignore src $(COMPILED)/project/
	HATCH_BUILD_HOOK_ENABLE_MYPYC=1 $(BIN)/python -m pip wheel --quiet --no-deps \
		--no-build-isolation --wheel-dir $(COMPILED)/dist $(COMPILED)/project
	$(BIN)/python -m zipfile -e $(COMPILED)/dist/vouched-*.whl $(COMPILED)/lib
	rm -rf $(COMPILED)/project
	touch $@

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist
