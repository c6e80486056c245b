"""Stored hand outcomes (``Hand.derived``, and the last one on the game row,
``Game.last_hand``) always equal a fresh replay of the game through the engine, whatever
mix of hands, corrections, undos and ends by hand made the game; and a write reads no
more rows for a long game than for a short one."""

from __future__ import annotations

import json
import random
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import GameState, RuleError, get_ruleset
from scorekeeper.errors import ConflictError
from scorekeeper.models import Game, Hand, Player, Seat
from scorekeeper.ratings.rebuild import rebuild_derived
from scorekeeper.selectors.games import (
    derived_of,
    game_config,
    game_state,
    last_hand_of,
    seat_results,
)
from scorekeeper.services.games import (
    game_close,
    game_create,
    game_reopen,
    hand_record,
    hand_replace,
    hand_undo,
)
from scorekeeper.simulate import next_hand

SETUPS: dict[str, dict[str, Any]] = {
    "dirt": {"variant": "full"},
    "screw-your-neighbour": {"options": {"target_wins": 4}},
    "damn-you": {"options": {"starting_chips": 6}},
    "dirty-uno": {},
    "dirty-deals": {},
}
OPERATIONS = st.lists(
    st.sampled_from(
        ["record", "record", "record", "correct", "correct", "undo", "close", "reopen"]
    ),
    max_size=14,
)


def _fresh(game: Game) -> Game:
    return Game.objects.prefetch_related("seats", "hands").get(pk=game.pk)


def _replayed(game: Game) -> GameState:
    hands = sorted(game.hands.all(), key=lambda h: h.number)
    return get_ruleset(game.ruleset).play(
        game_config(game), [h.input for h in hands], closed=game.closed
    )


def assert_snapshots_match_a_replay(game: Game) -> None:
    fresh = _fresh(game)
    replay = _replayed(fresh)
    hands = sorted(fresh.hands.all(), key=lambda h: h.number)
    assert [h.derived for h in hands] == [derived_of(o) for o in replay.hands]
    stored = game_state(fresh)
    assert stored.hands == replay.hands
    assert (stored.scores, stored.standings, stored.finished, stored.winners) == (
        replay.scores,
        replay.standings,
        replay.finished,
        replay.winners,
    )
    assert (stored.next_hand, stored.extras, stored.ended_by) == (
        replay.next_hand,
        replay.extras,
        replay.ended_by,
    )
    assert fresh.hand_count == len(replay.hands)
    last = last_hand_of(replay.hands[-1] if replay.hands else None)
    assert fresh.last_hand == json.loads(json.dumps(last))
    assert fresh.status == replay.status
    results = seat_results(replay)
    for seat in Seat.objects.filter(game=fresh):
        result = results[seat.player_id]
        assert (seat.score, seat.place, seat.won) == (result.score, result.place, result.won)


def _apply(op: str, game: Game, user: User, rng: random.Random) -> None:
    fresh = _fresh(game)
    state = game_state(fresh)
    config = state.config
    played = len(state.hands)
    try:
        if op == "record" and not state.finished:
            hand_record(game=game, user=user, hand_input=next_hand(rng, config, state, {}))
        elif op == "correct" and played:
            number = rng.randint(1, played)
            rules = get_ruleset(game.ruleset)
            before = rules.play(config, [h.input for h in state.hands[: number - 1]])
            hand = next_hand(rng, config, before, {})
            hand_replace(game=game, number=number, user=user, hand_input=hand)
        elif op == "undo" and played:
            hand_undo(game=game, number=played, user=user)
        elif op == "close" and played and not state.finished:
            game_close(game=game, user=user)
        elif op == "reopen" and fresh.closed:
            game_reopen(game=game, user=user)
    except (ConflictError, RuleError):
        pass  # refused as a whole: nothing stored changed


def _players(user: User, count: int) -> list[int]:
    return [Player.objects.create(name=f"P{i}", created_by=user).pk for i in range(count)]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    slug=st.sampled_from(sorted(SETUPS)),
    seed=st.integers(0, 2**32),
    operations=OPERATIONS,
)
def test_stored_outcomes_equal_a_fresh_replay_after_any_edits(
    user: User, slug: str, seed: int, operations: list[str]
) -> None:
    rng = random.Random(seed)
    players = _players(user, 4 if slug != "screw-your-neighbour" else 3)
    game = game_create(owner=user, ruleset=slug, players=players, **SETUPS[slug])
    for op in operations:
        _apply(op, game, user, rng)
        assert_snapshots_match_a_replay(game)


def _dirt_game(user: User, hands: int, variant: str = "full") -> Game:
    rng = random.Random(hands)
    game = game_create(owner=user, ruleset="dirt", players=_players(user, 4), variant=variant)
    for _ in range(hands):
        state = game_state(_fresh(game))
        hand_record(game=game, user=user, hand_input=next_hand(rng, state.config, state, {}))
    return game


def test_hands_stored_without_outcomes_are_read_right_and_filled_in(user: User) -> None:
    game = _dirt_game(user, 4)
    expected = game_state(_fresh(game))
    # As an import or an older version leaves them: inputs only.
    Hand.objects.filter(game=game).update(derived={})
    Game.objects.filter(pk=game.pk).update(last_hand=None)
    assert game_state(_fresh(game)).scores == expected.scores
    state = game_state(_fresh(game))
    hand_record(
        game=game, user=user, hand_input=next_hand(random.Random(1), state.config, state, {})
    )
    assert all(Hand.objects.filter(game=game).values_list("derived", flat=True))
    assert_snapshots_match_a_replay(game)


def test_rebuild_derived_recomputes_wrong_outcomes(user: User) -> None:
    game = _dirt_game(user, 3)
    hand = Hand.objects.get(game=game, number=2)
    hand.derived = {**hand.derived, "totals": [[0, 999]]}
    hand.save()
    Hand.objects.filter(game=game, number=3).update(derived={})
    report = rebuild_derived(games=[game.pk])
    assert report.games_changed == 1
    assert_snapshots_match_a_replay(game)


def _record_queries(game: Game, user: User) -> int:
    state = game_state(_fresh(game))
    hand = next_hand(random.Random(5), state.config, state, {})
    with CaptureQueriesContext(connection) as queries:
        hand_record(game=game, user=user, hand_input=hand)
    return len(queries)


def test_recording_a_hand_reads_no_hand_row_the_game_row_keeps_the_last_one(user: User) -> None:
    game = _dirt_game(user, 6)
    state = game_state(_fresh(game))
    hand = next_hand(random.Random(7), state.config, state, {})
    with CaptureQueriesContext(connection) as queries:
        hand_record(game=game, user=user, hand_input=hand)
    assert not [q for q in queries if 'FROM "scorekeeper_hand"' in q["sql"]]
    assert_snapshots_match_a_replay(game)


def test_a_game_saved_before_the_row_kept_its_last_hand_reads_it_once(user: User) -> None:
    game = _dirt_game(user, 3)
    Game.objects.filter(pk=game.pk).update(last_hand=None)  # as before the migration
    for seed in (1, 2):
        state = game_state(_fresh(game))
        hand = next_hand(random.Random(seed), state.config, state, {})
        with CaptureQueriesContext(connection) as queries:
            hand_record(game=game, user=user, hand_input=hand)
        read_hands = [q for q in queries if 'FROM "scorekeeper_hand"' in q["sql"]]
        assert len(read_hands) == (1 if seed == 1 else 0)
    assert_snapshots_match_a_replay(game)


def test_recording_a_hand_reads_as_much_for_a_long_game_as_for_a_short_one(user: User) -> None:
    short = _dirt_game(user, 1)
    long = _dirt_game(user, 8)
    assert _record_queries(short, user) == _record_queries(long, user)


def test_the_migration_stores_the_outcomes_of_hands_recorded_before_it(user: User) -> None:
    from importlib import import_module

    from django.apps import apps

    game = _dirt_game(user, 5)
    Hand.objects.filter(game=game).update(derived={})
    import_module("scorekeeper.migrations.0007_snapshots").fill_derived(apps, None)
    assert_snapshots_match_a_replay(game)
