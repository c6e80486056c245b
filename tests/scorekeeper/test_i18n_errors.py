"""The engine's words on the Django side: the active language, normalised; rule errors
said with ``gettext``; the rules and their search per language."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import RuleError
from games.errors import Words, mention
from scorekeeper import engine_text, rules_index
from scorekeeper.api import errors as api_errors


@pytest.mark.parametrize(
    ("active", "expected"),
    [("en", "en"), ("de", "de"), ("de-at", "de"), ("es", "es"), ("fr", "en")],
)
def test_the_language_is_normalised(active: str, expected: str) -> None:
    with translation.override(active):
        assert engine_text.language() == expected


def test_the_api_says_rule_errors_with_gettext(monkeypatch: pytest.MonkeyPatch) -> None:
    error = RuleError(Words.of("%(player)s is seated twice", player=mention(3)), "players")
    response = api_errors.exception_handler(error, {})
    assert response is not None
    assert response.data == {"players": ["player 3 is seated twice"]}
    german = {"%(player)s is seated twice": "%(player)s hat zwei Plätze"}
    monkeypatch.setattr(engine_text, "gettext", lambda m: german.get(m, m))
    response = api_errors.exception_handler(error, {})
    assert response is not None
    assert response.data == {"players": ["player 3 hat zwei Plätze"]}


def test_the_rules_search_is_per_language() -> None:
    with translation.override("de"):
        german = rules_index.documents()
        assert engine_text.rules_for("dirt").name
    assert rules_index.documents("en") == rules_index.documents()
    # Every game is searchable in German (its German rules, or the English ones).
    assert {d["game"] for d in german} == {d["game"] for d in rules_index.documents("en")}
