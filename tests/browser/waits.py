"""Waiting for a condition in the page without ``page.wait_for_function``.

Playwright's ``wait_for_function`` compiles its predicate with ``new Function`` inside
the page whenever the first check is false, and our Content-Security-Policy
(``script-src 'self'``, no ``'unsafe-eval'``) refuses that: the test then fails only when
the page is slow, which a loaded CI machine is. ``page.evaluate`` goes through the
DevTools protocol, which the policy does not govern, so polling it from Python waits
for the same thing without weakening the policy under test.
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError


def wait_until(page: Any, expression: str, *, timeout: float = 10_000, polling: int = 100) -> Any:
    """Evaluate ``expression`` (an expression or a function, possibly async) every
    ``polling`` ms until it is truthy; return its value. Raise Playwright's
    ``TimeoutError`` after ``timeout`` ms, like ``wait_for_function``. A navigation
    that destroys the context mid-check just means: check again."""
    deadline = time.monotonic() + timeout / 1000
    last_error: Exception | None = None
    while True:
        try:
            value = page.evaluate(expression)
        except PlaywrightError as error:
            if "Execution context was destroyed" not in str(error) and (
                "navigat" not in str(error)
            ):
                raise
            value, last_error = None, error
        if value:
            return value
        if time.monotonic() >= deadline:
            raise PlaywrightTimeoutError(
                f"waited {timeout:.0f} ms for {expression!r}"
                + (f" (last error: {last_error})" if last_error else "")
            )
        page.wait_for_timeout(polling)
