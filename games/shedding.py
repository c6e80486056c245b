"""Input shared by the games scored from the cards left in hand (Dirt, Dirty UNO).

A hand is reported as who went out plus, for every other player, either the cards left
in their hand or the points the table already counted::

    {"winner": 1, "results": [{"player": 2, "cards": ["JK", "4H"]},
                              {"player": 3, "points": 12}]}

In both games suits (or colours) score nothing, so a card may be given by its rank (or
value) alone, ``"4"`` or ``"7"``, when nobody noted its suit; it is stored that way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from games.base import CardError, GameConfig, RuleError, as_count, as_player_id
from games.cards import check_copies

C = TypeVar("C")

#: The most points one player can be given as a counted total in one hand.
MAX_HAND_POINTS = 100_000


@dataclass(frozen=True)
class LeftInHand(Generic[C]):
    """A normalised shedding hand: the winner, and per other player the points and,
    where given, the parsed cards."""

    winner: int
    points: dict[int, int]
    cards: dict[int, list[C]]
    input: dict[str, Any]


def parse_left_in_hand(
    config: GameConfig,
    raw: Mapping[str, Any],
    *,
    parse_card: Callable[[object], C],
    card_code: Callable[[C], str],
    card_points: Callable[[C], int],
    deck: Mapping[str, int],
    deck_name: str,
    rank_of: Callable[[str], str] | None = None,
) -> LeftInHand[C]:
    """Check a reported hand and count each player's points.

    Every player but the winner must appear once in ``results`` with ``cards`` or
    ``points`` (not both); the winner holds nothing. Across the hand, no card may appear
    more often than ``deck`` holds it; with ``rank_of``, cards given by rank alone are
    allowed and counted against their rank (see :func:`games.cards.check_copies`).
    """
    if not isinstance(raw, Mapping):
        raise RuleError("a hand must be an object with 'winner' and 'results'")
    if raw.get("winner") is None:
        raise RuleError("say who went out", "winner")
    winner = as_player_id(raw.get("winner"), config, "winner")
    results = raw.get("results")
    if not isinstance(results, list):
        raise RuleError("results must be a list with one entry per player", "results")
    points: dict[int, int] = {}
    cards: dict[int, list[C]] = {}
    normalised: dict[int, dict[str, Any]] = {}
    all_codes: list[str] = []
    for entry in results:
        if not isinstance(entry, Mapping):
            raise RuleError("each result must be an object with 'player'", "results")
        player = as_player_id(entry.get("player"), config, "results")
        if player in normalised or (player == winner and player in points):
            raise RuleError(f"player {player} is listed twice", "results")
        has_cards = entry.get("cards") is not None
        has_points = entry.get("points") is not None
        if has_cards and has_points:
            raise RuleError(f"player {player}: give either cards or points, not both", "results")
        if player == winner:
            holds_cards = has_cards and entry["cards"]
            scores = has_points and entry["points"] not in (0, "0")
            if holds_cards or scores:
                raise RuleError(
                    f"player {player} went out, so holds no cards and scores nothing",
                    "results",
                )
            points[player] = 0
            continue
        if has_cards:
            codes = entry["cards"]
            if isinstance(codes, str):
                codes = codes.replace(",", " ").split()
            if not isinstance(codes, list):
                raise RuleError(f"player {player}: cards must be a list of card codes", "results")
            try:
                parsed = [parse_card(code) for code in codes]
            except CardError as exc:
                raise CardError(f"player {player}: {exc.message}", "results") from None
            cards[player] = parsed
            points[player] = sum(map(card_points, parsed))
            entered = list(map(card_code, parsed))
            normalised[player] = {"player": player, "cards": entered}
            all_codes.extend(entered)
        elif has_points:
            points[player] = as_count(
                entry["points"], "results", f"player {player}: points", maximum=MAX_HAND_POINTS
            )
            normalised[player] = {"player": player, "points": points[player]}
        else:
            raise RuleError(
                f"player {player}: give the cards left in hand or the points", "results"
            )
    missing = [p for p in config.players if p != winner and p not in normalised]
    if missing:
        names = ", ".join(str(p) for p in missing)
        raise RuleError(f"results are missing for player {names}", "results")
    check_copies(all_codes, deck, field="results", deck_name=deck_name, rank_of=rank_of)
    points[winner] = 0
    ordered = [normalised[p] for p in config.players if p in normalised]
    return LeftInHand(
        winner=winner,
        points={p: points[p] for p in config.players},
        cards=cards,
        input={"winner": winner, "results": ordered},
    )
