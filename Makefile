# Every target sets up its own virtual environment on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv demo test test-slow lint bench train arm64-check clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/jasscam demo

# The suite without the tests marked slow (enrolments, rebuilds, whole replays): the one to run
# before every commit. test-slow runs the rest; CI (.ci/run) runs both.
test: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy scoring vision jasscam web tests benchmarks
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python -m benchmarks

train: $(STAMP)
	$(BIN)/pip install -q 'torch==2.13.0'
	$(BIN)/python -m vision.train

# Not in CI (slow, needs root and apt): installs the product with systemd/install.sh in an
# emulated arm64 Debian bookworm (Raspberry Pi OS's base) and replays the bundled recording;
# the score must equal the x86 run's.
arm64-check: $(STAMP)
	bash systemd/arm64-check.sh

clean:
	rm -rf $(VENV) build *.egg-info
