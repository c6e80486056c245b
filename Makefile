# scorekeeper — the two commands a new user needs:
#   make run    set up, migrate, load demo data and serve at http://127.0.0.1:8000
#   make test   lint, type-check and run the whole test suite (SQLite by default;
#               set DATABASE_URL=postgres://… to run it on PostgreSQL)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
# What the phones type: with HOST=0.0.0.0 (every interface), this computer's address on
# the home network, so QR codes, links and live updates lead the phones here.
LAN_IP = $(shell $(PYTHON) -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.connect(("10.255.255.255", 1)); print(s.getsockname()[0])' 2>/dev/null || echo 127.0.0.1)
PUBLIC_HOST = $(if $(filter 0.0.0.0,$(HOST)),$(LAN_IP),$(HOST))
PORT   ?= 8000
EVENTS_PORT ?= 8001
PYTEST_ARGS ?=

.PHONY: run test lint typecheck pytest pytest-fast migrate demo bench bench-requests bench-live bench-footprint smoke clean messages compilemessages

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

migrate: $(STAMP)
	DEBUG=1 $(BIN)/python manage.py migrate --noinput

demo: migrate
	DEBUG=1 $(BIN)/python manage.py seed_demo

run: demo
	@echo "scorekeeper: http://$(PUBLIC_HOST):$(PORT)/  (demo sign-in: demo / demo)"
	@# Beside the server: the background worker (ratings after a correction) and the
	@# events server (live sheets on every phone, http://$(PUBLIC_HOST):$(EVENTS_PORT)/events/).
	@# One events server here, not production's two: with no nginx in front to share
	@# the phones between two, the page names one address (LIVE_EVENTS_URL), so a second
	@# would get no phone; restarting it, the phones poll until it is back.
	DEBUG=1 $(BIN)/python manage.py worker & worker=$$!; \
	DEBUG=1 $(BIN)/python -m scorekeeper.live --host $(HOST) --port $(EVENTS_PORT) \
	  --timeout-graceful-shutdown 1 & events=$$!; \
	trap 'kill $$worker $$events 2>/dev/null' EXIT INT TERM; \
	DEBUG=1 ALLOWED_HOSTS=localhost,127.0.0.1,[::1],$(PUBLIC_HOST) \
	  LIVE_EVENTS_URL=http://$(PUBLIC_HOST):$(EVENTS_PORT)/events/ \
	  $(BIN)/python manage.py runserver $(HOST):$(PORT)

# The translations (locale/<lang>/LC_MESSAGES/django.po and djangojs.po). `make messages`
# brings the catalogs up to date with the code (Django's makemessages, which needs GNU
# gettext: `apt install gettext`); translate the new entries, then `make compilemessages`
# writes the .mo files and the scripts' static catalogs (static/jsi18n/). Both are
# committed, so running the app needs no gettext; a test fails when they are stale.
LOCALES := de es
MESSAGES_IGNORE := --ignore='staticfiles/*' --ignore='tests/*' --ignore='bench/*' --ignore='static/vendor/*' --ignore='static/jsi18n/*'

messages: $(STAMP)
	SCOREKEEPER_INSECURE_DEV_KEY=1 $(BIN)/python manage.py makemessages $(LOCALES:%=-l %) -e html,txt,py,webmanifest --no-obsolete $(MESSAGES_IGNORE)
	SCOREKEEPER_INSECURE_DEV_KEY=1 $(BIN)/python manage.py makemessages -d djangojs $(LOCALES:%=-l %) --no-obsolete $(MESSAGES_IGNORE)

compilemessages: $(STAMP)
	SCOREKEEPER_INSECURE_DEV_KEY=1 $(BIN)/python manage.py compilemessages --ignore='.venv*'
	SCOREKEEPER_INSECURE_DEV_KEY=1 $(BIN)/python manage.py compilejsi18n

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	SCOREKEEPER_INSECURE_DEV_KEY=1 $(BIN)/mypy games scorekeeper

pytest: $(STAMP)
	$(BIN)/pytest -n 2 $(PYTEST_ARGS)

test: lint typecheck pytest

# The benches and the smoke need PostgreSQL: DATABASE_URL=postgres://…, else
# .ci/with-postgres.sh makes a throwaway database (on a local server, or a cluster of
# its own when the PostgreSQL server binaries are installed).
BENCH_ARGS ?=
bench: $(STAMP)
	.ci/with-postgres.sh $(BIN)/python bench/league_bench.py $(BENCH_ARGS)

# The production profile (nginx in front of gunicorn and the events server, DEBUG off,
# collectstatic) tested over HTTP, at the host's root and then under SMOKE_PREFIX (as CI
# does; empty: the root only). Needs Debian's nginx.
SMOKE_PREFIX ?= /scores
smoke: $(STAMP)
	SMOKE_PREFIX=$(SMOKE_PREFIX) .ci/with-postgres.sh .ci/production-smoke.sh

# Product views against bare views, the 10- vs 300-hand cost and the engine per hand.
bench-requests: $(STAMP)
	.ci/with-postgres.sh $(BIN)/python bench/request_bench.py $(BENCH_ARGS)

# The deployed stack (nginx, gunicorn, two events servers, the worker) and 1,000 tables × 4
# phones doing what live.js and table-tools.js do: CPU while nothing changes (goal ≤ 1
# core), a hand and a tools tap seen by a table (≤ 2 × an API POST), events servers
# restarted (≤ 2 Django CPU-s, ≤ 3 s) and away (the phones polling with their backoff).
# BENCH_ARGS="--quick" for a small run; --help for the others.
bench-live: $(STAMP)
	@ulimit -n 20000 2>/dev/null || true; \
	.ci/with-postgres.sh $(BIN)/python bench/live_bench.py $(BENCH_ARGS)

# The small production stack (2 web workers, the events server, the worker) after a tour of
# every kind of page: each process's memory (goal ≤ 100 MB) and an open stream's.
# The footprint bench runs the stack from a production install: the package without the
# dev extras (whose test tools DRF would import in every process), not editable.
PROD_VENV := .venv-production
$(PROD_VENV)/.installed: pyproject.toml
	@test -x $(PROD_VENV)/bin/python || $(PYTHON) -m venv $(PROD_VENV)
	$(PROD_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(PROD_VENV)/bin/python -m pip install --quiet .
	touch $@

bench-footprint: $(STAMP) $(PROD_VENV)/.installed
	.ci/with-postgres.sh $(BIN)/python bench/footprint_bench.py --venv $(PROD_VENV) $(BENCH_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
