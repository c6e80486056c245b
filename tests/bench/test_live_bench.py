"""The live-updates bench still runs end to end (a few tables, a short hold), so the
script cannot rot as the events server changes. PostgreSQL only, like the bench."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.scorekeeper.events_server import _free_port

BENCH = Path(__file__).resolve().parents[2] / "bench" / "live_bench.py"


@pytest.mark.django_db(transaction=True)
def test_live_bench_holds_streams_and_counts_a_change() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the bench needs PostgreSQL (DATABASE_URL)")
    db = connection.settings_dict
    url = f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url}
    env.pop("PYTEST_VERSION", None)
    done = subprocess.run(
        [sys.executable, str(BENCH), "--tables", "14", "--hold", "1", "--changes", "2",
         "--long", "10", "--fanout", "3", "--behind", "2",
         "--port", str(_free_port())],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "56 of 56 streams open" in done.stdout
    assert "(goal ≤ 1.0: met)" in done.stdout
    assert "no other phone any: yes" in done.stdout
    assert "the old poll" in done.stdout
    assert "a hand seen by the table (1 phone saves it, 3 ask" in done.stdout
    # After a restart, only the phones of the two games changed meanwhile ask Django.
    assert "48 phones current from the first event, 8 behind asked Django" in done.stdout
