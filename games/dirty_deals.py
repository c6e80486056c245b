"""Dirty Deals: a four-player trick game of deals and betrayals with a 24-card deck.

A hand ends when the player on lead shows all six cards of one suit. The claim is
worth 9 points, less 3 if the suit's bower (the jack of the same colour) is among the
claimant's surplus cards and 1 for every other surplus card; another player holding
that bower gets 3. Rubbers go to 9 points (a tie at the top plays on); the first to
win two rubbers wins the match.

    >>> game = DirtyDeals()
    >>> config = game.configure(players=[1, 2, 3, 4])
    >>> state = game.play(config, [
    ...     {"winner": 1, "suit": "spades", "surplus": ["10H"], "bower_holder": 3}])
    >>> dict(state.scores)
    {1: 8, 2: 0, 3: 3, 4: 0}
    >>> BOWER["H"]
    'JD'
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.base import (
    CardError,
    GameConfig,
    GameState,
    HandOutcome,
    Option,
    RuleError,
    Ruleset,
    as_count,
    as_player_id,
    next_hand_of,
    top_ranked,
)
from games.cards import SUIT_NAMES, SUITS, check_copies, french_deck, parse_french
from games.errors import Translate, Words, mention
from games.i18n import gettext_noop, identity
from games.kit import TableKit
from games.problems import Problems
from games.table_sim import Skill, expand, pick_winner

RANKS_IN_PLAY: tuple[str, ...] = ("9", "10", "J", "Q", "K", "A")
#: The 24-card deck: 9 to ace in each suit, no jokers.
DECK = french_deck(1, jokers_per_deck=0, ranks=RANKS_IN_PLAY)
DECK_NAME = gettext_noop("the 24-card deck (9 to ace)")
#: The bower of each suit: the jack of the same colour in the other suit.
BOWER: Mapping[str, str] = {"H": "JD", "D": "JH", "C": "JS", "S": "JC"}

#: The suits' names in messages (marked, so a page says them in its language).
SUIT_WORDS: Mapping[str, str] = {
    "S": gettext_noop("spades"),
    "H": gettext_noop("hearts"),
    "D": gettext_noop("diamonds"),
    "C": gettext_noop("clubs"),
}
assert SUIT_WORDS == SUIT_NAMES

#: How the rules hint shows a suit.
SUIT_SYMBOL: Mapping[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: Every card of the deck, for a simulated table's hands.
_ALL_CARDS = expand(DECK)

CLAIM_POINTS = 9
BOWER_SURPLUS_COST = 3
SURPLUS_COST = 1
BOWER_BONUS = 3
#: Points that can win a rubber (when nobody else shares the top score).
RUBBER_TARGET = 9
RUBBERS_TO_WIN = 2
#: 24 cards less the six of the claimed suit.
MAX_SURPLUS = len(DECK) - len(RANKS_IN_PLAY)

_SUIT_SPELLINGS: Mapping[str, str] = {
    **{s: s for s in SUITS},
    **{name.upper(): s for s, name in SUIT_NAMES.items()},
    **{name.upper().rstrip("S"): s for s, name in SUIT_NAMES.items()},
    "♠": "S",
    "♤": "S",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
    "♣": "C",
    "♧": "C",
}
#: What ``bower_in_surplus`` says, in a refusal.
BOWER_AMONG_SURPLUS = gettext_noop("the bower among the surplus")
_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off", ""}


def parse_suit(value: object) -> str:
    """A suit letter (``S H D C``) from a letter, a symbol or a name, in any case."""
    if isinstance(value, str):
        suit = _SUIT_SPELLINGS.get("".join(value.split()).upper())
        if suit is not None:
            return suit
    raise RuleError(
        Words.of(
            gettext_noop(
                "%(typed)s is not a suit: give S, H, D or C (or ♠ ♥ ♦ ♣, or spades, hearts…)"
            ),
            typed=repr(value),
        ),
        "suit",
    )


def claim_points(surplus: int, bower_in_surplus: bool) -> int:
    """What a claim scores with ``surplus`` extra cards, the bower possibly among them.

    >>> claim_points(3, True), claim_points(8, True), claim_points(0, False)
    (4, 0, 9)
    """
    others = surplus - (1 if bower_in_surplus else 0)
    cost = (BOWER_SURPLUS_COST if bower_in_surplus else 0) + SURPLUS_COST * others
    return max(0, CLAIM_POINTS - cost)


def _as_bool(value: object, field_name: str, what: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise RuleError(
        Words.of(
            gettext_noop("%(what)s must be true or false (got %(typed)s)"),
            what=Words.of(what),
            typed=repr(value),
        ),
        field_name,
    )


@dataclass(frozen=True)
class DirtyDealsHand:
    """A checked claim. ``surplus`` holds the card codes when they were listed, or None
    when only their count was given."""

    winner: int
    suit: str
    surplus: tuple[str, ...] | None
    surplus_count: int
    bower_in_surplus: bool
    bower_holder: int | None

    @property
    def bower(self) -> str:
        return BOWER[self.suit]

    @property
    def claim_points(self) -> int:
        return claim_points(self.surplus_count, self.bower_in_surplus)

    def as_input(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winner": self.winner, "suit": self.suit}
        if self.surplus is not None:
            data["surplus"] = list(self.surplus)
        else:
            data["surplus_count"] = self.surplus_count
            data["bower_in_surplus"] = self.bower_in_surplus
        data["bower_holder"] = self.bower_holder
        return data


def _parse_surplus_cards(raw: object, suit: str | None) -> tuple[str, ...]:
    codes = raw.replace(",", " ").split() if isinstance(raw, str) else raw
    if not isinstance(codes, list | tuple):
        raise RuleError(gettext_noop("the surplus must be a list of card codes"), "surplus")
    cards = []
    bad: list[Words] = []
    for code in codes:
        try:
            cards.append(parse_french(code))
        except CardError as exc:
            bad.append(exc.words)
    if bad:
        raise CardError(_one_after_another(bad), "surplus")
    parsed = tuple(card.code for card in cards)
    check_copies(parsed, DECK, field="surplus", deck_name=DECK_NAME)
    claimed = [card.code for card in cards if suit is not None and card.suit == suit]
    if claimed:
        assert suit is not None
        suit_name = Words.of(SUIT_WORDS[suit])
        if len(claimed) == 1:
            said = Words.of(
                gettext_noop("%(cards)s is one of the six %(suit)s claimed, so it is not surplus"),
                cards=claimed[0],
                suit=suit_name,
            )
        else:
            listed: str | Words = claimed[0]
            for code in claimed[1:]:
                # "9S and 10S and JS", said in the page's language.
                listed = Words.of(gettext_noop("%(cards)s and %(card)s"), cards=listed, card=code)
            said = Words.of(
                gettext_noop("%(cards)s are of the six %(suit)s claimed, so they are not surplus"),
                cards=listed,
                suit=suit_name,
            )
        raise RuleError(said, "surplus")
    return parsed


def parse_hand(config: GameConfig, raw: object) -> DirtyDealsHand:
    """Check a reported claim: claimant, suit, the surplus (as card codes, or as a count
    plus whether the bower is among them) and who else holds the bower, if anyone.
    Every problem is found (see :mod:`games.problems`); the surplus's are the claimant's."""
    if not isinstance(raw, Mapping):
        raise RuleError(
            gettext_noop("a hand must be an object with 'winner', 'suit' and 'surplus'")
        )
    found = Problems()
    winner: int | None = None
    if raw.get("winner") is None:
        found.add(RuleError(gettext_noop("say who claimed the hand"), "winner"))
    else:
        try:
            winner = as_player_id(raw.get("winner"), config.players, "winner")
        except RuleError as error:
            found.add(error)
    suit: str | None = None
    if raw.get("suit") is None:
        found.add(RuleError(gettext_noop("say which suit was claimed"), "suit"))
    else:
        try:
            suit = parse_suit(raw.get("suit"))
        except RuleError as error:
            found.add(error)
    bower = BOWER[suit] if suit is not None else None
    raw_count = raw.get("surplus_count")
    raw_bower_in = raw.get("bower_in_surplus")
    surplus: tuple[str, ...] | None = None
    count = 0
    bower_in = False
    if raw.get("surplus") is not None:
        try:
            surplus = _parse_surplus_cards(raw.get("surplus"), suit)
            count = len(surplus)
            bower_in = bower in surplus
        except RuleError as error:
            found.add(error, winner)
        # The count form may come along with the cards, but must agree with them.
        if surplus is not None and raw_count is not None:
            try:
                said = as_count(
                    raw_count,
                    "surplus_count",
                    gettext_noop("the number of surplus cards"),
                    player=winner,
                )
                if said != count:
                    if count == 1:
                        differs = gettext_noop(
                            "the number of surplus cards is %(said)s, but %(count)s is listed"
                        )
                    else:
                        differs = gettext_noop(
                            "the number of surplus cards is %(said)s, but %(count)s are listed"
                        )
                    raise RuleError(
                        _claimants(winner, Words.of(differs, said=said, count=count)),
                        "surplus_count",
                    )
            except RuleError as error:
                found.add(error, winner)
        if surplus is not None and raw_bower_in is not None and bower is not None:
            try:
                said_in = _as_bool(raw_bower_in, "bower_in_surplus", BOWER_AMONG_SURPLUS)
                if said_in != bower_in:
                    if bower_in:
                        disagrees = gettext_noop(
                            "saying whether the bower %(bower)s is among the surplus "
                            "disagrees with the cards listed (they include it)"
                        )
                    else:
                        disagrees = gettext_noop(
                            "saying whether the bower %(bower)s is among the surplus "
                            "disagrees with the cards listed (they do not include it)"
                        )
                    raise RuleError(
                        _claimants(winner, Words.of(disagrees, bower=bower)),
                        "bower_in_surplus",
                    )
            except RuleError as error:
                found.add(error, winner)
    else:
        try:
            count = (
                0
                if raw_count is None
                else as_count(
                    raw_count,
                    "surplus_count",
                    gettext_noop("the number of surplus cards"),
                    maximum=MAX_SURPLUS,
                    player=winner,
                )
            )
        except RuleError as error:
            found.add(error, winner)
        try:
            bower_in = (
                False
                if raw_bower_in is None
                else _as_bool(raw_bower_in, "bower_in_surplus", BOWER_AMONG_SURPLUS)
            )
            if bower_in and count < 1:
                raise RuleError(
                    _claimants(
                        winner,
                        Words.of(
                            gettext_noop(
                                "the bower is among the surplus, so there is at least 1 "
                                "surplus card"
                            )
                        ),
                    ),
                    "surplus_count",
                )
            if count == MAX_SURPLUS and not bower_in and bower is not None:
                # Every card is in someone's hand: a surplus of 18 beside the six
                # claimed is all 24 cards, the bower among them.
                raise RuleError(
                    _claimants(
                        winner,
                        Words.of(
                            gettext_noop(
                                "a surplus of %(most)s means the claimant holds all %(cards)s "
                                "cards, so the bower %(bower)s is among the surplus and no "
                                "other player holds it"
                            ),
                            most=MAX_SURPLUS,
                            cards=len(DECK),
                            bower=bower,
                        ),
                    ),
                    "surplus_count",
                )
        except RuleError as error:
            found.add(error, winner)
        # Without surplus there is nothing to describe: store it as an empty list.
        surplus = () if count == 0 else None
    holder: int | None = None
    if raw.get("bower_holder") not in (None, ""):
        try:
            holder = as_player_id(raw.get("bower_holder"), config.players, "bower_holder")
            if holder == winner:
                if bower:
                    refusal = Words.of(
                        gettext_noop(
                            "the claimant cannot be the bower holder: the bower %(bower)s in "
                            "the claimant's hand is surplus"
                        ),
                        bower=bower,
                    )
                else:
                    refusal = Words.of(
                        gettext_noop(
                            "the claimant cannot be the bower holder: the bower in the "
                            "claimant's hand is surplus"
                        )
                    )
                raise RuleError(refusal, "bower_holder", holder)
            if bower_in:
                # The bower is among the surplus: the suit, so the bower, is known.
                raise RuleError(
                    Words.of(
                        gettext_noop(
                            "the bower %(bower)s is one card: it cannot be both in the "
                            "claimant's surplus and with %(player)s"
                        ),
                        bower=bower,
                        player=mention(holder),
                    ),
                    "bower_holder",
                    holder,
                )
        except RuleError as error:
            found.add(error)
    elif bower is not None and not bower_in and not _about_surplus(found):
        # Every card is always in someone's hand (tricks merge into the winner's), so
        # a bower that is not surplus is held by another player, who earns the bonus.
        found.add(
            RuleError(
                Words.of(
                    gettext_noop(
                        "the bower %(bower)s is not in the claimant's surplus, so another "
                        "player holds it: say who (or, if the claimant holds it, add it to "
                        "the surplus)"
                    ),
                    bower=bower,
                ),
                "bower_holder",
            )
        )
    found.raise_if_any()
    assert winner is not None
    assert suit is not None
    return DirtyDealsHand(winner, suit, surplus, count, bower_in, holder)


def _claimants(winner: int | None, words: Words) -> Words:
    """``words`` said as the claimant's ("player 1: …"), when the claimant is known."""
    if winner is None:
        return words
    return Words.of(gettext_noop("%(player)s: %(what)s"), player=mention(winner), what=words)


def _one_after_another(problems: list[Words]) -> Words:
    """Several cards' problems in one message, one after another ("…; …")."""
    said = problems[0]
    for more in problems[1:]:
        # Punctuation only: no words to translate (not marked).
        said = Words.of("%(said)s; %(more)s", said=said, more=more)
    return said


def _about_surplus(found: Problems) -> bool:
    """Whether the surplus could not be read (so where the bower is is unknown)."""
    return any(e.field in ("surplus", "surplus_count", "bower_in_surplus") for e in found.errors)


class DirtyDeals(Ruleset):
    slug = "dirty-deals"
    name = "Dirty Deals"
    short_description = gettext_noop(
        "Four players, 24 cards and a lot of negotiating: collect all six cards of a "
        "suit with as little surplus as you can. Rubbers to 9 points, first to two "
        "rubbers wins the match."
    )
    min_players = 4
    max_players = 4
    wins_with = "high"
    score_label = gettext_noop("points")
    #: The standings' score is the unfinished rubber's points; the ranking is by rubbers.
    ranking_shows_score = False
    #: The negotiations' timer, and the holder of the nine of clubs leads to the first
    #: trick.
    table_kit = TableKit(
        timer=gettext_noop("negotiation timer"),
        lead_card="9♣",
        lead_does=gettext_noop("lead the first trick"),
    )
    demo_weight = 15
    options = (
        Option(
            "negotiation_minutes",
            gettext_noop("Negotiation time (minutes)"),
            3,
            (1, 2, 3, 4, 5, 10),
            gettext_noop("How long the sheet's negotiation timer runs (any number from 1 to 30)."),
            minimum=1,
            maximum=30,
        ),
    )

    def rules_hint(
        self,
        next_hand: Mapping[str, Any],
        names: Mapping[Any, str] | None,
        translate: Translate = identity,
    ) -> str:
        """The bower of each suit; said with ``translate`` (the Django side's
        ``gettext``) in its language."""
        pairs = next_hand.get("bowers") or BOWER
        listed = " · ".join(
            f"{SUIT_SYMBOL[s]} {pairs[s][:-1]}{SUIT_SYMBOL[pairs[s][-1]]}"
            for s in ("H", "D", "C", "S")
            if s in pairs
        )
        return translate(gettext_noop("Bowers: %(bowers)s.")) % {"bowers": listed}

    def random_hand(
        self, rng: random.Random, config: GameConfig, state: GameState, skill: Skill
    ) -> dict[str, Any]:
        winner = pick_winner(rng, config.players, skill)
        suit = rng.choice(SUITS)
        others = [c for c in _ALL_CARDS if parse_french(c).suit != suit]
        count = rng.choices((0, 1, 2, 3, 4), weights=(30, 30, 20, 12, 8))[0]
        surplus = rng.sample(others, count)
        hand: dict[str, Any] = {"winner": winner, "suit": suit, "surplus": surplus}
        holder = None
        if BOWER[suit] not in surplus:
            # Every card is in someone's hand: a bower not in the surplus is another's.
            holder = rng.choice([p for p in config.players if p != winner])
        hand["bower_holder"] = holder
        return hand

    def table_timer_seconds(self, options: Mapping[str, Any]) -> int | None:
        """The negotiations' time limit (older games without the option: the default)."""
        return 60 * int(options.get("negotiation_minutes") or 3)

    def card_points(self, options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        return [
            {
                "card": gettext_noop("Claim: all six cards of one suit"),
                "points": CLAIM_POINTS,
                "note": gettext_noop("Scored by the claimant."),
            },
            {
                "card": gettext_noop("The claimed suit's bower among the surplus"),
                "points": -BOWER_SURPLUS_COST,
                "note": gettext_noop(
                    "The bower is the jack of the same colour: hearts JD, diamonds JH, "
                    "clubs JS, spades JC."
                ),
            },
            {
                "card": gettext_noop("Each other surplus card"),
                "points": -SURPLUS_COST,
                "note": gettext_noop("A claim never scores below 0."),
            },
            {
                "card": gettext_noop("Another player holding the claimed suit's bower"),
                "points": BOWER_BONUS,
                "note": gettext_noop("Bonus for that player."),
            },
        ]

    def start(self, config: GameConfig) -> dict[str, Any]:
        n = len(config.players)
        return {"scores": [0] * n, "rubbers": [0] * n, "rubber": 1, "champion": None}

    def check_open(self, config: GameConfig, carry: Mapping[str, Any], number: int) -> None:
        if carry["champion"] is not None:
            raise RuleError(
                Words.of(
                    gettext_noop(
                        "the match is over: %(player)s won %(rubbers)s rubbers by hand %(hand)s"
                    ),
                    player=mention(carry["champion"]),
                    rubbers=RUBBERS_TO_WIN,
                    hand=number - 1,
                )
            )

    def fold(
        self, config: GameConfig, carry: Mapping[str, Any], number: int, raw: Mapping[str, Any]
    ) -> HandOutcome:
        hand = parse_hand(config, raw)
        players = config.players
        points = dict.fromkeys(players, 0)
        points[hand.winner] = hand.claim_points
        if hand.bower_holder is not None:
            points[hand.bower_holder] += BOWER_BONUS
        scores = [s + points[p] for s, p in zip(carry["scores"], players, strict=True)]
        rubbers = list(carry["rubbers"])
        rubber = carry["rubber"]
        champion = None
        totals = dict(zip(players, scores, strict=True))
        top = max(scores)
        leaders = [p for p in players if totals[p] == top]
        won_by: int | None = None
        hand_rubber = rubber
        # A tie at the top (9 or more) plays on until one player leads alone.
        if top >= RUBBER_TARGET and len(leaders) == 1:
            won_by = leaders[0]
            seat = config.seat_of(won_by)
            rubbers[seat] += 1
            scores = [0] * len(players)
            if rubbers[seat] >= RUBBERS_TO_WIN:
                champion = won_by
            else:
                rubber += 1
        return HandOutcome(
            number=number,
            dealer=config.dealer_for(number),
            winner=hand.winner,
            input=hand.as_input(),
            points=points,
            totals=totals,
            extras={
                "rubber": hand_rubber,
                "rubber_won_by": won_by,
                "suit": hand.suit,
                "bower": hand.bower,
                "claim_points": hand.claim_points,
            },
            carry={"scores": scores, "rubbers": rubbers, "rubber": rubber, "champion": champion},
        )

    def finish(
        self,
        config: GameConfig,
        carry: Mapping[str, Any],
        hands: tuple[HandOutcome, ...],
        *,
        closed: bool,
    ) -> GameState:
        scores = dict(zip(config.players, carry["scores"], strict=True))
        rubbers = dict(zip(config.players, carry["rubbers"], strict=True))
        rubber, champion = carry["rubber"], carry["champion"]
        played = hands[-1].number if hands else 0
        standings = self.ranked_rows(
            config,
            scores,
            key=lambda p: (-rubbers[p], -scores[p]),
            extras=lambda p: {"rubbers": rubbers[p]},
        )
        finished = champion is not None or closed
        winners: tuple[int, ...] = ()
        if champion is not None:
            winners = (champion,)
        elif closed:
            winners = top_ranked(standings)
        next_hand = None
        if not finished:
            next_hand = next_hand_of(config, played, rubber=rubber, bowers=dict(BOWER))
        return GameState(
            config=config,
            hands=hands,
            scores=scores,
            standings=standings,
            finished=finished,
            winners=winners,
            next_hand=next_hand,
            extras={
                "rubber": rubber,
                "rubbers": [{"player": p, "rubbers": rubbers[p]} for p in config.players],
            },
            ended_by=("match" if champion is not None else "closed") if finished else "",
        )
