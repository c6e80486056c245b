"""D$%n You!'s early end, in the document's order.

The document: "In the unlikely event that only one player has chips, the game ends
immediately and they win (this can happen in the middle of a hand)." The spec's order of
"at any moment": the ante, then the passes one at a time in turn, then the end-of-hand
payments, and only then the pot to the player who went out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import GameConfig, RuleError
from games.damn_you import DamnYou, ante_due, deal_sizes, last_chip_needed, last_chip_unnamed
from tests.games.helpers import assert_competition_ranks

GAME = DamnYou()
A, B, C = 1, 2, 3


def result(player: int, passes: int, cards_left: int) -> dict[str, int]:
    return {"player": player, "passes": passes, "cards_left": cards_left}


def three(start: int = 5) -> GameConfig:
    return GAME.configure(players=[A, B, C], options={"starting_chips": start})


#: The spec's example: 5 chips each; after hand 1 A holds 0, B 13, C 2 (dealer A; 18
#: cards each, nobody short). Ante 1 each (pot 3); C passes once (pot 4); B goes out, A
#: pays 4 for 8 cards (all he holds), C 1 for his card: pot 9, B 4 + 9 = 13.
HAND_1 = {"winner": B, "results": [result(A, 0, 8), result(B, 0, 0), result(C, 1, 1)]}


def test_hand_one_of_the_spec_example() -> None:
    state = GAME.play(three(), [HAND_1])
    assert state.scores == {A: 0, B: 13, C: 2}


def test_early_end_after_the_payments_before_the_pot() -> None:
    # Spec: "in hand 2 A goes out, B has 5 cards left and C 3: C pays his last 2 chips,
    # only B holds chips, B wins and the pot is not awarded".
    hand_2 = {"winner": A, "results": [result(A, 0, 0), result(B, 0, 5), result(C, 0, 3)]}
    state = GAME.play(three(), [HAND_1, hand_2])
    assert state.finished
    assert state.ended_by == "early"
    assert state.winners == (B,)
    # Ante: B 1, C 1 (A has none); then B pays 5, C his last 1: pot 8, not awarded.
    assert state.scores == {A: 0, B: 7, C: 0}
    assert state.extras["pot"] == 8
    outcome = state.hands[1]
    assert outcome.extras["early_end"] is True
    assert {c["player"]: c["received"] for c in outcome.extras["chips"]} == {A: 0, B: 0, C: 0}
    assert sum(state.scores.values()) + state.extras["pot"] == 15


def test_the_lone_holder_who_went_out_takes_the_pot() -> None:
    # Spec: "When that one player is the one who went out, they take the pot as well".
    hand_2 = {"winner": B, "results": [result(A, 0, 3), result(B, 0, 0), result(C, 0, 3)]}
    state = GAME.play(three(), [HAND_1, hand_2])
    assert state.winners == (B,)
    assert state.ended_by == "early"
    assert state.scores == {A: 0, B: 15, C: 0}
    assert state.extras["pot"] == 0


def test_passes_leaving_nobody_with_chips_need_the_last_payer() -> None:
    # "passes are paid one at a time in turn": when the passes leave nobody holding
    # chips, the player who paid the last pass was the last holder and wins.
    hand_2 = {"winner": A, "results": [result(A, 0, 0), result(B, 20, 5), result(C, 5, 3)]}
    # An entry must name them (the check of a new or corrected hand).
    unnamed = GAME.play(three(), [HAND_1, hand_2])
    assert last_chip_unnamed(three(), unnamed.hands[1])
    with pytest.raises(RuleError) as err:
        GAME.check_entry(three(), unnamed.hands[1])
    assert err.value.field == "last_chip"
    assert "say who paid the last chip" in err.value.message
    state = GAME.play(three(), [HAND_1, {**hand_2, "last_chip": C}])
    GAME.check_entry(three(), state.hands[1])
    assert not last_chip_unnamed(three(), state.hands[1])
    assert state.finished
    assert state.winners == (C,)
    assert state.scores == {A: 0, B: 0, C: 0}
    assert state.extras["pot"] == 15
    assert state.hands[1].winner is None
    assert state.hands[1].input["last_chip"] == C
    with pytest.raises(RuleError) as err:
        GAME.play(three(), [HAND_1, {**hand_2, "last_chip": C}, hand_2])
    assert err.value.message == "the game is over: player 3 paid the last chip in hand 2"


def test_a_stored_hand_without_the_last_payer_reads_as_it_was_entered() -> None:
    # House reading: a hand stored before the sheet asked who paid the last chip is
    # read as it was scored then: the player who went out (A, broke) takes the pot and,
    # holding every chip, wins. Replaying it never fails.
    hand_2 = {"winner": A, "results": [result(A, 0, 0), result(B, 20, 5), result(C, 5, 3)]}
    state = GAME.play(three(), [HAND_1, hand_2])
    assert state.finished
    assert state.ended_by == "early"
    assert state.winners == (A,)
    assert state.scores == {A: 15, B: 0, C: 0}
    assert state.extras["pot"] == 0
    outcome = state.hands[1]
    assert outcome.winner == A
    assert outcome.extras["early_end"] is True
    assert "last_chip" not in outcome.input
    with pytest.raises(RuleError) as err:
        GAME.play(three(), [HAND_1, hand_2, hand_2])
    assert err.value.message == "the game is over: only player 1 holds chips since hand 2"


def test_a_stored_last_hand_without_the_last_payer_ends_by_the_hands() -> None:
    # On the last hand of the game the same reading ends the game by the hands: the
    # player who went out holds every chip, so wins on chips.
    hand_2 = {"winner": C, "results": [result(A, 0, 4), result(B, 0, 1), result(C, 0, 0)]}
    hand_3 = {"winner": A, "results": [result(A, 0, 0), result(B, 20, 5), result(C, 9, 3)]}
    state = GAME.play(three(), [HAND_1, hand_2, hand_3])
    assert last_chip_unnamed(three(), state.hands[2])
    assert state.ended_by == "hands"
    assert state.winners == (A,)
    assert state.scores == {A: 15, B: 0, C: 0}


def test_last_chip_refused_when_not_needed_or_impossible() -> None:
    hand_2 = {"winner": A, "results": [result(A, 0, 0), result(B, 20, 5), result(C, 5, 3)]}
    with pytest.raises(RuleError) as err:
        GAME.play(three(), [HAND_1, {**hand_2, "last_chip": A}])  # A held no chips
    assert err.value.field == "last_chip"
    assert "player 1 held no chips after the ante" in err.value.message
    with pytest.raises(RuleError) as err:
        GAME.play(three(), [{**HAND_1, "last_chip": B}])
    assert err.value.field == "last_chip"
    assert "asked only when the passes leave nobody holding chips" in err.value.message
    with pytest.raises(RuleError) as err:
        GAME.play(three(), [HAND_1, {**hand_2, "last_chip": 99}])
    assert err.value.field == "last_chip"


def test_nobody_holding_chips_after_the_ante_plays_the_hand() -> None:
    # House reading: after an ante that leaves nobody holding chips no one was last;
    # the hand is played and its winner takes the pot (then holds every chip).
    cfg = GAME.configure(players=[A, B, C, 4], options={"starting_chips": 1})
    hand = {
        "winner": B,
        "results": [result(A, 4, 3), result(B, 2, 0), result(C, 0, 1), result(4, 9, 9)],
    }
    assert not last_chip_needed(dict.fromkeys([A, B, C, 4], 0), {A: 4, B: 2, C: 0, 4: 9})
    state = GAME.play(cfg, [hand])
    assert state.hands[0].winner == B
    assert state.winners == (B,)
    with pytest.raises(RuleError):
        GAME.play(cfg, [{**hand, "last_chip": A}])


def test_early_end_on_the_last_hand_still_leaves_the_pot() -> None:
    # The last hand of a one-deal-each game: the order still decides, not the chips at
    # the end. Hand 2: C goes out and takes the pot (A 0, B 11, C 4); hand 3 is the
    # spec's example again: A goes out broke, B pays 5 for cards, C his last 3: only B.
    hand_2 = {"winner": C, "results": [result(A, 0, 4), result(B, 0, 1), result(C, 0, 0)]}
    hand_3 = {"winner": A, "results": [result(A, 0, 0), result(B, 0, 5), result(C, 0, 3)]}
    state = GAME.play(three(), [HAND_1, hand_2])
    assert not state.finished
    assert state.scores == {A: 0, B: 11, C: 4}
    state = GAME.play(three(), [HAND_1, hand_2, hand_3])
    assert state.ended_by == "early"
    assert state.winners == (B,)
    assert state.scores == {A: 0, B: 5, C: 0}
    assert state.extras["pot"] == 10


# -- the property: the game ends the moment one player holds chips ------------------------


@dataclass
class Model:
    """The document's chip flow, payment by payment, written apart from the engine."""

    chips: dict[int, int]
    pot: int = 0
    winner: int | None = None
    hands: list[dict[str, Any]] = field(default_factory=list)
    #: Per hand: its passes left nobody holding chips and it does not name the last payer.
    unnamed: list[bool] = field(default_factory=list)

    def holders(self) -> list[int]:
        return [p for p, n in self.chips.items() if n > 0]

    def pay(self, player: int, amount: int) -> None:
        amount = min(amount, self.chips[player])
        self.chips[player] -= amount
        self.pot += amount


@st.composite
def games(draw: st.DrawFn) -> tuple[GameConfig, list[dict[str, Any]], Model]:
    n = draw(st.integers(3, 6))
    start = draw(st.integers(1, 12))
    players = list(range(11, 11 + n))
    cfg = GAME.configure(
        players=players,
        options={"starting_chips": start},
        first_dealer=draw(st.sampled_from(players)),
    )
    model = Model(dict.fromkeys(players, start))
    for number in range(1, n + 1):
        dealer = cfg.dealer_for(number)
        due = ante_due(cfg, dealer, model.chips)
        for p in players:
            model.pay(p, due[p])
        if len(model.holders()) == 1:  # the ante ended it: the hand is never played
            model.winner = model.holders()[0]
            break
        dealt = deal_sizes(cfg, dealer)
        out = draw(st.sampled_from(players))
        passes = {p: draw(st.integers(0, 8)) for p in players}
        left = {p: 0 if p == out else draw(st.integers(1, dealt[p])) for p in players}
        hand: dict[str, Any] = {
            "winner": out,
            "results": [result(p, passes[p], left[p]) for p in players],
        }
        model.hands.append(hand)
        had_chips = model.holders()
        # The passes, one at a time in turn (from the dealer's left): the game stops the
        # moment exactly one player holds chips.
        order = [cfg.left_of(dealer, k) for k in range(1, n + 1)]
        owed = dict(passes)
        while any(owed[p] and model.chips[p] for p in order) and len(model.holders()) > 1:
            for p in order:
                if owed[p] and model.chips[p] and len(model.holders()) > 1:
                    owed[p] -= 1
                    model.pay(p, 1)
        for p in order:  # the lone holder's own passes still go in (the engine's sum)
            model.pay(p, owed[p])
        if had_chips and not model.holders():
            model.unnamed.append(draw(st.booleans()))
            if not model.unnamed[-1]:
                hand["last_chip"] = draw(st.sampled_from(had_chips))
                model.winner = hand["last_chip"]
                break
            # A hand stored before the question was asked: read as it was entered,
            # through the payments (nobody has chips to pay) to the pot.
        else:
            model.unnamed.append(False)
        if len(model.holders()) == 1:
            model.winner = model.holders()[0]
            break
        for p in players:
            if p != out:
                model.pay(p, left[p])
        if len(model.holders()) == 1 and model.holders()[0] != out:
            model.winner = model.holders()[0]  # before the pot is taken: not awarded
            break
        model.chips[out] += model.pot
        model.pot = 0
        if len(model.holders()) == 1 and number < n:
            model.winner = model.holders()[0]
            break
    return cfg, model.hands, model


@settings(max_examples=200, deadline=None)
@given(games())
def test_the_game_ends_the_moment_one_player_holds_chips(
    game: tuple[GameConfig, list[dict[str, Any]], Model],
) -> None:
    cfg, hands, model = game
    start = int(cfg.options["starting_chips"])
    total = start * len(cfg.players)
    state = GAME.play(cfg, hands)
    # Chips held plus the pot always equal starting chips × players.
    for hand in state.hands:
        assert sum(hand.totals.values()) + hand.extras["pot"] == total
        if not hand.extras["early_end"]:
            assert hand.extras["pot"] == 0
    assert sum(state.scores.values()) + state.extras["pot"] == total
    # Only an entry must name the last payer: replay reads a stored hand without it.
    assert [last_chip_unnamed(cfg, hand) for hand in state.hands] == model.unnamed
    assert state.scores == model.chips
    assert state.extras["pot"] == model.pot
    assert_competition_ranks(state.standings, key=lambda row: -row.score)
    if model.winner is not None:
        assert state.finished
        assert state.ended_by == "early"
        assert state.winners == (model.winner,)
        # Nothing can be recorded after the end.
        with pytest.raises(RuleError):
            GAME.play(cfg, [*hands, hands[-1]] if hands else [{"winner": 11}])
    else:
        assert len(state.hands) == len(cfg.players)
        assert state.ended_by == "hands"
