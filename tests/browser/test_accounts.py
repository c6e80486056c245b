"""The account pages on a 375 px phone: my account fits, in light and dark, and saves a
new name; a forgotten password is reset by the mailed link (the file backend's message)
and the new one signs in.

Set ``SCOREKEEPER_SCREENSHOTS=/some/dir`` to keep screenshots of the pages."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User

from scorekeeper.models import Player
from tests.browser.sheet_ui import watch

PHONE = {"width": 375, "height": 812}


def _shoot(page: Any, name: str) -> None:
    folder = os.environ.get("SCOREKEEPER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"page is {width}px wide"


def test_my_account_on_a_phone(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    page.set_viewport_size(PHONE)
    problems = watch(page)
    page.get_by_role("link", name="Account").click()
    page.get_by_role("heading", name="My account", exact=True).wait_for()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        _fits(page)
        _shoot(page, f"account-{scheme}")
    for control in page.locator("main button, main a.button, main input:visible").all():
        box = control.bounding_box()
        assert box["height"] >= 44, (control.get_attribute("name"), box)

    page.fill("#id_name", "Ana Banana")
    page.fill("#id_email", "ana@example.org")
    page.get_by_role("button", name="Save").click()
    page.get_by_text("Your name and e-mail address are saved.").wait_for()
    assert Player.objects.get(user__username="ana").name == "Ana Banana"
    assert problems == []


def test_reset_a_forgotten_password(
    page: Any, live_server: Any, transactional_db: None, settings: Any, tmp_path: Path
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = tmp_path
    User.objects.create_user("ana", "ana@example.org", "table-talk-42")
    page.set_viewport_size(PHONE)
    problems = watch(page)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("link", name="Reset it by e-mail").click()
    page.fill("#id_email", "ana@example.org")
    page.get_by_role("button", name="Send the link").click()
    page.get_by_role("heading", name="Check your e-mail").wait_for()
    _fits(page)

    (sent,) = tmp_path.iterdir()
    link = re.search(r"http://\S+/accounts/password/reset/\S+/", sent.read_text())
    assert link is not None
    page.goto(link.group(0))
    page.get_by_role("heading", name="Set a new password").wait_for()
    _fits(page)
    _shoot(page, "password-reset-confirm")
    page.fill("#id_new_password1", "a-brand-new-phrase-7")
    page.fill("#id_new_password2", "a-brand-new-phrase-7")
    page.get_by_role("button", name="Set password").click()
    page.get_by_role("link", name="Sign in").last.click()
    page.fill("#id_username", "ana")
    page.fill("#id_password", "a-brand-new-phrase-7")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    assert page.get_by_role("link", name="Account").is_visible()
    assert problems == []
