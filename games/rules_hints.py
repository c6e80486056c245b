"""The one-line rules hint for the hand in play, shown on the score sheet: what this
hand's dirt is, who deals, what ends it, in the players' names."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.dirt import DIRT_POINTS
from games.registry import get_ruleset
from games.rules import SUIT_SYMBOL, bowers, card_label
from games.screw_your_neighbour import RED_ACES_MARGIN

# -- the hint for the hand in play --------------------------------------------------------


def _name(player: object, names: Mapping[Any, str] | None) -> str:
    if names:
        for key in (player, str(player)):
            if key in names:
                return names[key]
    return f"Player {player}"


def _join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _dirt_hint(next_hand: Mapping[str, Any], names: Mapping[Any, str] | None) -> str:
    rank = str(next_hand["dirt_rank"])
    number = next_hand.get("number")
    left = next_hand.get("hands_left")
    prefix = ""
    if number is not None and left is not None:
        prefix = f"Hand {number} of {int(number) + int(left) - 1}: "
    effect = (
        f"a {rank} skips the next player and the one after draws {rank}"
        if rank == "7"
        else f"a {rank} makes the next player draw {rank}"
    )
    return (
        f"{prefix}{rank}s are dirt. Laid in suit, {effect} per dirt card unless they "
        f"answer with a {rank}; each {rank} left in a hand scores {DIRT_POINTS}."
    )


def _damn_you_hint(next_hand: Mapping[str, Any], names: Mapping[Any, str] | None) -> str:
    short = [_name(p, names) for p in next_hand.get("short", [])]
    dealer = next_hand.get("dealer")
    parts = []
    if dealer is not None:
        parts.append(f"{_name(dealer, names)} deals.")
    parts.append("Whoever holds the 7♦ opens.")
    if short:
        verb = "antes" if len(short) == 1 else "ante"
        parts.append(f"{_join(short)} {verb} an extra chip (one card short).")
    else:
        parts.append("The cards come out even: no extra ante.")
    return " ".join(parts)


def _dirty_uno_hint(next_hand: Mapping[str, Any], names: Mapping[Any, str] | None) -> str:
    return (
        "Settle the last card before counting: after a +2 or Wild +4 the next player "
        "draws, after an identical card the previous player draws, after a 0 no hands "
        "pass."
    )


def _dirty_deals_hint(next_hand: Mapping[str, Any], names: Mapping[Any, str] | None) -> str:
    pairs = next_hand.get("bowers") or dict(bowers())
    order = [s for s in ("H", "D", "C", "S") if s in pairs]
    listed = " · ".join(f"{SUIT_SYMBOL[s]} {card_label(pairs[s])}" for s in order)
    return f"Bowers: {listed}."


def _syn_hint(next_hand: Mapping[str, Any], names: Mapping[Any, str] | None) -> str:
    dealer = next_hand.get("dealer")
    who = _name(dealer, names) if dealer is not None else "the dealer"
    return (
        f"{who} deals 8 each. Red aces are live for {who} alone if the grabbed portion "
        f"ends within {RED_ACES_MARGIN} cards of exact."
    )


_HINTS: dict[str, Callable[[Mapping[str, Any], Mapping[Any, str] | None], str]] = {
    "dirt": _dirt_hint,
    "damn-you": _damn_you_hint,
    "dirty-uno": _dirty_uno_hint,
    "dirty-deals": _dirty_deals_hint,
    "screw-your-neighbour": _syn_hint,
}


def context_hint(
    slug: str, next_hand: Mapping[str, Any] | None, names: Mapping[Any, str] | None = None
) -> str:
    """One line of rules that matters for the hand about to be played (``next_hand`` as
    :meth:`Ruleset.play` returns it), with player ids replaced by ``names``. Empty when
    the game is over.

        >>> context_hint("damn-you", {"number": 1, "dealer": 1, "short": [4, 1]},
        ...              {1: "Ana", 4: "Dee"})
        'Ana deals. Whoever holds the 7♦ opens. Dee and Ana ante an extra chip (one card short).'
    """
    get_ruleset(slug)
    if not next_hand:
        return ""
    hint = _HINTS.get(slug)
    return hint(next_hand, names) if hint else ""
