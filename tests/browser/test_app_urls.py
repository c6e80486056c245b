"""The addresses the scripts work with come from the page (or the service worker's own
rendering), so they hold at the host's root and under a path prefix alike."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.test.utils import override_script_prefix

PATHS = ["/games/12/", "/games/12/live/", "/games/new/", "/rules/", "/scores/games/12/"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("prefix", "sheets"),
    [("/", ["/games/12/"]), ("/scores/", ["/scores/games/12/"])],
)
def test_the_sheets_the_service_worker_keeps(page: Any, prefix: str, sheets: list[str]) -> None:
    """Its idea of a score sheet (the pages it keeps for offline use), worked out by the
    browser's own regular expressions."""
    with override_script_prefix(prefix):
        body = Client().get("/sw.js").content.decode()
    sheet_path = re.search(r"var SHEET_PATH = .*?;\n", body, flags=re.S)
    assert sheet_path is not None
    found = page.evaluate(
        f"(paths) => {{ {sheet_path.group(0)} return paths.filter(p => SHEET_PATH.test(p)); }}",
        PATHS,
    )
    assert found == sheets
