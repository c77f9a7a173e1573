# `make run` serves the app, `make test` runs lint and the whole suite.
# Both create .venv and install what they need on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run dev test lint format clean

run: $(VENV)/.run-deps
	$(PY) -m gunicorn --config gunicorn.conf.py

dev: $(VENV)/.run-deps
	$(VENV)/bin/flask --app scorekeeper run --debug

test: $(VENV)/.test-deps lint
	$(PY) -m pytest

lint: $(VENV)/.test-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: $(VENV)/.test-deps
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.run-deps: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.test-deps: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test,postgres]'
	touch $@ $(VENV)/.run-deps

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
