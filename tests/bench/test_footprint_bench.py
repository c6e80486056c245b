"""The footprint bench still runs end to end (one tour, a few streams, a short night, a
small account's data downloaded), so the script
cannot rot as the pages change: the whole production stack starts, every page of the
tour answers below 500, and each process's memory is printed. PostgreSQL only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.scorekeeper.events_server import _free_port

BENCH = Path(__file__).resolve().parents[2] / "bench" / "footprint_bench.py"


@pytest.mark.django_db(transaction=True)
def test_footprint_bench_tours_the_stack_and_prints_each_process() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the bench needs PostgreSQL (DATABASE_URL)")
    db = connection.settings_dict
    url = f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url}
    env.pop("PYTEST_VERSION", None)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    port = _free_port()
    done = subprocess.run(
        [sys.executable, str(BENCH), "--tours", "1", "--streams", "20", "--night", "10",
         "--account-games", "50", "--port", str(port)],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert "none failed" in done.stdout, done.stdout + done.stderr
    processes = ("web worker 1", "web worker 2", "events server 1", "events server 2")
    for process in (*processes, "background worker"):
        assert process in done.stdout
    assert "events server with 20 open streams" in done.stdout
    assert "then a game night, 10 hands" in done.stdout
    assert "an account of 50 games" in done.stdout
