# Two commands do all the set-up: `make run` and `make test` create .venv on demand.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test bench lint warm clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,e2e]'
	touch $@

# The web pages on this machine for a local run; `make run WEB_PORT=` for none, or another port.
WEB_PORT ?= 8765
run: $(BIN)/.installed
	WEB_PORT=$(WEB_PORT) $(BIN)/chatbots run

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The compiled solver is cached by numba beside its source; a fresh clone compiles it here once
# (about half a minute), not inside the tests that time a bot's start-up.
warm: $(BIN)/.installed
	$(BIN)/python -c "from core.ai import warm_up; print(f'solver warmed up in {warm_up():.1f} s')"

test: lint warm
	$(BIN)/pytest

bench: $(BIN)/.installed
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV)
