#!/usr/bin/env bash
# The production profile, started the way README "Running it for real" says, then tested
# over HTTP: DEBUG off, a fresh SECRET_KEY, collectstatic (compressed manifest storage),
# migrate, demo data, gunicorn with two workers (and gunicorn.conf.py), the events server
# (python -m scorekeeper.live) and the background worker on PostgreSQL. The tests marked
# `production` (tests/production over HTTP, the offline-rules and API-docs browser tests)
# then run against it with SCOREKEEPER_BASE_URL set.
#
#   .ci/with-postgres.sh .ci/production-smoke.sh     (or DATABASE_URL=postgres://…)
#
# SMOKE_PREFIX=/scores: afterwards the same servers are started again under that path,
# as behind a proxy that passes https://example.org/scores/… on unchanged (README
# "Served under a path": SCRIPT_NAME=/scores, the events server at /scores/events/), and
# the tests run again there (same database and collected files: collectstatic's output
# does not depend on the prefix). SMOKE_WEEKS sets the demo's length.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${DATABASE_URL:-}" in
  postgres*://*) ;;
  *) echo "production-smoke: needs DATABASE_URL=postgres://… (run it through with-postgres.sh)" >&2
     exit 2 ;;
esac
case "${SMOKE_PREFIX:-}" in
  "" | /*[!/]) ;;
  *) echo "production-smoke: SMOKE_PREFIX is a path such as /scores" >&2; exit 2 ;;
esac
[ -x .venv/bin/python ] || make .venv/.installed
bin=$PWD/.venv/bin
free_port() { "$bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
work=$(mktemp -d)
pids=()
stop() {
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; fi
  done
  pids=()
}
trap 'stop; rm -rf "$work"' EXIT

# Only what the README's production environment holds: nothing from this shell leaks in.
secret=$("$bin/python" -c 'import secrets; print(secrets.token_urlsafe(50))')
prod=(env -i PATH="$PATH" HOME="$work" LANG=C.UTF-8
  DATABASE_URL="$DATABASE_URL" SECRET_KEY="$secret"
  ALLOWED_HOSTS="127.0.0.1,localhost" STATIC_ROOT="$work/static")

echo "== production profile: collectstatic, migrate, demo data"
"${prod[@]}" "$bin/python" manage.py collectstatic --noinput -v 0
"${prod[@]}" "$bin/python" manage.py migrate --noinput -v 0
"${prod[@]}" "$bin/python" manage.py seed_demo --weeks "${SMOKE_WEEKS:-12}"

wait_for() {  # URL PID LOG: until the URL answers, or the process ends
  for _ in $(seq 1 100); do
    "$bin/python" -c "import urllib.request as u; u.urlopen('$1', timeout=2)" 2>/dev/null && return
    kill -0 "$2" 2>/dev/null || { cat "$3" >&2; exit 1; }
    sleep 0.2
  done
}

# serve_and_test PREFIX: the three servers with SCRIPT_NAME=PREFIX, the tests, their logs.
serve_and_test() {
  local prefix=$1 port events_port app_url events_url status=0
  port=$(free_port)
  events_port=$(free_port)
  app_url="http://127.0.0.1:$port$prefix"
  events_url="http://127.0.0.1:$events_port$prefix/events/"
  local run=("${prod[@]}" SCRIPT_NAME="$prefix" LIVE_EVENTS_URL="$events_url")
  # gunicorn.conf.py (read from the checkout, as in every recipe): threads that wait for
  # no slow client, and an access log without join tokens (checked below).
  echo "== gunicorn, 2 workers, $app_url/"
  "${run[@]}" "$bin/gunicorn" -c gunicorn.conf.py scorekeeper.wsgi --workers 2 --bind "127.0.0.1:$port" \
    --access-logfile - --error-logfile - --log-level warning >"$work/gunicorn.log" 2>&1 &
  pids+=($!)
  wait_for "$app_url/rules/" "$!" "$work/gunicorn.log"
  echo "== the events server (python -m scorekeeper.live, 2 processes), $events_url"
  "${run[@]}" "$bin/python" -m scorekeeper.live --host 127.0.0.1 --port "$events_port" \
    --workers 2 >"$work/events.log" 2>&1 &
  pids+=($!)
  wait_for "${events_url}health" "$!" "$work/events.log"
  echo "== the background worker (manage.py worker)"
  "${run[@]}" "$bin/python" manage.py worker >"$work/worker.log" 2>&1 &
  pids+=($!)

  echo "== tests marked production, over HTTP, at $app_url/"
  env -u DATABASE_URL SCOREKEEPER_BASE_URL="$app_url" SCOREKEEPER_EVENTS_URL="$events_url" \
    "$bin/pytest" -p no:xdist -p no:cacheprovider -q -m production tests/production tests/browser \
    || status=$?
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null || { echo "-- a server stopped (logs below)" >&2; status=1; }
  done
  stop
  for log in events worker; do
    if [ "$status" -ne 0 ] || grep -q Traceback "$work/$log.log"; then
      echo "-- $log log" >&2; cat "$work/$log.log" >&2; status=1
    fi
  done
  if grep -E '/join/[^[/ ]' "$work/gunicorn.log" >&2; then
    echo "-- a join link's token in gunicorn's access log (above)" >&2; status=1
  fi
  if [ "$status" -ne 0 ] || grep -qE '" 5[0-9][0-9] |Traceback' "$work/gunicorn.log"; then
    echo "-- gunicorn log: errors and 5xx answers" >&2
    grep -E '" 5[0-9][0-9] |Traceback|Error' "$work/gunicorn.log" >&2 || true
    status=1
  fi
  return "$status"
}

status=0
serve_and_test "" || status=1
if [ -n "${SMOKE_PREFIX:-}" ]; then
  echo "== again, served under $SMOKE_PREFIX/"
  serve_and_test "$SMOKE_PREFIX" || status=1
fi
exit "$status"
