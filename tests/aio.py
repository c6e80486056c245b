"""Run a coroutine to the end from a synchronous test.

``asyncio.run`` refuses to start when the thread already has a running event loop, and the
browser tests' session-wide Playwright (its sync API) keeps one running in the main thread
of whichever xdist worker they share with these tests. A fresh thread has no loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
