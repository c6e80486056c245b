"""Screw Your Neighbour: a cut-throat Crazy Eights relative scored by hand wins.

The house rules give no card points: whoever sheds their last card wins the hand. The
score sheet counts hand wins, and the first player to reach ``target_wins`` wins the
game (``0`` leaves the game open until the table closes it).

    >>> game = ScrewYourNeighbour()
    >>> config = game.configure(players=[1, 2, 3], options={"target_wins": 2})
    >>> state = game.play(config, [{"winner": 2}, {"winner": 3}, {"winner": 2}])
    >>> state.finished, state.winners, state.ended_by
    (True, (2,), 'target')
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
    as_player_id,
    next_hand_of,
    top_ranked,
)
from games.errors import Translate, Words, mention
from games.i18n import gettext_noop, identity
from games.kit import TableKit
from games.naming import Hint, player_words
from games.table_sim import Skill, pick_winner

#: Two 52-card decks plus four jokers, eight cards to each player and one turned up
#: to start the discard pile.
DECK_SIZE = 2 * 52 + 4
HAND_SIZE = 8
TURNED_UP = 1
#: How far the dealer's left-over portion of the deck may be from empty (either way)
#: for the red aces to be active.
RED_ACES_MARGIN = 2


#: The rules hint for the hand in play, naming the dealer.
HINT = gettext_noop(
    "%(who)s deals 8 each. Red aces are live for %(who)s alone if the grabbed portion "
    "ends within %(margin)s cards of exact."
)
#: The rules hint when the dealer is not known.
HINT_NO_DEALER = gettext_noop(
    "the dealer deals 8 each. Red aces are live for the dealer alone if the grabbed portion "
    "ends within %(margin)s cards of exact."
)


def red_aces_active(cards_left_over: int) -> bool:
    """Whether the red aces are live for the dealer this hand.

    The dealer deals from a portion of the deck they picked up. ``cards_left_over`` is
    what remains of that portion once everyone has their eight cards: positive when
    cards are left in it, negative when it ran short and the dealer had to take that
    many more from the rest of the deck. Within two cards either way the red aces are
    active, for the dealer alone. It is a display aid only; it never changes a score.

        >>> red_aces_active(2), red_aces_active(-2), red_aces_active(3)
        (True, True, False)
    """
    return abs(cards_left_over) <= RED_ACES_MARGIN


class ScrewYourNeighbour(Ruleset):
    slug = "screw-your-neighbour"
    name = "Screw Your Neighbour"
    short_description = gettext_noop(
        "Crazy Eights gone wild: hands get switched, passed and stolen on the way to "
        "shedding your last card. The sheet counts hand wins; first to the target wins."
    )
    min_players = 3
    #: The original says "three or more": as many as its two decks and four jokers
    #: can deal eight cards each with one card turned up (13).
    max_players = (DECK_SIZE - TURNED_UP) // HAND_SIZE
    options = (
        Option(
            "target_wins",
            gettext_noop("Hand wins to win the game"),
            3,
            tuple(range(21)),
            gettext_noop(
                "The first player to win this many hands wins the game. Choose 0 to play "
                "without a target and end the game by hand."
            ),
        ),
        # Readings of the original where a table could play it either way. They change
        # how the table plays, not what the sheet scores: the rules text follows them.
        Option(
            "joker_switch",
            gettext_noop("Joker laid alone: Switch swap"),
            "no",
            ("no", "yes"),
            gettext_noop(
                "The original both says a joker acts as a Switch and that a joker cannot make "
                "the Switch swap. no: the joker takes the power of the card beneath it but "
                "nobody swaps; yes: it is a full Switch, swap included."
            ),
        ),
        Option(
            "two_joker_pickup",
            gettext_noop("2 + joker Match: cards picked up"),
            4,
            (4, 6),
            gettext_noop(
                "The original says the next player picks up 4 additional cards. 4: four in "
                "all (a 2 doubled); 6: the 2's two cards plus four more."
            ),
        ),
        Option(
            "queen_two_spades",
            gettext_noop("Q♠ with 2♠"),
            "no",
            ("no", "yes"),
            gettext_noop(
                "A variation the original names without its details. House reading: yes lets "
                "the queen of spades and the 2 of spades be laid together as one play, their "
                "pick-ups added (the next player picks up seven and misses a turn)."
            ),
        ),
    )
    wins_with = "high"
    score_label = gettext_noop("hand wins")
    #: Jacks reverse; black aces pass hands "in the direction of play".
    table_kit = TableKit(
        reverses=gettext_noop("a jack"),
        follows_direction=gettext_noop(
            "Black aces pass every hand this way; the Bomb's pick-ups go round this way."
        ),
    )
    demo_weight = 15

    def rules_hint(
        self,
        next_hand: Mapping[str, Any],
        names: Mapping[Any, str] | None,
        translate: Translate = identity,
    ) -> str:
        dealer = next_hand.get("dealer")
        if dealer is None:
            return Hint(Words.of(HINT_NO_DEALER, margin=RED_ACES_MARGIN)).say(translate)
        who = player_words(dealer, names)
        return Hint(Words.of(HINT, who=who, margin=RED_ACES_MARGIN)).say(translate)

    def random_hand(
        self, rng: random.Random, config: GameConfig, state: GameState, skill: Skill
    ) -> dict[str, Any]:
        return {"winner": pick_winner(rng, config.players, skill)}

    def demo_setup(self, rng: random.Random, seats: Sequence[int]) -> dict[str, Any]:
        roll = rng.random()
        return {"options": {"target_wins": 5 if roll < 0.2 else (0 if roll < 0.3 else 3)}}

    def open_ended(self, config: GameConfig) -> bool:
        """A target of 0 hand wins: the table ends the game by hand."""
        return int(config.options.get("target_wins", 3)) == 0

    def card_points(self, options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        # The house rules score no cards: only who goes out first counts.
        return []

    def parse_hand(self, config: GameConfig, raw: object) -> int:
        """The winner of a reported hand ``{"winner": id}``."""
        if not isinstance(raw, Mapping):
            raise RuleError(gettext_noop("a hand must be an object with 'winner'"))
        if raw.get("winner") is None:
            raise RuleError(gettext_noop("say who went out first"), "winner")
        return as_player_id(raw.get("winner"), config.players, "winner")

    def start(self, config: GameConfig) -> dict[str, Any]:
        return {"wins": [0] * len(config.players), "champion": None}

    def check_open(self, config: GameConfig, carry: Mapping[str, Any], number: int) -> None:
        if carry["champion"] is not None:
            target = int(config.options.get("target_wins", 3))
            raise RuleError(
                Words.of(
                    gettext_noop(
                        "the game is over: %(player)s reached %(target)s hand wins in hand %(hand)s"
                    ),
                    player=mention(carry["champion"]),
                    target=target,
                    hand=number - 1,
                )
            )

    def fold(
        self, config: GameConfig, carry: Mapping[str, Any], number: int, raw: Mapping[str, Any]
    ) -> HandOutcome:
        winner = self.parse_hand(config, raw)
        players = config.players
        seat = players.index(winner)
        wins = list(carry["wins"])
        wins[seat] += 1
        target = config.options.get("target_wins", 3)
        champion = winner if target and wins[seat] >= int(target) else None
        points = dict.fromkeys(players, 0)
        points[winner] = 1
        return HandOutcome(
            number,
            config.dealer_for(number),
            winner,
            {"winner": winner},
            points,
            dict(zip(players, wins)),  # noqa: B905 (one count per seat)
            None,
            {},
            {"wins": wins, "champion": champion},
        )

    def finish(
        self,
        config: GameConfig,
        carry: Mapping[str, Any],
        hands: tuple[HandOutcome, ...],
        *,
        closed: bool,
    ) -> GameState:
        target = int(config.options.get("target_wins", 3))
        wins = dict(zip(config.players, carry["wins"], strict=True))
        champion = carry["champion"]
        played = hands[-1].number if hands else 0
        standings = self.ranked_rows(config, wins, key=lambda p: -wins[p])
        finished = champion is not None or closed
        winners: tuple[int, ...] = ()
        ended_by = ""
        if champion is not None:
            winners, ended_by = (champion,), "target"
        elif closed:
            winners = top_ranked(standings)
            ended_by = "closed"
        next_hand = None
        if not finished:
            next_hand = next_hand_of(config, played)
        return GameState(
            config=config,
            hands=hands,
            scores=wins,
            standings=standings,
            finished=finished,
            winners=winners,
            next_hand=next_hand,
            extras={"target_wins": target},
            ended_by=ended_by,
        )
