"""Assertions shared by the engine tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.base import StandingRow


def assert_competition_ranks(
    rows: Sequence[StandingRow], key: Callable[[StandingRow], Any]
) -> None:
    """Rows are sorted best first by ``key`` (smaller is better) and ranked 1, 1, 3…:
    equal keys share a rank, which is one more than the number of rows strictly ahead."""
    keys = [key(row) for row in rows]
    assert keys == sorted(keys)
    for row, k in zip(rows, keys, strict=True):
        assert row.rank == 1 + sum(other < k for other in keys)
