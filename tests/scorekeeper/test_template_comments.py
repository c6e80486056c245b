"""Django's ``{# … #}`` comment ends at the line's end: one spread over lines is shown
to the user as text. Every page's template must use ``{% comment %}`` for those."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_no_template_has_a_comment_over_several_lines() -> None:
    found = [
        f"{path.relative_to(TEMPLATES)}:{text[: match.start()].count(chr(10)) + 1}"
        for path in sorted(TEMPLATES.rglob("*"))
        if path.is_file() and path.suffix in {".html", ".js", ".txt"}
        for text in [path.read_text(encoding="utf-8")]
        for match in re.finditer(r"\{#(.*?)#\}", text, flags=re.S)
        if "\n" in match.group(1)
    ]
    assert found == []


@pytest.mark.django_db
def test_the_page_shows_no_template_comment(client: Client) -> None:
    body = client.get("/").content.decode()
    assert "{#" not in body
    assert "#}" not in body
