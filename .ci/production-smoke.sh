#!/usr/bin/env bash
# The production profile, started the way README "Running it for real" says, then tested
# over HTTP: DEBUG off, a fresh SECRET_KEY, collectstatic (compressed manifest storage),
# migrate, demo data, gunicorn with two workers (and gunicorn.conf.py), two events
# servers (python -m scorekeeper.live, one process each, on two ports) and the
# background worker on PostgreSQL, every process with the README's MALLOC_* settings,
# and nginx in front on one port with the location files users copy
# (deploy/nginx/snippets/; only the top-level nginx.conf around them, with this run's
# ports, upstreams, temporary paths and logs, is written here). The tests marked
# `production` (tests/production over HTTP, the offline-rules and API-docs browser tests)
# then run against nginx with SCOREKEEPER_BASE_URL set; they may stop and start gunicorn
# and the events servers as a service manager would (SCOREKEEPER_SERVICES, below).
#
#   .ci/with-postgres.sh .ci/production-smoke.sh     (or DATABASE_URL=postgres://…)
#
# SMOKE_PREFIX=/scores: afterwards the same servers are started again under that path,
# behind deploy/nginx/snippets/scorekeeper-locations-scores.conf (README "Served under a
# path": SCRIPT_NAME=/scores, the events server at /scores/events/), and the tests run
# again there (same database and collected files: collectstatic's output does not
# depend on the prefix). SMOKE_WEEKS sets the demo's length. Runs as root (nginx's
# workers then run as nobody) or as anyone else.
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
command -v nginx >/dev/null || PATH=$PATH:/usr/sbin
command -v nginx >/dev/null || { echo "production-smoke: needs nginx (apt-get install nginx)" >&2; exit 2; }
bin=$PWD/.venv/bin
free_port() { "$bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
work=$(mktemp -d)
chmod 755 "$work"  # nginx's workers (nobody, when started as root) write below it
pids=()
svc="$work/services"
mkdir -p "$svc"
# The address the tests provoke refusals from (nginx's 503s): the only one whose 5xx
# answers the access log may show.
refused_from=127.0.0.9
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
  ALLOWED_HOSTS="127.0.0.1,localhost" STATIC_ROOT="$work/static"
  TRUSTED_PROXY_COUNT=1
  MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072)

echo "== production profile: collectstatic, migrate, demo data"
"${prod[@]}" "$bin/python" manage.py collectstatic --noinput -v 0
"${prod[@]}" "$bin/python" manage.py migrate --noinput -v 0
"${prod[@]}" "$bin/python" manage.py seed_demo --weeks "${SMOKE_WEEKS:-12}"

# service NAME LOG CMD…: CMD in the background, its output added to LOG, its pid in
# $svc/NAME.pid, the URL that answers once it is up in $svc/NAME.url (set by the
# caller). While $svc/NAME.down exists — a test stopping it, as `systemctl stop` would —
# it is not started again; when the file goes, it is. A server that ends by itself ends
# its service (and the smoke then fails). The service's own pid ends up in pids.
service() {
  local name=$1 log=$2
  shift 2
  (
    child=
    trap '[ -z "$child" ] || kill -TERM "$child" 2>/dev/null; wait 2>/dev/null; exit 0' TERM
    while :; do
      "$@" >>"$log" 2>&1 &
      child=$!
      echo "$child" >"$svc/$name.pid"
      wait "$child" || true
      [ -e "$svc/$name.down" ] || exit 1
      child=
      rm -f "$svc/$name.pid"
      while [ -e "$svc/$name.down" ]; do sleep 0.1; done
    done
  ) &
  pids+=($!)
}

wait_for() {  # URL PID LOG: until the URL answers, or the process ends
  for _ in $(seq 1 100); do
    "$bin/python" -c "import urllib.request as u; u.urlopen('$1', timeout=2)" 2>/dev/null && return
    kill -0 "$2" 2>/dev/null || { cat "$3" >&2; exit 1; }
    sleep 0.2
  done
}

# nginx_conf DIR: the top-level nginx.conf for DIR (its temporary paths, pid and logs),
# run by nginx -p DIR; its http block is what follows on stdin.
nginx_conf() {
  local dir=$1 files
  files=$(ulimit -Hn)
  [ "$files" = unlimited ] || [ "$files" -gt 16384 ] && files=16384
  mkdir -p "$dir"
  ln -sfn "$PWD/deploy/nginx/snippets" "$dir/snippets"  # `include snippets/…` as in /etc/nginx
  {
    [ "$(id -u)" = 0 ] && echo "user nobody nogroup;"
    cat <<EOF
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log error;
worker_processes 2;
worker_rlimit_nofile $files;
events { worker_connections $((files / 2)); }
http {
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
EOF
    cat
    echo "}"
  } >"$dir/nginx.conf"
}

# The events server's systemd unit (deploy/systemd/), with this checkout's paths.
if command -v systemd-analyze >/dev/null; then
  echo "== systemd-analyze verify: deploy/systemd/scorekeeper-events@.service"
  mkdir -p "$work/systemd"
  : >"$work/systemd/env"
  sed -e "s#/srv/scorekeeper#$PWD#g" -e "s#/etc/scorekeeper/env#$work/systemd/env#" \
    deploy/systemd/scorekeeper-events@.service >"$work/systemd/scorekeeper-events@8001.service"
  systemd-analyze verify "$work/systemd/scorekeeper-events@8001.service"
fi

# The two site files users copy, checked by nginx (a throwaway certificate stands in
# for certbot's files).
echo "== nginx -t: deploy/nginx/sites-available/*"
command -v openssl >/dev/null || { echo "production-smoke: needs openssl" >&2; exit 2; }
mkdir -p "$work/tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=scores.example.org \
  -keyout "$work/tls/privkey.pem" -out "$work/tls/fullchain.pem" 2>/dev/null
openssl dhparam -dsaparam -out "$work/tls/ssl-dhparams.pem" 2048 2>/dev/null
: >"$work/tls/options-ssl-nginx.conf"
for site in deploy/nginx/sites-available/*; do
  sed -e "s#/etc/letsencrypt/live/scores.example.org#$work/tls#; s#/etc/letsencrypt#$work/tls#" \
    -e "s#/var/log/nginx#$work/nginx-t#" "$site" | nginx_conf "$work/nginx-t"
  nginx -t -q -p "$work/nginx-t" -c "$work/nginx-t/nginx.conf" || exit 1
done

# serve_and_test PREFIX: the servers with SCRIPT_NAME=PREFIX behind nginx, the tests,
# their logs.
serve_and_test() {
  local prefix=$1 port events_port events_port2 proxy_port app_url status=0 locations ngx
  port=$(free_port)
  events_port=$(free_port)
  events_port2=$(free_port)
  proxy_port=$(free_port)
  rm -f "$svc"/*
  app_url="http://127.0.0.1:$proxy_port$prefix"
  ngx="$work/nginx${prefix//\//-}"
  locations=scorekeeper-locations${prefix:+-${prefix#/}}.conf
  [ -f "deploy/nginx/snippets/$locations" ] \
    || { echo "production-smoke: no deploy/nginx/snippets/$locations for $prefix" >&2; return 1; }
  # Phones open their streams on the app's own origin, through nginx.
  local run=("${prod[@]}" SCRIPT_NAME="$prefix" LIVE_EVENTS_URL="$prefix/events/")
  echo "== gunicorn, 2 workers (gunicorn.conf.py), 127.0.0.1:$port"
  : >"$work/gunicorn.log"
  echo "http://127.0.0.1:$port$prefix/rules/" >"$svc/app.url"
  service app "$work/gunicorn.log" "${run[@]}" "$bin/gunicorn" -c gunicorn.conf.py \
    scorekeeper.wsgi --workers 2 --bind "127.0.0.1:$port" --error-logfile - --log-level warning
  wait_for "$(cat "$svc/app.url")" "${pids[-1]}" "$work/gunicorn.log"
  : >"$work/events.log"
  local n=0 p
  for p in "$events_port" "$events_port2"; do
    n=$((n + 1))
    echo "== events server $n (python -m scorekeeper.live), 127.0.0.1:$p"
    echo "http://127.0.0.1:$p$prefix/events/health" >"$svc/events-$n.url"
    service "events-$n" "$work/events.log" \
      "${run[@]}" "$bin/python" -m scorekeeper.live --host 127.0.0.1 --port "$p"
    wait_for "$(cat "$svc/events-$n.url")" "${pids[-1]}" "$work/events.log"
  done
  echo "== the background worker (manage.py worker)"
  "${run[@]}" "$bin/python" manage.py worker >"$work/worker.log" 2>&1 &
  pids+=($!)
  echo "== nginx in front (deploy/nginx/snippets/$locations), $app_url/"
  nginx_conf "$ngx" <<EOF
    upstream scorekeeper_app { server 127.0.0.1:$port; }
    upstream scorekeeper_events {
        least_conn;
        server 127.0.0.1:$events_port max_fails=0;
        server 127.0.0.1:$events_port2 max_fails=0;
    }
    include snippets/scorekeeper-http.conf;
    access_log $ngx/access.log scorekeeper;
    server {
        listen 127.0.0.1:$proxy_port;
        include snippets/$locations;
    }
EOF
  nginx -p "$ngx" -c "$ngx/nginx.conf" 2>>"$ngx/error.log" &
  pids+=($!)
  wait_for "$app_url/rules/" "$!" "$ngx/error.log"

  echo "== tests marked production, over HTTP, at $app_url/"
  env -u DATABASE_URL SCOREKEEPER_BASE_URL="$app_url" SCOREKEEPER_EVENTS_URL="$app_url/events/" \
    SCOREKEEPER_ACCESS_LOG="$ngx/access.log" SCOREKEEPER_SERVICES="$svc" \
    SCOREKEEPER_REFUSED_FROM="$refused_from" \
    "$bin/pytest" -p no:xdist -p no:cacheprovider -q -m production tests/production tests/browser \
    || status=$?
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null || { echo "-- a server stopped (logs below)" >&2; status=1; }
  done
  for down in "$svc"/*.down; do
    [ -e "$down" ] && { echo "-- a test left $(basename "$down" .down) stopped" >&2; status=1; }
  done
  stop
  for log in events worker; do
    if [ "$status" -ne 0 ] || grep -q Traceback "$work/$log.log"; then
      echo "-- $log log" >&2; cat "$work/$log.log" >&2; status=1
    fi
  done
  if grep -E '\[(crit|alert|emerg)\]' "$ngx/error.log" >&2; then
    echo "-- nginx's error log (above)" >&2; status=1
  fi
  if grep -E '/join/[^[/ ]' "$work/gunicorn.log" "$ngx/access.log" "$ngx/error.log" >&2; then
    echo "-- a join link's token in a log (above)" >&2; status=1
  fi
  if grep -E '" 5[0-9][0-9] ' "$ngx/access.log" | grep -v "^${refused_from//./\\.} " >&2; then
    echo "-- 5xx answers in nginx's access log (above)" >&2; status=1
  fi
  if [ "$status" -ne 0 ] || grep -q Traceback "$work/gunicorn.log"; then
    echo "-- gunicorn log: errors" >&2
    grep -E 'Traceback|Error' "$work/gunicorn.log" >&2 || true
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
