"""D$%n You!: Fan Tan played for chips, where the most chips wins.

Every hand costs an ante (one chip more for a player dealt a short hand), a chip for
each pass and, when someone goes out, a chip for each card still held; whoever went out
takes the pot. A player with no chips plays on for free (the widow rule), and the game
stops as soon as only one player has chips left. A game is one hand dealt by each
player in turn, unless the ``game_length`` option asks for several rounds of deals or
for play until one player holds all the chips.

    >>> game = DamnYou()
    >>> config = game.configure(players=[1, 2, 3, 4])
    >>> state = game.play(config, [{"winner": 2, "results": [
    ...     {"player": 1, "passes": 2, "cards_left": 5},
    ...     {"player": 2, "passes": 0, "cards_left": 0},
    ...     {"player": 3, "passes": 1, "cards_left": 3},
    ...     {"player": 4, "passes": 3, "cards_left": 7}]}])
    >>> dict(state.scores)
    {1: 11, 2: 46, 3: 15, 4: 8}
    >>> state.next_hand["short"]
    [1, 2]
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.base import (
    GameConfig,
    GameState,
    HandOutcome,
    Option,
    RuleError,
    Ruleset,
    as_count,
    as_player_id,
    top_ranked,
    whole_number,
)
from games.errors import Translate, Words, mention
from games.i18n import gettext_noop, identity
from games.kit import TableKit
from games.naming import join_words, player_name
from games.problems import Problems
from games.table_sim import Skill, cards_held, pick_winner

#: 52 cards and two jokers.
DECK_SIZE = 54
ANTE = 1
#: The extra ante of a player dealt one card fewer.
SHORT_ANTE = 1
#: The most passes one player can be charged in one hand (a sanity bound on input).
MAX_PASSES = 500
OPENING_CARD = "7♦"
#: ``game_length`` choices: one deal by each player (the original's usual game), a set
#: number of ``rounds`` (each player deals once a round), or play until one player
#: holds all the chips (the early end is then the only end, short of ending by hand).
ONE_DEAL_EACH = "one-deal-each"
ROUNDS = "rounds"
ALL_CHIPS = "all-chips"
GAME_LENGTHS = (ONE_DEAL_EACH, ROUNDS, ALL_CHIPS)

#: Who opens a hand (``next_hand["opens"]``): a template, the card its param.
OPENS = gettext_noop("whoever holds the %(card)s opens")


def hands_in_game(config: GameConfig) -> int | None:
    """How many hands the game lasts with its ``game_length`` option (None: until one
    player holds all the chips).

        >>> hands_in_game(GameConfig("damn-you", (1, 2, 3), None, {}))
        3
        >>> hands_in_game(GameConfig("damn-you", (1, 2, 3), None,
        ...     {"game_length": "rounds", "rounds": 2}))
        6
    """
    length = config.options.get("game_length") or ONE_DEAL_EACH
    if length == ALL_CHIPS:
        return None
    if length == ROUNDS:
        return len(config.players) * int(config.options.get("rounds") or 1)
    return len(config.players)


def deal_order(config: GameConfig, dealer: int) -> list[int]:
    """The players in the order they receive cards: from the dealer's left round to the
    dealer."""
    return [config.left_of(dealer, step) for step in range(1, len(config.players) + 1)]


def deal_sizes(config: GameConfig, dealer: int) -> dict[int, int]:
    """Cards dealt to each player (in deal order). The 54 cards go round one at a time,
    so the first ``54 mod N`` players in deal order get one card more than the rest.

        >>> deal_sizes(GameConfig("damn-you", (1, 2, 3, 4), None, {}), 1)
        {2: 14, 3: 14, 4: 13, 1: 13}
    """
    return dict(_deal(config.players, dealer)[0])


def short_players(config: GameConfig, dealer: int) -> list[int]:
    """The players dealt one card fewer than the others, in seat order (none when the
    deck divides evenly)."""
    return list(_deal(config.players, dealer)[1])


@lru_cache(maxsize=1024)
def _deal(players: tuple[int, ...], dealer: int) -> tuple[dict[int, int], tuple[int, ...]]:
    """The deal sizes and short players of one deal, worked out once (callers copy)."""
    config = GameConfig("damn-you", players, None, {})
    n = len(players)
    extra = DECK_SIZE % n
    sizes = {
        player: DECK_SIZE // n + (1 if position < extra else 0)
        for position, player in enumerate(deal_order(config, dealer))
    }
    most = max(sizes.values())
    return sizes, tuple(p for p in players if sizes[p] < most)


def ante_due(config: GameConfig, dealer: int, chips: Mapping[int, int]) -> dict[int, int]:
    """What each player pays into the pot before the hand dealt by ``dealer``: one chip,
    one more when short, never more than the player holds (widow rule)."""
    short = _deal(config.players, dealer)[1]
    return {p: min(ANTE + (SHORT_ANTE if p in short else 0), chips[p]) for p in config.players}


def chip_holders(chips: Mapping[int, int]) -> list[int]:
    return [p for p, n in chips.items() if n > 0]


@dataclass(frozen=True)
class DamnYouHand:
    """A checked hand: who went out, and per player the passes and cards left."""

    winner: int
    passes: dict[int, int]
    cards_left: dict[int, int]
    #: Who paid the last chip, when the passes leave nobody holding chips (else None).
    last_chip: int | None = None

    def as_input(self, config: GameConfig) -> dict[str, Any]:
        data: dict[str, Any] = {
            "winner": self.winner,
            "results": [
                {"player": p, "passes": self.passes[p], "cards_left": self.cards_left[p]}
                for p in config.players
            ],
        }
        if self.last_chip is not None:
            data["last_chip"] = self.last_chip
        return data


def last_chip_needed(after_ante: Mapping[int, int], passes: Mapping[int, int]) -> bool:
    """Whether the hand input must name who paid the last chip: players held chips
    after the ante and the passes (paid one at a time, so one of them paid last) left
    nobody holding any. Nobody holding chips after the ante needs no name: no pass was
    paid (house reading: no one was last, the hand is played).

        >>> last_chip_needed({1: 1, 2: 2, 3: 0}, {1: 1, 2: 5, 3: 0})
        True
        >>> last_chip_needed({1: 1, 2: 2, 3: 0}, {1: 1, 2: 1, 3: 0})
        False
    """
    holders = [p for p, n in after_ante.items() if n > 0]
    return bool(holders) and all(passes.get(p, 0) >= after_ante[p] for p in holders)


def last_chip_unnamed(config: GameConfig, outcome: HandOutcome) -> bool:
    """Whether a folded hand needed ``last_chip`` (its passes left nobody holding chips)
    and was read without it. House reading: such a hand, stored before the question was
    asked, is read as it was scored when it was entered: the player who went out takes
    the pot (then holds every chip, so wins unless it was the last hand anyway). The
    chips after the ante come from the outcome: the totals before the hand (totals less
    the hand's points) less the ante paid.

        >>> game = DamnYou()
        >>> config = game.configure(players=[1, 2, 3], options={"starting_chips": 2})
        >>> broke = {"winner": 1, "results": [
        ...     {"player": 1, "passes": 1, "cards_left": 0},
        ...     {"player": 2, "passes": 1, "cards_left": 4},
        ...     {"player": 3, "passes": 3, "cards_left": 2}]}
        >>> outcome = game.play(config, [broke]).hands[0]
        >>> last_chip_unnamed(config, outcome), outcome.winner, dict(outcome.totals)
        (True, 1, {1: 6, 2: 0, 3: 0})
        >>> named = game.play(config, [{**broke, "last_chip": 3}]).hands[0]
        >>> last_chip_unnamed(config, named), named.winner
        (False, None)
    """
    if outcome.input.get("last_chip") is not None:
        return False
    ante = {int(a["player"]): int(a["paid"]) for a in outcome.extras.get("ante") or []}
    after_ante = {
        p: int(outcome.totals[p]) - int(outcome.points[p]) - ante.get(p, 0) for p in config.players
    }
    results = outcome.input.get("results") or []
    passes = {int(r["player"]): int(r.get("passes") or 0) for r in results}
    return last_chip_needed(after_ante, passes)


def parse_hand(config: GameConfig, raw: object, dealt: Mapping[int, int]) -> DamnYouHand:
    """Check a reported hand: every player once, with passes (default 0) and cards left
    (0 for the player who went out, 1 up to the cards dealt for everyone else)."""
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
    passes: dict[int, int] = {}
    cards_left: dict[int, int] = {}
    seen: set[int] = set()
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
        if entry.get("player") is None:
            found.add(RuleError(gettext_noop("each result must name its player"), "results"))
            unreadable = True
            continue
        try:
            player = as_player_id(entry.get("player"), config.players, "results")
        except RuleError as error:
            found.add(error)
            unreadable = True
            continue
        if player in seen:
            found.add(
                RuleError(
                    Words.of(gettext_noop("%(player)s is listed twice"), player=mention(player)),
                    "results",
                    player,
                )
            )
            continue
        seen.add(player)
        raw_passes = entry.get("passes")
        try:
            passes[player] = (
                0
                if raw_passes is None
                else as_count(
                    raw_passes,
                    "results",
                    gettext_noop("the passes"),
                    maximum=MAX_PASSES,
                    player=player,
                )
            )
        except RuleError as error:
            found.add(error, player)
        try:
            cards_left[player] = _cards_left(entry.get("cards_left"), player, winner, dealt)
        except RuleError as error:
            found.add(error, player)
    for p in config.players if not unreadable else ():
        if p not in seen:
            found.add(
                RuleError(
                    Words.of(
                        gettext_noop(
                            "%(player)s: nothing entered: give the passes and the cards left"
                        ),
                        player=mention(p),
                    ),
                    "results",
                    p,
                )
            )
    last_chip: int | None = None
    if raw.get("last_chip") is not None:
        try:
            last_chip = as_player_id(raw.get("last_chip"), config.players, "last_chip")
        except RuleError as error:
            found.add(error)
    found.raise_if_any()
    assert winner is not None
    return DamnYouHand(winner, passes, cards_left, last_chip)


def _cards_left(raw: object, player: int, winner: int | None, dealt: Mapping[int, int]) -> int:
    """A player's cards left: 0 for the player who went out, else 1 up to the cards
    dealt to them."""
    if player == winner:
        left = (
            0
            if raw is None
            else as_count(raw, "results", gettext_noop("the cards left"), player=player)
        )
        if left != 0:
            raise RuleError(
                Words.of(
                    gettext_noop("%(player)s went out, so has 0 cards left (got %(left)s)"),
                    player=mention(player),
                    left=left,
                ),
                "results",
                player,
            )
        return 0
    if winner is None and raw in (None, 0, "0"):
        return 0  # maybe the player who went out: said once, as "say who went out"
    if raw is None:
        raise RuleError(
            Words.of(
                gettext_noop("%(player)s: give the cards left in hand"), player=mention(player)
            ),
            "results",
            player,
        )
    left = as_count(raw, "results", gettext_noop("the cards left"), player=player)
    if left == 0:
        if winner is not None:
            said = Words.of(
                gettext_noop(
                    "%(player)s has 0 cards left, but only the player who went out "
                    "(%(winner)s) can have none"
                ),
                player=mention(player),
                winner=mention(winner),
            )
        else:
            said = Words.of(
                gettext_noop(
                    "%(player)s has 0 cards left, but only the player who went out can have none"
                ),
                player=mention(player),
            )
        raise RuleError(said, "results", player)
    if left > dealt[player]:
        raise RuleError(
            Words.of(
                gettext_noop(
                    "%(player)s was dealt %(dealt)s cards this hand, so cannot have %(left)s left"
                ),
                player=mention(player),
                dealt=dealt[player],
                left=left,
            ),
            "results",
            player,
        )
    return left


@dataclass(frozen=True)
class _HandFold:
    outcome: HandOutcome
    chips: dict[int, int]
    pot: int
    #: The one player left holding chips when that ended the game during this hand.
    sole_holder: int | None


class DamnYou(Ruleset):
    slug = "damn-you"
    name = "D$%n You!"
    short_description = gettext_noop(
        "Fan Tan for chips: build the suits out from the sevens, pay a chip whenever you "
        "cannot play, and go out first to take the pot. Most chips wins."
    )
    min_players = 3
    max_players = 8
    options = (
        Option(
            "starting_chips",
            gettext_noop("Starting chips"),
            20,
            (10, 15, 20, 25, 30, 40, 50, 100),
            gettext_noop("Chips each player starts with (any number from 1 to 1000)."),
            minimum=1,
            maximum=1000,
        ),
        Option(
            "game_length",
            gettext_noop("Game length"),
            ONE_DEAL_EACH,
            GAME_LENGTHS,
            gettext_noop(
                "How long the game lasts: one deal by each player, as the original usually "
                "plays; the deal round the table as many times as Rounds says; or play on "
                "until one player holds all the chips."
            ),
        ),
        Option(
            "rounds",
            gettext_noop("Rounds"),
            2,
            (1, 2, 3, 4, 5),
            gettext_noop(
                "With a number of rounds as the game length: how many times each player "
                "deals (any number from 1 to 20). Ignored with the other game lengths."
            ),
            minimum=1,
            maximum=20,
        ),
    )
    wins_with = "high"
    score_label = gettext_noop("chips")
    #: The holder of the seven of diamonds lays it first.
    table_kit = TableKit(
        lead_card="7♦", lead_does=gettext_noop("lay it in the centre and play first")
    )
    #: A player passes once a turn, and a hand rarely lasts 30 of their turns.
    plausible_ceiling = 30
    plausible_unit = gettext_noop("passes")
    demo_weight = 20
    demo_tonight_hands = 2

    def rules_hint(
        self,
        next_hand: Mapping[str, Any],
        names: Mapping[Any, str] | None,
        translate: Translate = identity,
    ) -> str:
        """Who deals, who opens and who antes an extra chip; said with ``translate``
        (the Django side's ``gettext``) in its language."""
        say = translate
        short = [player_name(p, names) for p in next_hand.get("short", [])]
        dealer = next_hand.get("dealer")
        parts = []
        if dealer is not None:
            parts.append(
                say(gettext_noop("%(dealer)s deals.")) % {"dealer": player_name(dealer, names)}
            )
        parts.append(
            say(gettext_noop("Whoever holds the %(card)s opens.")) % {"card": OPENING_CARD}
        )
        if len(short) == 1:
            parts.append(
                say(gettext_noop("%(player)s antes an extra chip (one card short)."))
                % {"player": short[0]}
            )
        elif short:
            parts.append(
                say(gettext_noop("%(players)s ante an extra chip (one card short)."))
                % {"players": _join_names(short, say)}
            )
        else:
            parts.append(say(gettext_noop("The cards come out even: no extra ante.")))
        return " ".join(parts)

    def reported_amounts(
        self, config: GameConfig, number: int, hand: Mapping[str, Any]
    ) -> dict[int, int]:
        """Each player's passes."""
        amounts: dict[int, int] = {}
        for row in hand.get("results") or []:
            passes = whole_number(row.get("passes"))
            if passes is not None:
                amounts[int(row["player"])] = passes
        return amounts

    def random_hand(
        self, rng: random.Random, config: GameConfig, state: GameState, skill: Skill
    ) -> dict[str, Any]:
        assert state.next_hand is not None
        dealt = deal_sizes(config, int(state.next_hand["dealer"]))
        winner = pick_winner(rng, config.players, skill)
        results = []
        for player in config.players:
            s = skill.get(player, 0.0)
            passes = max(0, round(rng.gauss(1.5 - s / 2, 1.2)))
            left = 0 if player == winner else cards_held(rng, s, most=dealt[player])
            results.append({"player": player, "passes": passes, "cards_left": left})
        hand: dict[str, Any] = {"winner": winner, "results": results}
        # Passes that leave nobody holding chips: the hand names who paid the last one.
        due = {int(a["player"]): int(a["amount"]) for a in state.next_hand["ante"]}
        after_ante = {p: int(state.scores[p]) - due[p] for p in config.players}
        if last_chip_needed(after_ante, {r["player"]: r["passes"] for r in results}):
            hand["last_chip"] = rng.choice([p for p in config.players if after_ante[p] > 0])
        return hand

    def demo_setup(self, rng: random.Random, seats: Sequence[int]) -> dict[str, Any]:
        return {"options": {"starting_chips": 30 if rng.random() < 0.2 else 20}}

    def card_points(self, options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        return [
            {
                "card": gettext_noop("Ante"),
                "points": ANTE,
                "note": gettext_noop("Every player, into the pot before the deal."),
            },
            {
                "card": gettext_noop("Short hand"),
                "points": SHORT_ANTE,
                "note": gettext_noop("Extra ante from each player dealt one card fewer."),
            },
            {
                "card": gettext_noop("Pass"),
                "points": 1,
                "note": gettext_noop("Each time a player cannot play."),
            },
            {
                "card": gettext_noop("Each card left in hand"),
                "points": 1,
                "note": gettext_noop("Paid by every other player when someone goes out."),
            },
            {
                "card": gettext_noop("The pot"),
                "points": gettext_noop("all of it"),
                "note": gettext_noop(
                    "Goes to the player who went out. A player with no chips pays nothing "
                    "and plays on; when only one player holds chips, the game ends."
                ),
            },
        ]

    def start(self, config: GameConfig) -> dict[str, Any]:
        start = int(config.options.get("starting_chips", 20))
        carry = {
            "chips": [start] * len(config.players),
            "pot": 0,
            "ended_by": "",
            "sole_holder": None,
            "closing_ante": None,
        }
        return self._check_next_ante(config, carry, 1)

    @staticmethod
    def _check_next_ante(config: GameConfig, carry: dict[str, Any], number: int) -> dict[str, Any]:
        # Decision: the ante is fixed by the deal, so it is settled as soon as the
        # previous hand is: if it would leave one player holding chips, the game
        # ends before hand ``number`` is played.
        chips = dict(zip(config.players, carry["chips"], strict=True))
        due = ante_due(config, config.dealer_for(number), chips)
        after = {p: chips[p] - due[p] for p in config.players}
        holders = chip_holders(after)
        if len(holders) == 1:
            sole_holder = holders[0]
            carry.update(
                chips=[after[p] for p in config.players],
                pot=carry["pot"] + sum(due.values()),
                sole_holder=sole_holder,
                ended_by="early",
                closing_ante=[{"player": p, "paid": due[p]} for p in config.players],
            )
        return carry

    def check_open(self, config: GameConfig, carry: Mapping[str, Any], number: int) -> None:
        if carry["ended_by"] == "hands":
            rounds = (hands_in_game(config) or 0) // len(config.players)
            if rounds == 1:
                over = gettext_noop(
                    "the game is over after hand %(hand)s (one hand dealt by each player)"
                )
            else:
                over = gettext_noop(
                    "the game is over after hand %(hand)s (%(rounds)s hands dealt by each player)"
                )
            raise RuleError(Words.of(over, hand=number - 1, rounds=rounds))
        if carry["ended_by"]:
            holder = mention(carry["sole_holder"])
            if carry["closing_ante"] is not None:  # this hand's ante ended the game
                said = Words.of(
                    gettext_noop(
                        "the game is over: after the ante of hand %(hand)s only %(player)s "
                        "holds chips"
                    ),
                    hand=number,
                    player=holder,
                )
            elif not any(carry["chips"]):  # the passes took every chip: the last payer won
                said = Words.of(
                    gettext_noop(
                        "the game is over: %(player)s paid the last chip in hand %(hand)s"
                    ),
                    player=holder,
                    hand=number - 1,
                )
            else:
                said = Words.of(
                    gettext_noop(
                        "the game is over: only %(player)s holds chips since hand %(hand)s"
                    ),
                    player=holder,
                    hand=number - 1,
                )
            raise RuleError(said)

    def fold(
        self, config: GameConfig, carry: Mapping[str, Any], number: int, raw: Mapping[str, Any]
    ) -> HandOutcome:
        dealer = config.dealer_for(number)
        hand = parse_hand(config, raw, _deal(config.players, dealer)[0])
        chips = dict(zip(config.players, carry["chips"], strict=True))
        fold = self._fold_hand(config, number, chips, hand)
        after: dict[str, Any] = {
            **carry,
            "chips": [fold.chips[p] for p in config.players],
            "pot": fold.pot,
        }
        if fold.sole_holder is not None:
            after.update(sole_holder=fold.sole_holder, ended_by="early")
        elif number == hands_in_game(config):
            after.update(ended_by="hands")
        else:
            after = self._check_next_ante(config, after, number + 1)
        o = fold.outcome
        return HandOutcome(
            o.number, o.dealer, o.winner, o.input, o.points, o.totals, None, o.extras, after
        )

    def check_entry(self, config: GameConfig, outcome: HandOutcome) -> None:
        """A new or corrected hand whose passes leave nobody holding chips must name who
        paid the last chip (``last_chip``). Only an entry is refused: a stored hand
        entered before the question was asked replays as it was scored then (see
        :func:`last_chip_unnamed`)."""
        if last_chip_unnamed(config, outcome):
            raise RuleError(
                gettext_noop("the passes leave nobody holding chips: say who paid the last chip"),
                "last_chip",
            )

    def finish(
        self,
        config: GameConfig,
        carry: Mapping[str, Any],
        hands: tuple[HandOutcome, ...],
        *,
        closed: bool,
    ) -> GameState:
        start = int(config.options.get("starting_chips", 20))
        chips = dict(zip(config.players, carry["chips"], strict=True))
        ended_by = carry["ended_by"]
        sole_holder = carry["sole_holder"]
        played = hands[-1].number if hands else 0
        if closed and not ended_by:
            ended_by = "closed"
        finished = bool(ended_by)
        standings = self.ranked_rows(config, chips, key=lambda p: -chips[p])
        winners: tuple[int, ...] = ()
        if sole_holder is not None:
            winners = (sole_holder,)
        elif finished:
            winners = top_ranked(standings)
        return GameState(
            config=config,
            hands=hands,
            scores=chips,
            standings=standings,
            finished=finished,
            winners=winners,
            next_hand=None if finished else self._next_hand(config, played + 1, chips),
            extras={
                "pot": carry["pot"],
                "starting_chips": start,
                "hands_total": hands_in_game(config),
                "closing_ante": carry["closing_ante"],
            },
            ended_by=ended_by,
        )

    @staticmethod
    def _fold_hand(
        config: GameConfig, number: int, before: Mapping[int, int], hand: DamnYouHand
    ) -> _HandFold:
        """Move the chips of one hand in the document's order: the ante, the passes, the
        payments for cards left, and only then the pot to the player who went out;
        checking for a lone chip holder after the passes, after the payments (before
        the pot is taken) and after the pot. (The ante was checked before the hand:
        see ``_check_next_ante``.)"""
        dealer = config.dealer_for(number)
        dealt = _deal(config.players, dealer)[0]
        chips = dict(before)
        paid = dict.fromkeys(config.players, 0)
        received = dict.fromkeys(config.players, 0)
        pot = 0

        def pay(player: int, amount: int) -> int:
            # Widow rule: a payment is capped by the chips held at that moment.
            nonlocal pot
            amount = min(amount, chips[player])
            chips[player] -= amount
            paid[player] += amount
            pot += amount
            return amount

        ante = ante_due(config, dealer, chips)
        for p in config.players:
            pay(p, ante[p])
        # One holder after the ante ended the game before this hand (``_check_next_ante``).
        after_ante = dict(chips)
        for p in config.players:
            pay(p, hand.passes[p])
        sole: int | None = None
        winner: int | None = hand.winner
        holders = chip_holders(chips)
        needed = last_chip_needed(after_ante, hand.passes)
        _check_last_chip(hand, after_ante, needed)
        if len(holders) == 1 or hand.last_chip is not None:
            # Early end during the passes: the lone holder, or (nobody left holding
            # chips) whoever paid the last chip, wins; nobody goes out and the pot
            # stays where it is. A stored hand without ``last_chip`` where it is
            # needed reads on (house reading: as it was scored when it was entered,
            # see ``DamnYou.check_entry``): the player who went out takes the pot.
            sole = holders[0] if holders else hand.last_chip
            winner = None
        else:
            for p in config.players:
                if p != hand.winner:
                    pay(p, hand.cards_left[p])
            holders = chip_holders(chips)
            if len(holders) == 1 and holders[0] != hand.winner:
                # Early end after the payments, before the pot is taken: the one
                # holder wins and the pot is not awarded.
                sole = holders[0]
            else:
                # The player who went out takes the pot: as the one holder (it is
                # theirs by either reading), with others still holding chips, or
                # (house reading) when the payments left nobody holding any.
                received[hand.winner] = pot
                chips[hand.winner] += pot
                pot = 0
                holders = chip_holders(chips)
                last = hands_in_game(config)
                if len(holders) == 1 and (last is None or number < last):
                    sole = holders[0]
        outcome = HandOutcome(
            number=number,
            dealer=dealer,
            winner=winner,
            input=hand.as_input(config),
            points={p: received[p] - paid[p] for p in config.players},
            totals=dict(chips),
            extras={
                "chips": [
                    {"player": p, "paid": paid[p], "received": received[p]} for p in config.players
                ],
                "ante": [{"player": p, "paid": ante[p]} for p in config.players],
                "short": short_players(config, dealer),
                "deal": [{"player": p, "cards": dealt[p]} for p in config.players],
                "pot": pot,
                "early_end": sole is not None,
            },
        )
        return _HandFold(outcome=outcome, chips=chips, pot=pot, sole_holder=sole)

    @staticmethod
    def _next_hand(config: GameConfig, number: int, chips: Mapping[int, int]) -> dict[str, Any]:
        dealer = config.dealer_for(number)
        dealt = deal_sizes(config, dealer)
        due = ante_due(config, dealer, chips)
        return {
            "number": number,
            "dealer": dealer,
            "short": short_players(config, dealer),
            "deal": [{"player": p, "cards": dealt[p]} for p in config.players],
            "ante": [{"player": p, "amount": due[p]} for p in config.players],
            "opens": OPENS % {"card": OPENING_CARD},
        }


def _check_last_chip(hand: DamnYouHand, after_ante: Mapping[int, int], needed: bool) -> None:
    """``last_chip`` is given only when the passes leave nobody holding chips, and names
    a player who still held chips after the ante. (That it is given whenever they do is
    checked on entry only: ``DamnYou.check_entry``.)"""
    if not needed and hand.last_chip is not None:
        raise RuleError(
            gettext_noop(
                "who paid the last chip is asked only when the passes leave nobody holding "
                "chips, and these passes do not"
            ),
            "last_chip",
        )
    if hand.last_chip is not None and after_ante[hand.last_chip] == 0:
        raise RuleError(
            Words.of(
                gettext_noop(
                    "%(player)s held no chips after the ante, so cannot have paid the last chip"
                ),
                player=mention(hand.last_chip),
            ),
            "last_chip",
        )


def _join_names(names: Sequence[str], translate: Translate) -> str:
    """``a and b``, ``a, b and c``: :func:`games.naming.join_words`, said with
    ``translate``."""
    if translate is identity or len(names) < 2:
        return join_words(names)
    return translate(gettext_noop("%(names)s and %(last)s")) % {
        "names": ", ".join(names[:-1]),
        "last": names[-1],
    }
