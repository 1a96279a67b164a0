# Two set-up commands: `make audit` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev

.PHONY: audit test bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

audit: $(STAMP)
	$(BIN)/mahjong-audit audit sample_logs --db audit.duckdb --workers 2
	$(BIN)/mahjong-audit stats --db audit.duckdb

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 tests

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check engine schemas pipeline tests bench

clean:
	rm -rf $(VENV) audit.duckdb .pytest_cache build *.egg-info
