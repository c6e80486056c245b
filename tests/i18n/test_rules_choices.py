"""A game's rules page names each house rule's choices as that game's new-game form
does, in every language: Dirt's "until-playable", D$%n You!'s "one-deal-each" and any
other game's "high" are words a player reads in both places, never the API's codes."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.utils import translation

from games import RULESETS
from scorekeeper.presenters import presenter_for


def page_text(body: str) -> str:
    return " ".join(html.unescape(re.sub(r"(?s)<[^>]+>", "", body)).split())


#: Each game's options whose choices are words: (game, option, its choices).
WORDED = [
    (slug, name, list(option["choices"]))
    for slug, rules in RULESETS.items()
    for name, option in rules.metadata()["options"].items()
    if option.get("choices") and all(isinstance(c, str) for c in option["choices"])
]


def test_some_games_have_worded_choices() -> None:
    assert {slug for slug, _, _ in WORDED} >= {"dirt", "damn-you", "custom", "dirty-uno"}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de", "es"])
@pytest.mark.parametrize("slug", sorted({slug for slug, _, _ in WORDED}))
def test_the_rules_name_the_choices_as_the_form_does(slug: str, language: str) -> None:
    page = Client().get(f"/rules/{slug}/", headers={"accept-language": language})
    assert page.status_code == 200
    text = page_text(page.content.decode())
    with translation.override(language):
        for game, name, choices in WORDED:
            if game != slug:
                continue
            words = ", ".join(presenter_for(slug).option_choice(name, c) for c in choices)
            # The options list: "- **Label** (`name`): default …; choices a, b. Help…"
            line = text[text.rindex(f"({name})") :][:300]  # the list comes last
            assert f" {words}." in line, (slug, name, words, line)
