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


def test_rules_fall_back_to_english_without_a_translation(tmp_path, monkeypatch) -> None:
    from games import rules

    monkeypatch.setattr(rules, "RULES_DIR", tmp_path)
    english = (rules.Path(rules.__file__).with_name("rules") / "dirt.md").read_text("utf-8")
    (tmp_path / "dirt.md").write_text(english, encoding="utf-8")
    rules.clear_cache()
    try:
        assert rules.rules_path("dirt", "de") == tmp_path / "dirt.md"
        assert rules.rules_for("dirt", language="de").sections == rules.build_rules("dirt").sections
        title = next(line for line in english.splitlines() if line.startswith("## "))
        german = english.replace(title, "## Grundlagen {#" + title.split("{#")[1], 1)
        (tmp_path / "dirt.de.md").write_text(german, encoding="utf-8")
        rules.clear_cache()
        assert rules.rules_for("dirt", language="de").sections[0].title == "Grundlagen"
        assert rules.rules_for("dirt", language="es").sections[0].title != "Grundlagen"
    finally:
        rules.clear_cache()


def test_generated_rules_text_is_translated() -> None:
    from games import rules

    words = {"| Card | Points | Note |": "| Karte | Punkte | Hinweis |"}
    said = rules.card_points_table(get_ruleset("dirt"), None, lambda m: words.get(m, m))
    assert said.startswith("| Karte | Punkte | Hinweis |")
    assert rules.card_points_table(get_ruleset("dirt")).startswith("| Card | Points | Note |")
