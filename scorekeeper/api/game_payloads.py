"""The JSON of a game over the API: its summary, seats, standings, hands and their
history, built from the engine's state and the stored rows (the serializers in
:mod:`scorekeeper.api.game_serializers` only document these shapes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import RULESETS, GameState, StandingRow
from scorekeeper.models import Game, HandRevision
from scorekeeper.services.games import (
    hand_response,
)


def _seats(game: Game) -> list[Any]:
    return sorted(game.seats.all(), key=lambda s: s.position)


def standing_payload(row: StandingRow, names: Mapping[int, str]) -> dict[str, Any]:
    """A standings row as the engine gives it, plus the names to show."""
    data = row.as_dict()
    if row.team is not None:
        data["names"] = [names.get(p, "") for p in row.players]
    else:
        data["name"] = names.get(row.player, "") if row.player is not None else ""
    return data


def game_summary_payload(game: Game, state: GameState) -> dict[str, Any]:
    """A game without its hands (lists of games). ``game`` needs its seats (with
    players) prefetched, as :func:`~scorekeeper.selectors.games.game_with_related` does."""
    seats = _seats(game)
    names = {s.player_id: s.player.name for s in seats}
    config = state.config
    data: dict[str, Any] = {
        "id": game.pk,
        "ruleset": game.ruleset,
        "ruleset_name": RULESETS[game.ruleset].name,
        "variant": config.variant,
        "options": dict(config.options),
        "players": [
            {"id": s.player_id, "name": s.player.name, "seat": s.position, "team": s.team}
            for s in seats
        ],
        "teams": [list(t) for t in config.teams] if config.teams else None,
        "first_dealer": config.first_dealer,
        "status": state.status,
        "ended_by": state.ended_by,
        "closed": game.closed,
        "standings": [standing_payload(row, names) for row in state.standings],
        "winners": list(state.winners),
        "next_hand": dict(state.next_hand) if state.next_hand is not None else None,
        "hand_count": len(state.hands),
        "league": game.league_id,
        "owner": game.owner_id,
        "created_at": game.created_at,
        "finished_at": game.finished_at,
        "version": game.version,
    }
    # Game-level facts of the ruleset (damn-you "pot", dirty-deals "rubber"…) sit beside
    # the common fields, which they never replace.
    for key, value in state.extras.items():
        data.setdefault(key, value)
    return data


def game_payload(game: Game, state: GameState, *, can_change: bool) -> dict[str, Any]:
    """The API's game object: the summary plus every hand."""
    data = game_summary_payload(game, state)
    revisions = {h.number: h.revision for h in game.hands.all()}
    data["hands"] = [hand_response(o, revision=revisions.get(o.number, 1)) for o in state.hands]
    data["can_change"] = can_change
    return data


def revision_payload(row: HandRevision) -> dict[str, Any]:
    return {
        "revision": row.revision,
        "action": row.action,
        "input": row.input,
        "user": row.user_id,
        "username": row.user.get_username() if row.user is not None else None,
        "guest": row.guest.name if row.guest is not None else None,
        "at": row.created_at,
    }
