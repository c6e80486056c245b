"""A write whose transaction PostgreSQL aborted to break a deadlock (or a serialization
failure) is run once more, rather than the table seeing an error.

The writes take their locks in one order (:func:`scorekeeper.ratings.replay.lock_league`
says which), so this should not happen; the retry is for what that order does not
cover. The aborted transaction was rolled back whole, so running the write again is
safe; inside a caller's transaction nothing is retried (that transaction is aborted).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import OperationalError, connection

P = ParamSpec("P")
T = TypeVar("T")

#: SQLSTATEs of a transaction PostgreSQL rolled back for another's sake.
RETRYABLE = frozenset({"40P01", "40001"})  # deadlock_detected, serialization_failure


def is_retryable(error: BaseException) -> bool:
    return getattr(error.__cause__, "sqlstate", None) in RETRYABLE


def once_more_on_deadlock(write: Callable[P, T]) -> Callable[P, T]:
    """Run ``write`` (which opens its own transaction) again, once, when it fails on
    a deadlock or a serialization failure."""

    @functools.wraps(write)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        if connection.in_atomic_block:
            return write(*args, **kwargs)
        try:
            return write(*args, **kwargs)
        except OperationalError as error:
            if not is_retryable(error):
                raise
        return write(*args, **kwargs)

    return run
