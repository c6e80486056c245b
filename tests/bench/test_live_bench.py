"""The live-updates bench still runs end to end on the stack as deployed (a few tables,
a short hold, every scenario), so the script cannot rot as the app changes. PostgreSQL
only, like the bench; it needs nginx, as the production smoke does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

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
        [sys.executable, str(BENCH), "--tables", "5", "--hold", "1", "--hands", "2",
         "--behind", "2", "--outage", "2"],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "20 of 20 streams open through nginx" in out, out
    assert "(goal ≤ 1.0: MET)" in out, out
    for game in ("dirt", "screw-your-neighbour", "dirty-deals", "dirty-uno"):
        assert f"b. {game}, a hand seen by 4 phones" in out, out
    assert "b. dirt, a tools tap (penalty-add) seen by 4 phones" in out, out
    # The other phones took the answer pushed with each hand's event, and asked nothing.
    assert "dirt: an answer pushed on the stream: " in out, out
    assert '"live (pushed, not asked)"' in out, out
    assert '"live (event) 200"' not in out.split("b. dirt, a tools tap")[0], out
    # Every phone of a restarted events server streams again, and after both were away.
    # The changes are the phones' own saves and taps, measured again with every stream
    # held: what the restart adds is shown against its goal.
    assert "c. the same changes with every stream held, 2 games" in out, out
    assert "c. one events server restarted" in out, out
    assert ", of which the restart " in out, out
    assert '"save 200": 2' in out, out
    assert '"tap 200"' in out, out
    assert "every phone streaming again after" in out, out
    assert "d. both events servers away" in out, out
