"""The game services both edges share: stale hands, revision history, reopening."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.errors import StaleHandError
from scorekeeper.models import Hand, HandRevision, League
from scorekeeper.services.games import game_create, hand_record, hand_undo


def _screw_game(user: User, make_players) -> tuple:  # type: ignore[no-untyped-def]
    players = make_players("Ana", "Bo", "Cy")
    game = game_create(owner=user, ruleset="screw-your-neighbour", players=[p.pk for p in players])
    return game, players


def test_a_hand_entered_as_a_number_already_taken_is_not_doubled(user, make_players) -> None:  # type: ignore[no-untyped-def]
    game, players = _screw_game(user, make_players)
    hand_record(game=game, user=user, hand_input={"winner": players[0].pk}, expected_number=1)
    with pytest.raises(StaleHandError, match="Hand 1 was already recorded"):
        hand_record(game=game, user=user, hand_input={"winner": players[1].pk}, expected_number=1)
    assert list(Hand.objects.filter(game=game).values_list("number", flat=True)) == [1]


def test_a_retried_request_returns_the_first_answer_even_when_its_number_is_stale(  # type: ignore[no-untyped-def]
    user, make_players
) -> None:
    game, players = _screw_game(user, make_players)
    first = hand_record(
        game=game,
        user=user,
        hand_input={"winner": players[0].pk},
        idempotency_key="k1",
        expected_number=1,
    )
    again = hand_record(
        game=game,
        user=user,
        hand_input={"winner": players[0].pk},
        idempotency_key="k1",
        expected_number=1,
    )
    assert again.replayed
    assert again.response == first.response
    assert Hand.objects.filter(game=game).count() == 1


def test_a_hand_undone_and_recorded_again_continues_its_history(user, make_players) -> None:  # type: ignore[no-untyped-def]
    game, players = _screw_game(user, make_players)
    hand_record(game=game, user=user, hand_input={"winner": players[0].pk})
    hand_undo(game=game, number=1, user=user)
    written = hand_record(game=game, user=user, hand_input={"winner": players[1].pk})
    assert written.response["revision"] == 3
    history = HandRevision.objects.filter(game=game, number=1).order_by("revision")
    assert [(r.revision, r.action) for r in history] == [
        (1, "recorded"),
        (2, "undone"),
        (3, "recorded"),
    ]


def test_new_game_from_a_league_page_preselects_the_league(user) -> None:  # type: ignore[no-untyped-def]
    league = League.objects.create(name="Thursday", owner=user)
    client = Client()
    client.force_login(user)
    choose = client.get(f"/games/new/?league={league.pk}")
    assert f"ruleset=dirt&amp;league={league.pk}" in choose.content.decode()
    form = client.get(f"/games/new/?ruleset=dirt&league={league.pk}").content.decode()
    assert f'<option value="{league.pk}" selected' in form
