"""Dirty UNO: UNO with hand-passing zeros, hand-trading sevens and identical-card
penalties, played until someone passes 500.

Two scoring methods (option ``scoring``): ``standard`` (the player who went out scores
everyone else's cards, highest wins) and ``penalty`` (everyone scores their own cards,
lowest wins). In both, a score of exactly 500 drops back to 0.

    >>> game = DirtyUno()
    >>> config = game.configure(players=[1, 2, 3])
    >>> state = game.play(config, [{"winner": 1, "results": [
    ...     {"player": 2, "cards": ["R5", "G7"]}, {"player": 3, "cards": ["W+4"]}]}])
    >>> dict(state.scores)
    {1: 105, 2: 0, 3: 0}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import (
    GameConfig,
    GameState,
    HandOutcome,
    Option,
    RuleError,
    Ruleset,
    next_hand_of,
    top_ranked,
)
from games.cards import UnoCard, parse_uno, uno_deck, uno_value
from games.errors import Translate, Words
from games.i18n import gettext_noop, identity
from games.kit import TableKit
from games.naming import Hint
from games.shedding import parse_left_in_hand, reported_left_in_hand
from games.table_sim import Skill, expand, left_in_hand

#: A score above this ends the game.
TARGET = 500
#: A score landing exactly here goes back to 0.
RESET_AT = 500
ZERO_SEVEN_POINTS = 50
WILD_POINTS = 50
ACTION_POINTS = 20

SCORING_WINS_WITH: Mapping[str, str] = {"standard": "high", "penalty": "low"}

REMINDER = gettext_noop(
    "Before counting, settle the last card: after a Draw Two or Wild Draw Four the next "
    "player draws those cards, after an identical-card finish the previous player takes "
    "its penalty, and after a 0 no hands are passed."
)


def card_points(card: UnoCard) -> int:
    """Points of an UNO card left in hand: 1–6, 8 and 9 at face value; 0, 7 and both
    wilds 50; Draw Two, Reverse and Skip 20.

        >>> [card_points(parse_uno(c)) for c in ("B8", "G7", "R0", "W+4", "YS")]
        [8, 50, 50, 50, 20]

    A card whose colour was not given scores the same:

        >>> [card_points(parse_uno(c, colour_optional=True)) for c in ("8", "7", "S", "W")]
        [8, 50, 20, 50]
    """
    if card.is_wild:
        return WILD_POINTS
    if card.value in ("0", "7"):
        return ZERO_SEVEN_POINTS
    if card.value.isascii() and card.value.isdigit():
        return int(card.value)
    return ACTION_POINTS


_DECK = uno_deck()


def _parse_card(code: object) -> UnoCard:
    return parse_uno(code, colour_optional=True)


def _code(card: UnoCard) -> str:
    return card.code


#: Every card of the deck, for a simulated table's hands.
_ALL_CARDS = expand(uno_deck())


class DirtyUno(Ruleset):
    slug = "dirty-uno"
    name = "Dirty UNO"
    short_description = gettext_noop(
        "UNO where zeros pass every hand on, sevens trade hands and matching the card "
        "just played punishes its player. First past 500 ends the game; exactly 500 "
        "drops you back to 0."
    )
    min_players = 2
    max_players = 10
    options = (
        Option(
            "scoring",
            gettext_noop("Scoring method"),
            "standard",
            ("standard", "penalty"),
            gettext_noop(
                "standard: the player who goes out scores the cards left in everyone else's "
                "hand, and the highest score wins. penalty: everyone scores the cards left in "
                "their own hand, and the lowest score wins."
            ),
        ),
        # A reading of the original (the first card counts as the dealer's play, with
        # no exception named): it changes the play, not the score sheet.
        Option(
            "first_wild_draw_four",
            gettext_noop("First card a Wild Draw Four"),
            "counts",
            ("counts", "reshuffle"),
            gettext_noop(
                "counts: the dealer names the colour and the first player draws four and "
                "misses their turn. reshuffle: as in standard UNO, it goes back into the pile "
                "and another card is turned."
            ),
        ),
    )
    # The default (standard) scoring; penalty scoring is won low: see wins_with_for.
    wins_with = "high"
    score_label = gettext_noop("points")
    #: A Reverse reverses, a 0 passes hands "in the current direction".
    table_kit = TableKit(
        reverses=gettext_noop("a Reverse"),
        follows_direction=gettext_noop(
            "A 0 passes every hand to the next player this way. A Reverse turned up "
            "first: play starts counter-clockwise, on the dealer's right."
        ),
    )
    #: A long hand after draws (wilds, 0s and 7s at 50) can be big, but not more than
    #: the 500 a whole game is played to.
    plausible_ceiling = 500
    plausible_unit = gettext_noop("points")
    demo_weight = 20
    demo_tonight_hands = 1

    def rules_hint(
        self,
        next_hand: Mapping[str, Any],
        names: Mapping[Any, str] | None,
        translate: Translate = identity,
    ) -> str:
        return Hint(
            gettext_noop(
                "Settle the last card before counting: after a +2 or Wild +4 the next player "
                "draws, after an identical card the previous player draws, after a 0 no hands "
                "pass."
            )
        ).say(translate)

    def reported_amounts(
        self, config: GameConfig, number: int, hand: Mapping[str, Any]
    ) -> dict[int, int]:
        return reported_left_in_hand(
            hand, lambda code: card_points(parse_uno(code, colour_optional=True))
        )

    def random_hand(
        self, rng: random.Random, config: GameConfig, state: GameState, skill: Skill
    ) -> dict[str, Any]:
        # With ten players a 108-card deck still leaves plenty: at most 9 x 8 cards held.
        return left_in_hand(
            rng,
            config.players,
            skill,
            _ALL_CARDS,
            most=8,
            points_of=lambda code: card_points(parse_uno(code)),
        )

    def demo_setup(self, rng: random.Random, seats: Sequence[int]) -> dict[str, Any]:
        return {"options": {"scoring": "penalty" if rng.random() < 0.25 else "standard"}}

    def wins_with_for(self, options: Mapping[str, Any] | None = None) -> str:
        """Whether the highest ("high") or lowest ("low") score wins with this ``scoring``."""
        scoring = str((options or {}).get("scoring") or "standard")
        return SCORING_WINS_WITH.get(scoring, self.wins_with)

    def metadata(self) -> dict[str, Any]:
        data = super().metadata()
        data["wins_with_by_option"] = {"scoring": dict(SCORING_WINS_WITH)}
        return data

    def card_points(self, options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        return [
            {"card": "1, 2, 3, 4, 5, 6, 8, 9", "points": gettext_noop("face value"), "note": ""},
            {
                "card": gettext_noop("0 and 7"),
                "points": ZERO_SEVEN_POINTS,
                "note": gettext_noop("The hand-passing and hand-trading cards score like wilds."),
            },
            {"card": gettext_noop("Wild, Wild Draw Four"), "points": WILD_POINTS, "note": ""},
            {"card": gettext_noop("Draw Two, Reverse, Skip"), "points": ACTION_POINTS, "note": ""},
        ]

    def start(self, config: GameConfig) -> dict[str, Any]:
        return {"scores": [0] * len(config.players), "over_after": None}

    def check_open(self, config: GameConfig, carry: Mapping[str, Any], number: int) -> None:
        if carry["over_after"] is not None:
            raise RuleError(
                Words.of(
                    gettext_noop("the game is over: a score passed %(target)s in hand %(hand)s"),
                    target=TARGET,
                    hand=carry["over_after"],
                )
            )

    def fold(
        self, config: GameConfig, carry: Mapping[str, Any], number: int, raw: Mapping[str, Any]
    ) -> HandOutcome:
        parsed = parse_left_in_hand(
            config,
            raw,
            # Colours score nothing: a value alone ("7", "S") is a card too.
            parse_card=_parse_card,
            card_code=_code,
            card_points=card_points,
            deck=_DECK,
            deck_name=gettext_noop("the 108-card UNO deck"),
            rank_of=uno_value,
        )
        if config.options.get("scoring", "standard") == "penalty":
            points = dict(parsed.points)
        else:
            won = sum(parsed.points.values())
            points = {p: won if p == parsed.winner else 0 for p in config.players}
        resets: list[int] = []
        scores = list(carry["scores"])
        for seat, p in enumerate(config.players):
            scores[seat] += points[p]
            if scores[seat] == RESET_AT:
                scores[seat] = 0
                resets.append(p)
        over = any(s > TARGET for s in scores)
        return HandOutcome(
            number=number,
            dealer=config.dealer_for(number),
            winner=parsed.winner,
            input=parsed.input,
            points=points,
            totals=dict(zip(config.players, scores, strict=True)),
            extras={"resets": resets},
            carry={"scores": scores, "over_after": number if over else None},
        )

    def finish(
        self,
        config: GameConfig,
        carry: Mapping[str, Any],
        hands: tuple[HandOutcome, ...],
        *,
        closed: bool,
    ) -> GameState:
        scoring = str(config.options.get("scoring", "standard"))
        penalty = scoring == "penalty"
        scores = dict(zip(config.players, carry["scores"], strict=True))
        over_after = carry["over_after"]
        played = hands[-1].number if hands else 0
        finished = over_after is not None or closed
        if penalty:
            standings = self.ranked_rows(config, scores, key=lambda p: scores[p])
        else:
            # Standard: whoever passed 500 wins and heads the table, then score descending.
            leader = max(config.players, key=lambda p: scores[p])
            ahead = {leader} if over_after is not None else set()
            standings = self.ranked_rows(config, scores, key=lambda p: (p not in ahead, -scores[p]))
        winners: tuple[int, ...] = ()
        if finished:
            winners = top_ranked(standings)
        next_hand = None
        if not finished:
            next_hand = next_hand_of(config, played, reminder=REMINDER)
        return GameState(
            config=config,
            hands=hands,
            scores=scores,
            standings=standings,
            finished=finished,
            winners=winners,
            next_hand=next_hand,
            extras={
                "scoring": scoring,
                "wins_with": self.wins_with_for(config.options),
                "target": TARGET,
            },
            ended_by=("score" if over_after is not None else "closed") if finished else "",
        )
