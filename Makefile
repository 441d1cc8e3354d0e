# Two commands do all the set-up: `make run` and `make test` create .venv on demand.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test bench lint clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,e2e]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/chatbots run

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: $(BIN)/.installed
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV)
