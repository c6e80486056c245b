"""The app's servers as the README starts them (gunicorn with ``gunicorn.conf.py``, the
events server), in processes of their own whose logs the tests read; and a PostgreSQL
cluster of a test's own, to stop and start (never the server other tests share)."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def environment(**env: str) -> dict[str, str]:
    """A server's whole environment, as the README's recipe sets it (nothing of pytest's
    or of what a test imported: a bench module sets ``ALLOWED_HOSTS`` on import), with
    the test process's ``SECRET_KEY`` (a ticket signed here is good there)."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "LANG": "C.UTF-8",
        "SECRET_KEY": settings.SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_MANIFEST": "0",  # the static files straight from the checkout
        **env,
    }


def database_url() -> str:
    """The test database, for a server in another process (its rows must be committed:
    ``transactional_db``)."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@dataclass
class Served:
    port: int
    out: Path
    err: Path

    def log(self) -> str:
        """Everything the server wrote, on stdout and stderr."""
        return self.out.read_text() + self.err.read_text()

    def get(self, path: str, headers: dict[str, str] | None = None) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", path, headers=headers or {})
            answer = conn.getresponse()
            answer.read()
            return answer.status
        finally:
            conn.close()


#: How gunicorn ("Listening at: …") and uvicorn ("Uvicorn running on …") say where.
LISTENING = re.compile(r"(?:Listening at: |running on )http://127\.0\.0\.1:(\d+)")


@contextlib.contextmanager
def serve(name: str, command: list[str], env: dict[str, str], logs: Path) -> Iterator[Served]:
    """``command`` until the block ends: then stopped, its log flushed. It listens on a
    port it picks itself (``{port}`` is 0) and names in its log: a port picked here
    could be taken by another process before the server binds it."""
    served = Served(0, logs / f"{name}.out", logs / f"{name}.err")
    with served.out.open("w") as out, served.err.open("w") as err:
        server = subprocess.Popen(
            [arg.format(port=0) for arg in command],
            cwd=ROOT,
            env=environment(**env),
            stdout=out,
            stderr=err,
        )
        try:
            deadline = time.monotonic() + 30
            while not (found := LISTENING.search(served.log())):
                assert server.poll() is None, f"{name} stopped:\n{served.log()}"
                assert time.monotonic() < deadline, f"{name} did not start"
                time.sleep(0.1)
            served.port = int(found[1])
            yield served
        finally:
            server.terminate()
            server.wait(20)


GUNICORN = [
    *(sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "scorekeeper.wsgi"),
    *("--workers", "1", "--bind", "127.0.0.1:{port}"),
]
EVENTS = [sys.executable, "-m", "scorekeeper.live", "--host", "127.0.0.1", "--port", "{port}"]


def postgres_bindir() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    initdb = found[-1] if found else shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@dataclass
class Cluster:
    """A PostgreSQL cluster of one test's own (as ``.ci/with-postgres.sh`` makes one)."""

    bindir: Path
    home: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str) -> None:
        # initdb and the server refuse to run as root: as the postgres user then.
        runas = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        subprocess.run([*runas, str(self.bindir / "pg_ctl"), *args], check=True, timeout=60)

    def start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.home} -c fsync=off"
        data, log = self.home / "data", self.home / "server.log"
        self._ctl("-D", str(data), "-l", str(log), "-w", "-o", options, "start")

    def stop(self) -> None:
        self._ctl("-D", str(self.home / "data"), "-m", "fast", "-w", "stop")


@contextlib.contextmanager
def own_postgres(bindir: Path) -> Iterator[Cluster]:
    home = Path(tempfile.mkdtemp(prefix="pg-own."))
    runas: list[str] = []
    if os.getuid() == 0:
        shutil.chown(home, "postgres", "postgres")
        runas = ["runuser", "-u", "postgres", "--"]
    cluster = Cluster(bindir, home, free_port())
    try:
        initdb = [str(bindir / "initdb"), "-D", str(home / "data"), "-U", "postgres"]
        subprocess.run(
            [*runas, *initdb, "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"],
            check=True,
            capture_output=True,
            timeout=120,
        )
        cluster.start()
        try:
            yield cluster
        finally:
            with contextlib.suppress(subprocess.CalledProcessError):
                cluster.stop()
    finally:
        shutil.rmtree(home, ignore_errors=True)
