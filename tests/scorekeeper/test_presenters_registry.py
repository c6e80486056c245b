"""Every game of the engine has its presenter, found without being named anywhere."""

from __future__ import annotations

from games import RULESETS
from scorekeeper.presenters import presenter_for


def test_every_game_has_its_presenter() -> None:
    assert {slug: presenter_for(slug).slug for slug in RULESETS} == {s: s for s in RULESETS}


def test_the_shared_tools_follow_each_games_kit() -> None:
    """A sheet shares its tools' state with every phone exactly when the game's kit has
    a tool (today: the five card games; any other game has none)."""
    shared = {slug: presenter_for(slug).shares_table_tools for slug, _ in RULESETS.items()}
    assert shared == {slug: bool(r.table_kit.tools()) for slug, r in RULESETS.items()}
    assert [slug for slug, shares in shared.items() if not shares] == ["custom"]
