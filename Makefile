# `make run` serves the app, `make test` runs lint and the whole suite.
# Both create .venv and install what they need on first use, at the versions pinned in
# constraints.txt; `make lock` moves the pins to the newest releases (a deliberate step).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# An environment variable, so that it also pins the build backend pip installs for the build.
export PIP_CONSTRAINT := $(abspath constraints.txt)
PIP_INSTALL := $(PY) -m pip install -q
DEV_BIND := $(or $(BIND),127.0.0.1:5000)

# The oldest Python pyproject.toml allows. A .venv made by an older one, or whose Python no longer runs (upgraded
# or removed since), is made again: nothing in it would work.
PYTHON_MIN := $(shell sed -n 's/^requires-python = ">=\([0-9.]*\)"$$/\1/p' pyproject.toml)
NEW_ENOUGH := -c 'import sys; sys.exit(sys.version_info < tuple(map(int, "$(PYTHON_MIN)".split("."))))'
ifneq ($(wildcard $(VENV)),)
ifneq ($(shell $(PY) $(NEW_ENOUGH) >/dev/null 2>&1 && echo runs),runs)
$(info $(VENV) was made by a Python older than $(PYTHON_MIN), or by one that no longer runs: making it again.)
$(shell rm -rf $(VENV))
endif
endif

# The compiled catalogs (messages.mo) the app reads, one for each language's messages.po.
# The marks a message is found by, besides gettext's own: lazy_gettext (forms), N_ and NP_ (the rules' tables;
# N_ with two arguments marks a singular and its plural: click_words.py).
KEYWORDS := -k lazy_gettext -k N_ -k N_:1,2,2t -k NP_:1c,2
CATALOGS := $(patsubst %.po,%.mo,$(wildcard scorekeeper/translations/*/LC_MESSAGES/messages.po))

.PHONY: run dev test test-fast test-database test-js lint format lock clean messages

run: $(VENV)/.run-deps $(CATALOGS)
	$(VENV)/bin/scorekeeper serve

dev: $(VENV)/.run-deps $(CATALOGS)
	$(VENV)/bin/flask --app scorekeeper run --debug \
		--host $(firstword $(subst :, ,$(DEV_BIND))) --port $(lastword $(subst :, ,$(DEV_BIND)))

# The suite runs on one worker a core (pytest-xdist); `make test WORKERS=3` on 3, `WORKERS=0` in this one process
# (where a debugger can stop it).
WORKERS ?= auto

test: $(VENV)/.test-deps $(CATALOGS) lint test-js
	$(PY) -m pytest -n $(WORKERS)

# Everything but the tests that drive a browser and the few long ones (the README's installs, an import under
# load): the answer while changing code. The production server's own tests are in it.
test-fast: $(VENV)/.test-deps $(CATALOGS) lint test-js
	$(PY) -m pytest -n $(WORKERS) -m "not browser and not long"

# The tests that reach the database (storage, service, API, the server), not the browser's pages again: CI's second
# pass, on PostgreSQL (DATABASE_URL).
test-database: $(VENV)/.test-deps $(CATALOGS)
	$(PY) -m pytest -n $(WORKERS) -m "not browser"

# The tests start the command and the server a few hundred times: each start reads the compiled modules Python
# kept (a third faster), even where the environment asks it not to keep them.
test test-fast test-database: export PYTHONDONTWRITEBYTECODE :=

# The page scripts' pure modules (no DOM), under Node's own runner: Debian's nodejs, no npm packages.
test-js:
	@command -v node >/dev/null || { echo "node is missing: apt-get install nodejs" >&2; exit 1; }
	node --test tests/js/

lint: $(VENV)/.test-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# The catalogs follow the code: every message of the modules and templates, new ones untranslated
# (tests/test_i18n.py fails until they are translated), old ones kept as obsolete.
messages: $(VENV)/.run-deps
	$(VENV)/bin/pybabel -q extract -F babel.cfg $(KEYWORDS) --add-comments=Translators: --add-location=file \
		--sort-by-file --project scorekeeper -o scorekeeper/translations/messages.pot .
	$(VENV)/bin/pybabel -q update -i scorekeeper/translations/messages.pot -d scorekeeper/translations \
		--ignore-obsolete --no-fuzzy-matching
	rm scorekeeper/translations/messages.pot

%.mo: %.po $(VENV)/.run-deps
	$(VENV)/bin/pybabel -q compile -i $< -o $@

format: $(VENV)/.test-deps
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

$(PY):
	@$(PYTHON) $(NEW_ENOUGH) 2>/dev/null || { echo "$(PYTHON) is not Python $(PYTHON_MIN) or newer, which the app \
	needs: install one, then name it, e.g. make PYTHON=python3.12 run." >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) --upgrade pip

# The PostgreSQL driver comes with `make run` too: DATABASE_URL may name a PostgreSQL server.
$(VENV)/.run-deps: pyproject.toml constraints.txt | $(PY)
	$(PIP_INSTALL) -e '.[postgres]'
	touch $@

$(VENV)/.test-deps: pyproject.toml constraints.txt | $(PY)
	$(PIP_INSTALL) -e '.[test,postgres]'
	touch $@ $(VENV)/.run-deps

# Newest releases of everything, in a scratch venv, written down as the new pins.
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	PIP_CONSTRAINT= .lock-venv/bin/python -m pip install -q --upgrade pip hatchling rjsmin rcssmin -e '.[test,postgres]'
	(echo "# Made by \`make lock\`: every package the app, its tests and its build use, pinned."; \
	 .lock-venv/bin/python -m pip freeze --all --exclude-editable | grep -v '^setuptools==') > constraints.txt
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
