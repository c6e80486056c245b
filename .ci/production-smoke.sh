#!/usr/bin/env bash
# The production profile, started the way README "Running it for real" says, then tested
# over HTTP: DEBUG off, a fresh SECRET_KEY, collectstatic (compressed manifest storage),
# migrate, demo data, gunicorn with two workers and the events server (uvicorn) on
# PostgreSQL. The tests marked
# `production` (tests/production over HTTP, the offline-rules browser tests) then run
# against it with SCOREKEEPER_BASE_URL set.
#
#   .ci/with-postgres.sh .ci/production-smoke.sh     (or DATABASE_URL=postgres://…)
#
# SMOKE_PORT picks the port (default: a free one); SMOKE_WEEKS the demo's length.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${DATABASE_URL:-}" in
  postgres*://*) ;;
  *) echo "production-smoke: needs DATABASE_URL=postgres://… (run it through with-postgres.sh)" >&2
     exit 2 ;;
esac
[ -x .venv/bin/python ] || make .venv/.installed
bin=$PWD/.venv/bin
port=${SMOKE_PORT:-$("$bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
events_port=${SMOKE_EVENTS_PORT:-$("$bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
work=$(mktemp -d)
server=""
worker=""
events=""
cleanup() {
  for pid in $server $worker $events; do
    if kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; fi
  done
  rm -rf "$work"
}
trap cleanup EXIT

# Only what the README's production environment holds: nothing from this shell leaks in.
secret=$("$bin/python" -c 'import secrets; print(secrets.token_urlsafe(50))')
prod=(env -i PATH="$PATH" HOME="$work" LANG=C.UTF-8
  DATABASE_URL="$DATABASE_URL" SECRET_KEY="$secret"
  ALLOWED_HOSTS="127.0.0.1,localhost" STATIC_ROOT="$work/static"
  LIVE_EVENTS_URL="http://127.0.0.1:$events_port/events/")

echo "== production profile: collectstatic, migrate, demo data"
"${prod[@]}" "$bin/python" manage.py collectstatic --noinput -v 0
"${prod[@]}" "$bin/python" manage.py migrate --noinput -v 0
"${prod[@]}" "$bin/python" manage.py seed_demo --weeks "${SMOKE_WEEKS:-12}"

echo "== gunicorn, 2 workers, http://127.0.0.1:$port/"
"${prod[@]}" "$bin/gunicorn" scorekeeper.wsgi --workers 2 --bind "127.0.0.1:$port" \
  --access-logfile - --error-logfile - --log-level warning >"$work/gunicorn.log" 2>&1 &
server=$!
echo "== the events server (uvicorn scorekeeper.live.asgi:app, 2 processes), http://127.0.0.1:$events_port/events/"
"${prod[@]}" "$bin/uvicorn" scorekeeper.live.asgi:app --host 127.0.0.1 --port "$events_port" --workers 2 \
  --no-access-log --timeout-graceful-shutdown 2 >"$work/events.log" 2>&1 &
events=$!
echo "== the background worker (manage.py db_worker)"
"${prod[@]}" "$bin/python" manage.py db_worker >"$work/worker.log" 2>&1 &
worker=$!
for _ in $(seq 1 100); do
  if "$bin/python" -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/rules/', timeout=2)" 2>/dev/null; then
    break
  fi
  kill -0 "$server" 2>/dev/null || { cat "$work/gunicorn.log" >&2; exit 1; }
  sleep 0.2
done
for _ in $(seq 1 100); do
  if "$bin/python" -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$events_port/events/health', timeout=2)" 2>/dev/null; then
    break
  fi
  kill -0 "$events" 2>/dev/null || { cat "$work/events.log" >&2; exit 1; }
  sleep 0.2
done

echo "== tests marked production, over HTTP"
status=0
env -u DATABASE_URL SCOREKEEPER_BASE_URL="http://127.0.0.1:$port" \
  SCOREKEEPER_EVENTS_URL="http://127.0.0.1:$events_port/events/" \
  "$bin/pytest" -p no:xdist -p no:cacheprovider -q -m production tests/production tests/browser \
  || status=$?
kill -0 "$worker" 2>/dev/null || { echo "-- the worker stopped:" >&2; cat "$work/worker.log" >&2; status=1; }
kill -0 "$events" 2>/dev/null || { echo "-- the events server stopped:" >&2; cat "$work/events.log" >&2; status=1; }
if grep -q Traceback "$work/events.log"; then
  echo "-- events server log: errors" >&2; cat "$work/events.log" >&2; status=1
fi
if grep -q Traceback "$work/worker.log"; then
  echo "-- worker log: errors" >&2; cat "$work/worker.log" >&2; status=1
fi
if [ "$status" -ne 0 ] || grep -qE '" 5[0-9][0-9] |Traceback' "$work/gunicorn.log"; then
  echo "-- gunicorn log: errors and 5xx answers" >&2
  grep -E '" 5[0-9][0-9] |Traceback|Error' "$work/gunicorn.log" >&2 || true
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
