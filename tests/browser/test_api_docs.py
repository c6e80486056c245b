"""The interactive API page renders in a real browser under our Content Security Policy
(no inline script or style, nothing from a CDN)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_api_docs_render_operations_without_csp_errors(page: Any, site_url: str) -> None:
    problems: list[str] = []
    outside: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on(
        "request",
        lambda req: (
            None
            if req.url.startswith(site_url) or req.url.startswith("data:")
            else outside.append(req.url)
        ),
    )

    page.goto(f"{site_url}/api/v1/docs/")
    page.wait_for_selector(".opblock-summary", timeout=15_000)

    operations = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/v1/games/{game_id}/hands/" in [o.replace("\u200b", "") for o in operations]
    assert page.locator(".opblock").count() >= 15
    # Open one operation: its request body and examples render too.
    page.locator("#operations-hands-games_hands_create .opblock-summary").click()
    page.wait_for_selector("#operations-hands-games_hands_create .opblock-body")
    assert page.locator("#operations-hands-games_hands_create .opblock-body").is_visible()

    assert not [p for p in problems if "Content Security Policy" in p], problems
    assert not problems, problems
    assert not outside, outside
