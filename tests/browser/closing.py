"""Closing a browser context without waiting for ever on what its pages are doing.

Chromium can leave ``BrowserContext.close()`` unsettled for good while a page inside it
is in the middle of a navigation: CI once hung in a teardown after a revoked guest's
sheet, whose poll was sending it away, was closed mid-flight. Each page is first taken to
``about:blank`` (which stops its timers, polls, streams and navigations) and closed
without ``beforeunload``; only then is the context closed.
"""

from __future__ import annotations

import contextlib
from typing import Any

from playwright.sync_api import Error as PlaywrightError

BLANK_TIMEOUT_MS = 5_000


def quiet_page(page: Any) -> None:
    """Take ``page`` to ``about:blank`` and close it; a page already gone is fine."""
    if page.is_closed():
        return
    # Closed meanwhile, or stuck: closing it below is what matters.
    with contextlib.suppress(PlaywrightError):
        page.goto("about:blank", timeout=BLANK_TIMEOUT_MS)
    with contextlib.suppress(PlaywrightError):
        page.close(run_before_unload=False)


def close_context(context: Any) -> None:
    """Close ``context`` after quieting every page in it (see the module's note)."""
    for page in list(context.pages):
        quiet_page(page)
    context.close()
