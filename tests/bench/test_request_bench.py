"""The request and engine benchmarks still run end to end (a few requests on the test
database), so the scripts cannot rot as the views they measure change."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from django.db import connection

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_engine_bench_times_every_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("engine_bench")
    code = bench.main(["--games", "2", "--rounds", "1"])
    out = capsys.readouterr().out
    assert code in (0, 1), out  # 1: Dirt over 50 µs on a busy test machine
    for slug in ("dirt", "screw-your-neighbour", "damn-you", "dirty-uno", "dirty-deals"):
        assert slug in out


@pytest.mark.django_db(transaction=True)
def test_request_bench_compares_product_and_bare_views(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the request bench is about PostgreSQL")
    bench = load("request_bench")
    code = bench.main(["--requests", "3", "--engine-games", "1"])
    out = capsys.readouterr().out
    assert code in (0, 1), out  # 1: a goal missed on a busy test machine
    for line in ("hand POST, Dirt", "game GET (JSON)", "sheet page GET", "live poll", "300 hands"):
        assert line in out
