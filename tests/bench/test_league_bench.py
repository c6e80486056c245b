"""The league benchmark still runs end to end (a tiny league on the test database), so
the script cannot rot as the pages it measures change."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from django.db import connection

from scorekeeper.models import Game, League, Player

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "league_bench.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("league_bench", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.django_db(transaction=True)
def test_small_bench_generates_measures_and_cleans_up(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    code = bench.main(
        ["--small", "--players", "20", "--games", "80", "--templates", "40", "--requests", "3"]
    )
    out = capsys.readouterr().out
    assert code in (0, 1), out  # 1: a read path over 50 ms on a busy test machine
    assert "80 games" in out
    for path in ("standings API (all games)", "league page", "history API", "player page"):
        assert path in out
    assert "ERROR" not in out
    # Everything it made is gone again.
    assert not League.objects.filter(name__startswith="Bench league").exists()
    assert not Game.objects.exists()
    assert not Player.objects.exists()


@pytest.mark.skipif(connection.vendor == "postgresql", reason="about SQLite")
def test_refuses_sqlite_at_full_size(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    assert bench.main(["--games", "10"]) == 2
    assert "PostgreSQL" in capsys.readouterr().out
