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

from games.base import CardError, GameConfig, RuleError, as_count, as_player_id, whole_number
from games.cards import check_copies
from games.errors import Words, mention
from games.i18n import gettext_noop
from games.problems import Problems

LISTED_TWICE = gettext_noop("%(player)s is listed twice")
NOTHING_ENTERED = gettext_noop(
    "%(player)s: nothing entered: give the cards left in hand or the points counted"
)

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
    deck_name: str | Words,
    rank_of: Callable[[str], str] | None = None,
    read_code: Callable[[str], tuple[C, int, str]] | None = None,
) -> LeftInHand[C]:
    """Check a reported hand and count each player's points.

    Every player but the winner must appear once in ``results`` with ``cards`` or
    ``points`` (not both); the winner holds nothing. Across the hand, no card may appear
    more often than ``deck`` holds it; with ``rank_of``, cards given by rank alone are
    allowed and counted against their rank (see :func:`games.cards.check_copies`).
    ``read_code``, when given, is ``parse_card``, ``card_points`` and ``card_code`` of a
    text code in one call (a ruleset remembers it per code: a hand repeats a few cards).
    """
    if not isinstance(raw, Mapping):
        raise RuleError(gettext_noop("a hand must be an object with 'winner' and 'results'"))
    found = Problems()
    winner: int | None = None
    if raw.get("winner") is None:
        found.add(RuleError(gettext_noop("say who went out"), "winner"))
    else:
        try:
            winner = as_player_id(raw.get("winner"), config.players, "winner")
        except RuleError as error:
            found.add(error)
    results = raw.get("results")
    if not isinstance(results, list):
        found.add(
            RuleError(
                gettext_noop("the results must be a list with one entry per player"), "results"
            )
        )
        results = None
    points: dict[int, int] = {}
    cards: dict[int, list[C]] = {}
    normalised: dict[int, dict[str, Any]] = {}
    seen: set[int] = set()
    all_codes: list[str] = []
    # Lines that cannot be read say nothing of who is missing: only the lines are named.
    unreadable = results is None
    for entry in results or []:
        if not isinstance(entry, Mapping):
            found.add(
                RuleError(
                    gettext_noop("each result must be an object naming its player"), "results"
                )
            )
            unreadable = True
            continue
        try:
            player = as_player_id(entry.get("player"), config.players, "results")
        except RuleError as error:
            found.add(error)
            unreadable = True
            continue
        if player in seen:
            found.add(RuleError(Words.of(LISTED_TWICE, player=mention(player)), "results", player))
            continue
        seen.add(player)
        # found.check(player), inline: a hand has a line per player.
        try:
            _read_result(
                entry,
                player,
                winner,
                points=points,
                cards=cards,
                normalised=normalised,
                all_codes=all_codes,
                parse_card=parse_card,
                card_code=card_code,
                card_points=card_points,
                read_code=read_code,
            )
        except RuleError as error:
            found.add(error, player)
    if winner is not None and not unreadable:
        for p in config.players:
            if p != winner and p not in seen:
                found.add(
                    RuleError(
                        Words.of(NOTHING_ENTERED, player=mention(p)),
                        "results",
                        p,
                    )
                )
    try:
        check_copies(all_codes, deck, field="results", deck_name=deck_name, rank_of=rank_of)
    except RuleError as error:
        found.add(error)
    found.raise_if_any()
    assert winner is not None
    points[winner] = 0
    ordered = [normalised[p] for p in config.players if p in normalised]
    return LeftInHand(
        winner=winner,
        points={p: points[p] for p in config.players},
        cards=cards,
        input={"winner": winner, "results": ordered},
    )


def _read_result(
    entry: Mapping[str, Any],
    player: int,
    winner: int | None,
    *,
    points: dict[int, int],
    cards: dict[int, list[C]],
    normalised: dict[int, dict[str, Any]],
    all_codes: list[str],
    parse_card: Callable[[object], C],
    card_code: Callable[[C], str],
    card_points: Callable[[C], int],
    read_code: Callable[[str], tuple[C, int, str]] | None = None,
) -> None:
    """Check one player's line of the results; a :class:`RuleError` names the first
    problem of that line."""
    has_cards = entry.get("cards") is not None
    has_points = entry.get("points") is not None
    if has_cards and has_points:
        raise RuleError(
            Words.of(
                gettext_noop("%(player)s: give either the cards or the points, not both"),
                player=mention(player),
            ),
            "results",
            player,
        )
    if player == winner:
        holds_cards = has_cards and entry["cards"]
        scores = has_points and entry["points"] not in (0, "0")
        if holds_cards or scores:
            raise RuleError(
                Words.of(
                    gettext_noop("%(player)s went out, so holds no cards and scores nothing"),
                    player=mention(player),
                ),
                "results",
                player,
            )
        return
    if has_cards:
        codes = entry["cards"]
        if isinstance(codes, str):
            codes = codes.replace(",", " ").split()
        if not isinstance(codes, list):
            raise RuleError(
                Words.of(
                    gettext_noop("%(player)s: the cards must be a list of card codes"),
                    player=mention(player),
                ),
                "results",
                player,
            )
        parsed: list[C] = []
        bad: list[str] = []
        if read_code is not None:
            score = 0
            entered = []
            for code in codes:
                try:
                    if type(code) is str:
                        card, value, text = read_code(code)
                    else:
                        card = parse_card(code)
                        value, text = card_points(card), card_code(card)
                except CardError as exc:
                    bad.append(exc.message)
                    continue
                parsed.append(card)
                score += value
                entered.append(text)
            if bad:
                raise CardError(mention(player) + ": " + "; ".join(bad), "results", player)
        else:
            for code in codes:
                try:
                    parsed.append(parse_card(code))
                except CardError as exc:
                    bad.append(exc.message)
            if bad:
                raise CardError(mention(player) + ": " + "; ".join(bad), "results", player)
            score = sum(map(card_points, parsed))
            entered = list(map(card_code, parsed))
        cards[player] = parsed
        points[player] = score
        normalised[player] = {"player": player, "cards": entered}
        all_codes.extend(entered)
    elif has_points:
        points[player] = as_count(
            entry["points"],
            "results",
            gettext_noop("the points"),
            maximum=MAX_HAND_POINTS,
            player=player,
        )
        normalised[player] = {"player": player, "points": points[player]}
    else:
        raise RuleError(
            Words.of(NOTHING_ENTERED, player=mention(player)),
            "results",
            player,
        )


def reported_left_in_hand(
    hand: Mapping[str, Any], points_of: Callable[[str], int]
) -> dict[int, int]:
    """Each player's points left in hand in a stored (checked) hand: the counted points,
    or the cards' ``points_of`` summed; none for whoever went out (the amounts
    :mod:`games.plausible` compares)."""
    winner = hand.get("winner")
    amounts: dict[int, int] = {}
    for row in hand.get("results") or []:
        player = int(row["player"])
        if player == winner:
            continue
        if row.get("points") is not None:
            points = whole_number(row["points"])
            if points is not None:
                amounts[player] = points
        elif row.get("cards") is not None:
            amounts[player] = sum(points_of(code) for code in row["cards"])
    return amounts
