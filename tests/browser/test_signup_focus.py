"""Sign-up on a phone: a refused password brings the form back with the focus on the
password field that says what is wrong, not on the username at the top."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.sheet_ui import watch


def test_a_refused_password_takes_the_focus(
    page: Any, live_server: Any, transactional_db: None
) -> None:
    problems = watch(page)
    page.goto(f"{live_server.url}/accounts/signup/")
    expect(page.locator("#id_username")).to_be_focused()
    page.fill("#id_username", "cy")
    page.fill("#id_email", "cy@example.org")
    page.fill("#id_password1", "1234")
    page.fill("#id_password2", "1234")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".errorlist")).to_be_visible()
    expect(page.locator("#id_password2")).to_be_focused()
    expect(page.locator("#id_password2")).to_have_attribute("aria-invalid", "true")
    assert not problems, problems
