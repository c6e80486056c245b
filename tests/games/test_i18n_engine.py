"""The engine's words in other languages: English unchanged, templates translated whole."""

from __future__ import annotations

import pytest

from games import RuleError
from games.errors import Problem, Words, mention
from games.registry import get_ruleset

GERMAN = {
    "%(player)s is seated twice": "%(player)s sitzt doppelt",
    "player %(id)s": "Spieler %(id)s",
    "%(game)s is for exactly %(count)s players, not %(n)s": (
        "%(game)s ist für genau %(count)s Spieler, nicht %(n)s"
    ),
    "a game needs players": "eine Partie braucht Spieler",
}


def german(message: str) -> str:
    return GERMAN.get(message, message)


def test_english_stays_as_it_was() -> None:
    error = RuleError(Words.of("%(player)s is seated twice", player=mention(3)), "players")
    assert error.message == str(error) == "player 3 is seated twice"
    assert error.players == (3,)
    assert error.text({3: "Bob"}) == "Bob is seated twice"
    assert error.text({}) == "Player 3 is seated twice"
    assert error.say({3: "Bob"}) == "Bob is seated twice"
    assert error.as_dict() == {"players": ["player 3 is seated twice"]}


def test_a_translation_reorders_the_params() -> None:
    words = Words.of("%(winner)s beat %(loser)s", winner=mention(1), loser=mention(2))
    assert str(words) == "player 1 beat player 2"
    assert words.players == (1, 2)
    reordered = {"%(winner)s beat %(loser)s": "%(loser)s lost to %(winner)s"}
    said = words.say({1: "ann", 2: "Bob"}, lambda m: reordered.get(m, m))
    assert said == "Bob lost to ann"


def test_players_without_names_are_said_in_the_language() -> None:
    error = RuleError(Words.of("%(player)s is seated twice", player=mention(3)), "players")
    assert error.say({}, german) == "Spieler 3 sitzt doppelt"
    assert error.say({3: "Bob"}, german) == "Bob sitzt doppelt"
    assert error.as_dict(german) == {"players": ["Spieler 3 sitzt doppelt"]}


def test_plain_text_is_translated_without_formatting() -> None:
    assert RuleError("a game needs players").say({}, german) == "Eine Partie braucht Spieler"
    assert RuleError("100% sure").say({}, german) == "100% sure"
    assert Problem(Words.of("")).say({}, lambda m: "HEADER") == ""


def test_the_engine_raises_marked_templates() -> None:
    rules = get_ruleset("dirt")
    with pytest.raises(RuleError) as caught:
        rules.configure(players=[1, 2, 1])
    assert caught.value.message == "player 1 is seated twice"
    assert caught.value.say({}, german) == "Spieler 1 sitzt doppelt"
    with pytest.raises(RuleError) as caught:
        rules.configure(players=[])
    assert caught.value.say({}, german) == "Eine Partie braucht Spieler"
