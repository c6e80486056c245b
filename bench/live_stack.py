"""The production stack for bench/live_bench.py, started as .ci/production-smoke.sh
starts it, and the CPU each of its processes spends, read from ``/proc``.

Only the README's production environment reaches the servers (DEBUG off, a fresh
SECRET_KEY, collectstatic's manifest storage, the MALLOC_* settings, PostgreSQL from
DATABASE_URL): gunicorn with ``gunicorn.conf.py`` and 2 workers, two events servers
(``python -m scorekeeper.live``, one process each, with its own defaults), the task
worker (``manage.py worker``) and nginx in front with the location files users copy
(``deploy/nginx/snippets/``; only the top-level nginx.conf is written here, with the
bench's ports and a connection allowance for every phone).

CPU, by group, in seconds:

* ``django``: gunicorn's master with the workers it reaped (``cutime``/``cstime``: a
  worker replaced after ``max_requests`` is counted) and its live workers;
* ``events``: both events servers, and every one stopped before (its whole CPU read from
  ``getrusage(RUSAGE_CHILDREN)`` around its ``wait``);
* ``worker``: the task worker;
* ``postgres``: the backends of this run's database (``pg_stat_activity.datname``),
  except the bench's own connections, sampled every 0.2 s by a thread (a backend that
  ends between two samples loses at most its last 0.2 s);
* ``nginx``: its master and workers (not Django's; shown apart).
"""

from __future__ import annotations

import os
import resource
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
GROUPS = ("django", "postgres", "events", "worker", "nginx")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def cpu_of(pid: int, children: bool = False) -> float:
    """A process's CPU seconds (with its reaped children's, if ``children``)."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if children:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime
    return ticks / TICK


def children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class PostgresBackends(threading.Thread):
    """Samples the CPU of this database's backends (not ``exclude``'s) every 0.2 s."""

    def __init__(self, url: str, exclude: set[int]) -> None:
        super().__init__(daemon=True)
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True, application_name="live-bench-probe")
        self.exclude = set(exclude)
        self.exclude.add(self.conn.execute("SELECT pg_backend_pid()").fetchone()[0])  # type: ignore[index]
        self.seen: dict[int, float] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()

    def sample(self) -> None:
        rows = self.conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
        ).fetchall()
        with self.lock:
            for (pid,) in rows:
                if pid not in self.exclude:
                    cpu = cpu_of(pid)
                    if cpu:
                        self.seen[pid] = max(self.seen.get(pid, 0.0), cpu)

    def total(self) -> float:
        self.sample()
        with self.lock:
            return sum(self.seen.values())

    def run(self) -> None:
        while not self.stopping.wait(0.2):
            try:
                self.sample()
            except Exception:  # the probe's connection went: stop sampling
                return


class Stack:
    """The servers, started in ``start()`` and stopped in ``stop()``."""

    def __init__(self, database_url: str, bench_pids: set[int]) -> None:
        self.url = database_url
        self.work = Path(tempfile.mkdtemp(prefix="live-bench-"))
        self.work.chmod(0o755)
        self.bin = Path(sys.executable).parent
        self.app_port, self.proxy_port = free_port(), free_port()
        self.events_ports = [free_port(), free_port()]
        self.events: list[subprocess.Popen[bytes] | None] = [None, None]
        self.gunicorn: subprocess.Popen[bytes] | None = None
        self.worker: subprocess.Popen[bytes] | None = None
        self.nginx: subprocess.Popen[bytes] | None = None
        self.stopped_events_cpu = 0.0
        self.bench_pids = bench_pids
        self.postgres: PostgresBackends | None = None
        # The bench's own Django signs the phones' tickets and sessions: the same key.
        secret = os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50)
        self.env = {
            "PATH": os.environ.get("PATH", "") + ":/usr/sbin",
            "HOME": str(self.work),
            "LANG": "C.UTF-8",
            "DATABASE_URL": database_url,
            "SECRET_KEY": secret,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "STATIC_ROOT": str(self.work / "static"),
            "TRUSTED_PROXY_COUNT": "1",
            "LIVE_EVENTS_URL": "/events/",
            "MALLOC_ARENA_MAX": "2",
            "MALLOC_MMAP_THRESHOLD_": "131072",
            "MALLOC_TRIM_THRESHOLD_": "131072",
        }

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}"

    def _log(self, name: str) -> object:
        return (self.work / f"{name}.log").open("ab")

    def _run(self, *args: str) -> None:
        subprocess.run([str(self.bin / "python"), *args], cwd=ROOT, env=self.env, check=True)

    def _wait_for(self, url: str, process: subprocess.Popen[bytes], log: str) -> None:
        for _ in range(300):
            try:
                urllib.request.urlopen(url, timeout=2)
                return
            except urllib.error.HTTPError:
                return  # it answers
            except OSError:
                if process.poll() is not None:
                    sys.stderr.write((self.work / f"{log}.log").read_text(errors="replace"))
                    raise RuntimeError(f"{log} stopped") from None
                time.sleep(0.1)
        raise RuntimeError(f"{url} never answered")

    def prepare(self) -> None:
        """collectstatic and migrate, as the deploy does."""
        self._run("manage.py", "collectstatic", "--noinput", "-v", "0")
        self._run("manage.py", "migrate", "--noinput", "-v", "0")

    def start_events(self, n: int) -> None:
        port = self.events_ports[n]
        self.events[n] = subprocess.Popen(
            [str(self.bin / "python"), "-m", "scorekeeper.live", "--host", "127.0.0.1",
             "--port", str(port)],
            cwd=ROOT, env=self.env, stdout=self._log("events"), stderr=subprocess.STDOUT,  # type: ignore[arg-type]
        )  # fmt: skip
        self._wait_for(f"http://127.0.0.1:{port}/events/health", self.events[n], "events")  # type: ignore[arg-type]

    def stop_events(self, n: int) -> None:
        """SIGTERM, as systemd stops it; its whole CPU is kept."""
        process = self.events[n]
        if process is None:
            return
        before = _children_cpu()
        process.terminate()
        process.wait(30)
        self.stopped_events_cpu += _children_cpu() - before
        self.events[n] = None

    def start(self) -> None:
        """The servers (after ``prepare``)."""
        self.gunicorn = subprocess.Popen(
            [str(self.bin / "gunicorn"), "-c", "gunicorn.conf.py", "scorekeeper.wsgi",
             "--workers", "2", "--bind", f"127.0.0.1:{self.app_port}",
             "--error-logfile", "-", "--log-level", "warning"],
            cwd=ROOT, env=self.env, stdout=self._log("gunicorn"), stderr=subprocess.STDOUT,  # type: ignore[arg-type]
        )  # fmt: skip
        self._wait_for(f"http://127.0.0.1:{self.app_port}/rules/", self.gunicorn, "gunicorn")
        for n in range(2):
            self.start_events(n)
        self.worker = subprocess.Popen(
            [str(self.bin / "python"), "manage.py", "worker"],
            cwd=ROOT, env=self.env, stdout=self._log("worker"), stderr=subprocess.STDOUT,  # type: ignore[arg-type]
        )  # fmt: skip
        self._start_nginx()
        self.postgres = PostgresBackends(self.url, self.bench_pids)
        self.postgres.start()

    def _start_nginx(self) -> None:
        nginx = shutil.which("nginx", path=self.env["PATH"])
        if nginx is None:
            raise RuntimeError("needs nginx (apt-get install nginx)")
        ngx = self.work / "nginx"
        ngx.mkdir()
        (ngx / "snippets").symlink_to(ROOT / "deploy/nginx/snippets")
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        files = 65536 if files == resource.RLIM_INFINITY else min(files, 65536)
        user = "user nobody nogroup;\n" if os.getuid() == 0 else ""
        e1, e2 = self.events_ports
        (ngx / "nginx.conf").write_text(f"""{user}daemon off;
pid {ngx}/nginx.pid;
error_log {ngx}/error.log error;
worker_processes 2;
worker_rlimit_nofile {files};
events {{ worker_connections {files}; }}
http {{
    client_body_temp_path {ngx}/body;
    proxy_temp_path {ngx}/proxy;
    fastcgi_temp_path {ngx}/fastcgi;
    uwsgi_temp_path {ngx}/uwsgi;
    scgi_temp_path {ngx}/scgi;
    upstream scorekeeper_app {{ server 127.0.0.1:{self.app_port}; }}
    upstream scorekeeper_events {{
        least_conn;
        server 127.0.0.1:{e1} max_fails=0;
        server 127.0.0.1:{e2} max_fails=0;
    }}
    include snippets/scorekeeper-http.conf;
    access_log off;
    server {{
        listen 127.0.0.1:{self.proxy_port} backlog=4096;
        include snippets/scorekeeper-locations.conf;
    }}
}}
""")
        self.nginx = subprocess.Popen(
            [nginx, "-p", str(ngx), "-c", str(ngx / "nginx.conf")],
            stdout=self._log("nginx"), stderr=subprocess.STDOUT,  # type: ignore[arg-type]
        )  # fmt: skip
        self._wait_for(f"{self.base}/rules/", self.nginx, "nginx")

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far, by group (see the module's docstring)."""
        django = 0.0
        if self.gunicorn is not None:
            master = self.gunicorn.pid
            django = cpu_of(master, children=True) + sum(cpu_of(p) for p in children_of(master))
        events = self.stopped_events_cpu + sum(cpu_of(p.pid) for p in self.events if p)
        worker = cpu_of(self.worker.pid) if self.worker else 0.0
        nginx = 0.0
        if self.nginx is not None:
            nginx = cpu_of(self.nginx.pid) + sum(cpu_of(p) for p in children_of(self.nginx.pid))
        postgres = self.postgres.total() if self.postgres else 0.0
        return {"django": django, "postgres": postgres, "events": events, "worker": worker,
                "nginx": nginx}  # fmt: skip

    def stop(self) -> None:
        if self.postgres is not None:
            self.postgres.stopping.set()
        for process in (self.nginx, self.worker, *self.events, self.gunicorn):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
        for log in ("gunicorn", "events", "worker"):
            path = self.work / f"{log}.log"
            if path.exists() and "Traceback" in path.read_text(errors="replace"):
                print(f"-- {log} log had a traceback:", file=sys.stderr)
                sys.stderr.write(path.read_text(errors="replace")[-4000:])
        shutil.rmtree(self.work, ignore_errors=True)


def delta(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {k: after[k] - before[k] for k in after}
