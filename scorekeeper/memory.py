"""Giving memory back to the system after the rare work that needed a lot of it.

A league import parses a file of up to 20 MB and compiles the backup schema (over 100 MB
while it lasts); once done, CPython frees those objects but glibc's malloc keeps the
memory for the process, which would then stay that large for ever. :func:`give_back`
collects the freed cycles and asks malloc to return what it holds free; a request that
did such work calls :func:`give_back_after_request`, and the memory is returned once its
answer is sent (the request's data is gone by then)."""

from __future__ import annotations

import contextlib
import ctypes
import gc
from typing import Any

from django.core.signals import request_finished

_after_request = False


def give_back() -> None:
    gc.collect()  # compiled code and its module namespace hold each other
    with contextlib.suppress(OSError, AttributeError):  # not glibc: reused, not returned
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def give_back_after_request() -> None:
    global _after_request
    _after_request = True


def on_request_finished(**kwargs: Any) -> None:
    """``request_finished``: give memory back if the request asked for it."""
    global _after_request
    if _after_request:
        _after_request = False
        give_back()


request_finished.connect(on_request_finished, dispatch_uid="scorekeeper.memory")
