"""Keeps league statistics (standings, ratings) in step with the games they come from.

Called by the game services inside their transaction whenever a game's result may have
changed."""

from __future__ import annotations

from scorekeeper.models import Game


def game_changed(game: Game, *, was_finished: bool, is_finished: bool) -> None:
    """A game's hands changed; refresh what its league derives from finished games."""


def game_deleted(*, game_id: int | None, league_id: int | None, was_finished: bool) -> None:
    """A game was deleted; refresh what its league derived from it."""
