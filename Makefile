# Two set-up commands: `make audit` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev

.PHONY: audit test test-fast accel test-accel accel-remove bench bench-quick bench-serve fuzz collusion-power lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

audit: $(STAMP)
	$(BIN)/mahjong-audit audit sample_logs --db audit.duckdb --workers 2
	$(BIN)/mahjong-audit stats --db audit.duckdb
	$(BIN)/mahjong-audit report --db audit.duckdb -o report.html --logs sample_logs
	@echo "report: $(CURDIR)/report.html"

# `make test` tests the pure-Python engine (the reference), even where a compiled one is built, with the
# msgspec validation path: what cluster workers run. MAHJONG_AUDIT_PURE is the engine's switch only; the
# models-only validation (MAHJONG_AUDIT_MODELS=1) is tested by tests/test_fast_structs.py, and the
# differential tests (tests/test_log_fast.py, tests/test_situation_fast.py) compare both on every record.
test: $(STAMP)
	$(BIN)/ruff check engine schemas pipeline tests bench mahjong_audit/*.py
	$(BIN)/mypy
	MAHJONG_AUDIT_PURE=1 $(BIN)/python -m pytest -n 2 --dist loadgroup tests

# The inner loop: `make test` without the lint and the tests marked slow (docs/extending.md, Tests).
test-fast: $(STAMP)
	MAHJONG_AUDIT_PURE=1 $(BIN)/python -m pytest -n 2 --dist loadgroup -m "not slow" tests

# The compiled engine (mahjong_audit/accel.py): every install builds it where a C compiler is
# (setup.py; MAHJONG_AUDIT_COMPILE=0 skips it); this target rebuilds it after an edit.
accel: $(STAMP)
	$(BIN)/python -m mahjong_audit.build_accel build

# The whole suite again on the compiled engine (CI runs it after `make test`).
test-accel: accel
	$(BIN)/python -m mahjong_audit.build_accel status --require compiled
	$(BIN)/python -m pytest -n 2 --dist loadgroup tests

accel-remove: $(STAMP)
	$(BIN)/python -m mahjong_audit.build_accel remove

# every figure, the compiled engine's beside the sources' (MAHJONG_AUDIT_PURE=1); docs/performance.md
bench: accel
	$(BIN)/python -m bench

bench-quick: accel
	$(BIN)/python -m bench --quick

# the live audit under wrk (docs/performance.md): SOAK=120 SECONDS=30 by default
SOAK ?= 120
SECONDS ?= 30
bench-serve: $(STAMP)
	$(BIN)/python -m bench.serve_bench --soak $(SOAK) --seconds $(SECONDS)

# Many rounds of mutated logs through a whole audit on 2 workers (make test runs one round).
# FUZZ_ARGS="--seed 7 --rounds 50" reproduces or widens a run; --serve posts them to serve too.
FUZZ_ARGS ?= --rounds 20
fuzz: $(STAMP)
	$(BIN)/python -m tests.fuzzing $(FUZZ_ARGS)

# detection power of every collusion style and false flags, in every ruleset (docs/collusion.md); ~2 CPU-hours,
# on the compiled engine (the same verdicts, ~15% less CPU); COLLUSION_ARGS="--seeds 3 --sizes 200,500" for less
COLLUSION_ARGS ?=
collusion-power: accel
	$(BIN)/python -m bench.collusion_power $(COLLUSION_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check engine schemas pipeline tests bench mahjong_audit/*.py
	$(BIN)/mypy

clean:
	rm -f engine/*.so engine/rulesets/*.so engine/compiled.manifest
	rm -rf $(VENV) audit.duckdb audit.duckdb.log .audit.duckdb.staging report.html fuzz-out .pytest_cache build *.egg-info
