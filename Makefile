# The two commands a newcomer needs: `make demo` and `make test`.
# Both create .venv when it is missing and install the project into it.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

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

test: lint
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	@for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist
