"""Dirt (Dirt on Your Neighbor): a shedding game where the lowest total wins.

Each hand has a "dirt" rank that scores 25 points against whoever still holds it; the
variant fixes the sequence of dirt ranks and so the number of hands.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from games.base import (
    GameConfig,
    GameState,
    HandOutcome,
    Option,
    RuleError,
    Ruleset,
    Variant,
    next_hand_of,
    top_ranked,
)
from games.cards import FrenchCard, french_deck, french_rank, parse_french
from games.errors import Translate, Words
from games.i18n import gettext_noop, identity
from games.kit import TableKit, TurnedUp
from games.naming import Hint
from games.shedding import parse_left_in_hand, reported_left_in_hand
from games.table_sim import Skill, expand, left_in_hand

#: Dirt rank of each hand, by variant.
DIRT_RANKS: dict[str, tuple[str, ...]] = {
    "full": ("6", "5", "4", "3", "2", "3", "4", "5", "6", "7"),
    "three-quarter": ("6", "4", "2", "3", "4", "5", "6", "7"),
    "baby": ("6", "4", "2", "3", "5", "7"),
    "tiny-baby-down": ("6", "4", "2"),
    "tiny-baby-up": ("3", "5", "7"),
}

JOKER_POINTS = 50
DIRT_POINTS = 25
ACE_POINTS = 15
FACE_POINTS = 1


#: Cards in one deck: 52 and two jokers.
CARDS_PER_DECK = 54
#: Cards dealt to each player, and the one turned up to start the discard pile.
HAND_SIZE = 7
TURNED_UP = 1
#: The most decks the ``decks`` option offers.
MOST_DECKS = 8


#: The rules hint for the hand in play, by (the hand's number is known, the rank is 7).
HINTS: Mapping[tuple[bool, bool], str] = {
    (False, False): gettext_noop(
        "%(rank)ss are dirt. Laid in suit, a %(rank)s makes the next player draw %(rank)s "
        "per dirt card unless they answer with a %(rank)s; each %(rank)s left in a hand "
        "scores %(points)s."
    ),
    (False, True): gettext_noop(
        "%(rank)ss are dirt. Laid in suit, a %(rank)s skips the next player and the one "
        "after draws %(rank)s per dirt card unless they answer with a %(rank)s; each "
        "%(rank)s left in a hand scores %(points)s."
    ),
    (True, False): gettext_noop(
        "Hand %(number)s of %(hands)s: %(rank)ss are dirt. Laid in suit, a %(rank)s makes "
        "the next player draw %(rank)s per dirt card unless they answer with a %(rank)s; "
        "each %(rank)s left in a hand scores %(points)s."
    ),
    (True, True): gettext_noop(
        "Hand %(number)s of %(hands)s: %(rank)ss are dirt. Laid in suit, a %(rank)s skips "
        "the next player and the one after draws %(rank)s per dirt card unless they answer "
        "with a %(rank)s; each %(rank)s left in a hand scores %(points)s."
    ),
}
#: Too few decks for the players, by (one deck).
TOO_FEW_DECKS: Mapping[bool, str] = {
    True: gettext_noop(
        "%(players)s players need at least %(needed)s decks: seven cards each and one "
        "turned up take %(cards)s cards, and %(decks)s deck hold %(held)s"
    ),
    False: gettext_noop(
        "%(players)s players need at least %(needed)s decks: seven cards each and one "
        "turned up take %(cards)s cards, and %(decks)s decks hold %(held)s"
    ),
}
#: The decks a hand's cards are checked against, by (one deck).
DECK_NAMES: Mapping[bool, str] = {
    True: gettext_noop("%(decks)s deck with jokers"),
    False: gettext_noop("%(decks)s decks with jokers"),
}


def decks_needed(n_players: int) -> int:
    """The fewest decks that deal seven cards to each player and turn one up.

    >>> decks_needed(7), decks_needed(30), decks_needed(31)
    (1, 4, 5)
    """
    return -(-(HAND_SIZE * n_players + TURNED_UP) // CARDS_PER_DECK)


def default_decks(n_players: int) -> int:
    """Suggested decks: 2 for 3 players, 3 for 4–6, 4 for 7 or more (more when four
    cannot deal everyone seven cards)."""
    if n_players <= 3:
        return 2
    if n_players <= 6:
        return 3
    return max(4, decks_needed(n_players))


def card_points(card: FrenchCard, dirt_rank: str, *, ten_points: int = 1) -> int:
    """Points of a card left in hand; this hand's dirt rank overrides the rank's value."""
    if card.is_joker:
        return JOKER_POINTS
    if card.rank == dirt_rank:
        return DIRT_POINTS
    if card.rank == "A":
        return ACE_POINTS
    if card.rank in ("J", "Q", "K"):
        return FACE_POINTS
    if card.rank == "10":
        # Decision: the rules list "2-9" at face value and face cards at 1; 10 is read
        # as a face card unless the table chooses ten_points = 10.
        return ten_points
    return int(card.rank)


def _code(card: FrenchCard) -> str:
    return card.code


@lru_cache(maxsize=64)
def _points_of(dirt_rank: str, ten_points: int) -> Callable[[FrenchCard], int]:
    """:func:`card_points` for one dirt rank, remembering each card's points."""
    memo: dict[FrenchCard, int] = {}

    def points(card: FrenchCard) -> int:
        value = memo.get(card)
        if value is None:
            value = memo[card] = card_points(card, dirt_rank, ten_points=ten_points)
        return value

    return points


def _parse_card(code: object) -> FrenchCard:
    return parse_french(code, suit_optional=True)


@lru_cache(maxsize=64)
def _reader(dirt_rank: str, ten_points: int) -> Callable[[str], tuple[FrenchCard, int, str]]:
    """A text code's card, points and code for one dirt rank, each code read once: a
    hand's dozen cards are a few codes seen in every hand before."""
    points = _points_of(dirt_rank, ten_points)
    memo: dict[str, tuple[FrenchCard, int, str]] = {}

    def read(code: str) -> tuple[FrenchCard, int, str]:
        known = memo.get(code)
        if known is None:
            card = _parse_card(code)  # a bad code raises: nothing is kept
            known = (card, points(card), card.code)
            if len(memo) < 4096:
                memo[code] = known
        return known

    return read


class Dirt(Ruleset):
    slug = "dirt"
    name = "Dirt on Your Neighbor"
    short_description = gettext_noop(
        "Shedding game with a changing dirt rank each hand; cards left in hand score "
        "against you and the lowest total wins. Played solo or as Partner Dirt."
    )
    min_players = 3
    #: The original says "3+" and "for larger groups, add additional decks": as many
    #: players as the most decks the option offers can deal seven cards each (61).
    max_players = (MOST_DECKS * CARDS_PER_DECK - TURNED_UP) // HAND_SIZE
    variants = (
        Variant(
            "full", gettext_noop("Full Dirt"), 10, gettext_noop("Dirt ranks 6 5 4 3 2 3 4 5 6 7")
        ),
        Variant(
            "three-quarter", gettext_noop("3/4 Dirt"), 8, gettext_noop("Dirt ranks 6 4 2 3 4 5 6 7")
        ),
        Variant("baby", gettext_noop("Baby Dirt"), 6, gettext_noop("Dirt ranks 6 4 2 3 5 7")),
        Variant(
            "tiny-baby-down",
            gettext_noop("Tiny Baby Dirt (down)"),
            3,
            gettext_noop("Dirt ranks 6 4 2"),
        ),
        Variant(
            "tiny-baby-up", gettext_noop("Tiny Baby Dirt (up)"), 3, gettext_noop("Dirt ranks 3 5 7")
        ),
    )
    default_variant = "baby"
    options = (
        Option(
            "ten_points",
            gettext_noop("Points for a 10"),
            1,
            (1, 10),
            gettext_noop(
                "The rules list 2–9 at face value and face cards at 1 point; by default a "
                "10 counts as a face card (1 point). Choose 10 to score it at face value."
            ),
        ),
        Option(
            "decks",
            gettext_noop("Decks shuffled together"),
            None,
            tuple(range(1, MOST_DECKS + 1)),
            gettext_noop(
                "52-card decks with two jokers each. Default by players: 2 for 3 players, "
                "3 for 4–6, 4 for 7 or more (more past 30 players: enough to deal seven "
                "cards each). Entered cards are checked against them."
            ),
        ),
        # A reading the original leaves open: it changes play, not the score sheet.
        Option(
            "stuck_draw",
            gettext_noop("Nothing to lay"),
            "one",
            ("one", "until-playable"),
            gettext_noop(
                "The original does not say what a player with no card to lay does. one: "
                "draw one card and lay it if it fits, else the turn passes; until-playable: "
                "keep drawing until a card fits, then lay it."
            ),
        ),
    )
    supports_teams = True
    wins_with = "low"
    score_label = gettext_noop("points")
    #: A joker makes the next player draw five, a dirt card as many as its rank, an ace
    #: switches the direction; play begins on the dealer's left, and a first card
    #: turned up acts as if the dealer played it.
    table_kit = TableKit(
        penalty=True,
        reverses=gettext_noop("an ace"),
        first_after_dealer=1,
        turned_up=(
            TurnedUp(gettext_noop("an ace"), -1, gettext_noop("and play goes counter-clockwise")),
            TurnedUp(
                gettext_noop("a seven"),
                2,
                gettext_noop("(the player on the dealer's left is skipped)"),
            ),
        ),
    )
    #: Seven cards, jokers (50) and dirt cards (25) among them, rarely pass 250.
    plausible_ceiling = 250
    plausible_unit = "points"
    demo_weight = 30
    demo_tonight_hands = 3

    def __init__(self) -> None:
        # The deck of each number of decks, built once (it is never changed).
        self._decks: dict[int, tuple[Counter[str], Words]] = {}

    def default_options(self, n_players: int) -> dict[str, Any]:
        return {"ten_points": 1, "decks": default_decks(n_players), "stuck_draw": "one"}

    def dirt_ranks(self, variant: str | None) -> tuple[str, ...]:
        v = self.variant(variant)
        assert v is not None
        return DIRT_RANKS[v.slug]

    def card_points(self, options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        ten = int((options or {}).get("ten_points", 1))
        return [
            {"card": gettext_noop("Joker"), "points": JOKER_POINTS, "note": ""},
            {
                "card": gettext_noop("Dirt rank of the hand (any suit)"),
                "points": DIRT_POINTS,
                "note": gettext_noop("Overrides the rank's usual value, 7s included."),
            },
            {"card": gettext_noop("Ace"), "points": ACE_POINTS, "note": ""},
            {"card": "7", "points": 7, "note": gettext_noop("When 7 is not the dirt rank.")},
            {
                "card": "2–9",
                "points": gettext_noop("face value"),
                "note": gettext_noop("When not the dirt rank."),
            },
            {
                "card": "10",
                "points": ten,
                "note": gettext_noop("House-rule option ten_points: 1 (as a face card) or 10."),
            },
            {"card": "J, Q, K", "points": FACE_POINTS, "note": ""},
        ]

    def rules_hint(
        self,
        next_hand: Mapping[str, Any],
        names: Mapping[Any, str] | None,
        translate: Translate = identity,
    ) -> str:
        rank = str(next_hand["dirt_rank"])
        number = next_hand.get("number")
        left = next_hand.get("hands_left")
        counted = number is not None and left is not None
        hands = int(number) + int(left) - 1 if number is not None and left is not None else None
        return Hint(
            Words.of(
                HINTS[counted, rank == "7"],
                rank=rank,
                number=number,
                hands=hands,
                points=DIRT_POINTS,
            )
        ).say(translate)

    def reported_amounts(
        self, config: GameConfig, number: int, hand: Mapping[str, Any]
    ) -> dict[int, int]:
        ranks = DIRT_RANKS.get(config.variant or "baby", DIRT_RANKS["baby"])
        rank = ranks[min(number, len(ranks)) - 1]
        ten = int(config.options.get("ten_points", 1))
        return reported_left_in_hand(
            hand, lambda code: card_points(_parse_card(code), rank, ten_points=ten)
        )

    def random_hand(
        self, rng: random.Random, config: GameConfig, state: GameState, skill: Skill
    ) -> dict[str, Any]:
        assert state.next_hand is not None
        dirt = str(state.next_hand["dirt_rank"])
        ten = int(config.options.get("ten_points", 1))
        decks = int(state.extras.get("decks") or config.options.get("decks") or 2)
        return left_in_hand(
            rng,
            config.players,
            skill,
            expand(french_deck(decks, jokers_per_deck=2)),
            most=9,
            points_of=lambda code: card_points(parse_french(code), dirt, ten_points=ten),
        )

    def demo_setup(self, rng: random.Random, seats: Sequence[int]) -> dict[str, Any]:
        roll = rng.random()
        setup: dict[str, Any] = {
            "variant": rng.choices(
                ("baby", "full", "three-quarter", "tiny-baby-down", "tiny-baby-up"),
                weights=(50, 15, 15, 10, 10),
            )[0],
            "options": {"ten_points": 10} if roll < 0.2 else {},
        }
        if len(seats) in (4, 6) and rng.random() < 0.25:
            # Partner Dirt: partners sit across from each other.
            setup["teams"] = [list(seats[0::2]), list(seats[1::2])]
        return setup

    def check_config(self, config: GameConfig) -> None:
        if config.teams and len(config.teams[0]) < 1:
            raise RuleError(gettext_noop("teams cannot be empty"), "teams")
        n = len(config.players)
        decks = int(config.options.get("decks") or default_decks(n))
        if decks < decks_needed(n):
            raise RuleError(
                Words.of(
                    TOO_FEW_DECKS[decks == 1],
                    players=n,
                    needed=decks_needed(n),
                    cards=HAND_SIZE * n + TURNED_UP,
                    decks=decks,
                    held=decks * CARDS_PER_DECK,
                ),
                "options",
            )

    def _deck(self, config: GameConfig) -> tuple[int, Counter[str], Words]:
        decks = int(config.options.get("decks") or default_decks(len(config.players)))
        cached = self._decks.get(decks)
        if cached is None:
            deck_name = Words.of(DECK_NAMES[decks == 1], decks=decks)
            cached = self._decks[decks] = (french_deck(decks, jokers_per_deck=2), deck_name)
        return decks, *cached

    def start(self, config: GameConfig) -> dict[str, Any]:
        teams = config.teams
        return {
            "totals": [0] * len(config.players),
            "team_totals": [0] * len(teams) if teams else None,
        }

    def check_length(self, config: GameConfig, hands: int) -> None:
        ranks = self.dirt_ranks(config.variant)
        if hands > len(ranks):
            raise RuleError(
                Words.of(gettext_noop("this game is over after hand %(hand)s"), hand=len(ranks))
            )

    def check_open(self, config: GameConfig, carry: Mapping[str, Any], number: int) -> None:
        self.check_length(config, number)

    def fold(
        self, config: GameConfig, carry: Mapping[str, Any], number: int, raw: Mapping[str, Any]
    ) -> HandOutcome:
        dirt = self.dirt_ranks(config.variant)[number - 1]
        ten = int(config.options.get("ten_points", 1))
        _, deck, deck_name = self._deck(config)
        parsed = parse_left_in_hand(
            config,
            raw,
            # Suits score nothing: a rank alone ("4") is a card too.
            parse_card=_parse_card,
            card_code=_code,
            card_points=_points_of(dirt, ten),
            deck=deck,
            deck_name=deck_name,
            rank_of=french_rank,
            read_code=_reader(dirt, ten),
        )
        points = parsed.points
        totals = [t + points[p] for t, p in zip(carry["totals"], config.players, strict=True)]
        team_points: tuple[int, ...] | None = None
        team_totals = carry["team_totals"]
        if config.teams and team_totals is not None:
            winning_team = config.team_of(parsed.winner)
            # Partner Dirt: the team of the player who went out scores 0 that hand,
            # whatever its other members still hold.
            team_points = tuple(
                0 if t == winning_team else sum(points[p] for p in team)
                for t, team in enumerate(config.teams)
            )
            team_totals = [a + b for a, b in zip(team_totals, team_points, strict=True)]
        return HandOutcome(
            number=number,
            dealer=config.dealer_for(number),
            winner=parsed.winner,
            input=parsed.input,
            points=points,
            totals=dict(zip(config.players, totals, strict=True)),
            team_points=team_points,
            extras={"dirt_rank": dirt},
            carry={"totals": totals, "team_totals": team_totals},
        )

    def finish(
        self,
        config: GameConfig,
        carry: Mapping[str, Any],
        hands: tuple[HandOutcome, ...],
        *,
        closed: bool,
    ) -> GameState:
        ranks = self.dirt_ranks(config.variant)
        decks = self._deck(config)[0]
        totals = dict(zip(config.players, carry["totals"], strict=True))
        team_totals = carry["team_totals"]
        played = hands[-1].number if hands else 0
        finished = played == len(ranks) or closed
        standings = self.ranked_rows(
            config,
            totals,
            key=lambda p: totals[p],
            team_scores=team_totals,
            team_key=lambda t: team_totals[t] if team_totals else 0,
        )
        winners: tuple[int, ...] = ()
        if finished:
            winners = top_ranked(standings)
        next_hand = None
        if not finished:
            next_hand = next_hand_of(
                config, played, dirt_rank=ranks[played], hands_left=len(ranks) - played
            )
        return GameState(
            config=config,
            hands=hands,
            scores=totals,
            standings=standings,
            finished=finished,
            winners=winners,
            next_hand=next_hand,
            extras={"dirt_ranks": list(ranks), "decks": decks},
            ended_by=("closed" if closed and played < len(ranks) else "hands") if finished else "",
        )
