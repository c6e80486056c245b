"""The game services both edges share: stale hands, revision history, reopening."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import HandOutcome
from scorekeeper.errors import ConflictError, StaleHandError
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
    sent = {"game": game, "user": user, "hand_input": {"winner": players[0].pk}}

    def answer(outcome: HandOutcome, revision: int) -> dict[str, int]:
        return {"number": outcome.number, "revision": revision, "winner": outcome.winner or 0}

    first = hand_record(**sent, idempotency_key="k1", expected_number=1, answer=answer)
    again = hand_record(**sent, idempotency_key="k1", expected_number=1, answer=answer)
    assert first.answer == {"number": 1, "revision": 1, "winner": players[0].pk}
    assert again.replay is not None
    assert again.replay.response == first.answer
    assert Hand.objects.filter(game=game).count() == 1


def test_a_key_kept_without_an_answer_still_refuses_a_retry_after_an_undo(  # type: ignore[no-untyped-def]
    user, make_players
) -> None:
    game, players = _screw_game(user, make_players)
    sent = {"game": game, "user": user, "hand_input": {"winner": players[0].pk}}
    hand_record(**sent, idempotency_key="k1")
    assert hand_record(**sent, idempotency_key="k1").replayed
    hand_undo(game=game, number=1, user=user)
    with pytest.raises(ConflictError, match="was undone since"):
        hand_record(**sent, idempotency_key="k1")


def test_a_hand_undone_and_recorded_again_continues_its_history(user, make_players) -> None:  # type: ignore[no-untyped-def]
    game, players = _screw_game(user, make_players)
    hand_record(game=game, user=user, hand_input={"winner": players[0].pk})
    hand_undo(game=game, number=1, user=user)
    written = hand_record(game=game, user=user, hand_input={"winner": players[1].pk})
    assert written.hand is not None
    assert written.hand.revision == 3
    history = HandRevision.objects.filter(game=game, number=1).order_by("revision")
    assert [(r.revision, r.action) for r in history] == [
        (1, "recorded"),
        (2, "undone"),
        (3, "recorded"),
    ]


def test_hands_undone_back_two_and_recorded_again_continue_each_history(user, make_players) -> None:  # type: ignore[no-untyped-def]
    game, players = _screw_game(user, make_players)
    for winner in (players[0], players[1]):
        hand_record(game=game, user=user, hand_input={"winner": winner.pk})
    hand_undo(game=game, number=2, user=user)
    hand_undo(game=game, number=1, user=user)
    again = [
        hand_record(game=game, user=user, hand_input={"winner": players[0].pk}).hand
        for _ in range(2)
    ]
    # Hands 1 and 2 continue their histories (recorded, undone).
    assert [(h.number, h.revision) for h in again if h is not None] == [(1, 3), (2, 3)]


def test_new_game_from_a_league_page_preselects_the_league(user) -> None:  # type: ignore[no-untyped-def]
    league = League.objects.create(name="Thursday", owner=user)
    client = Client()
    client.force_login(user)
    choose = client.get(f"/games/new/?league={league.pk}")
    assert f"ruleset=dirt&amp;league={league.pk}" in choose.content.decode()
    form = client.get(f"/games/new/?ruleset=dirt&league={league.pk}").content.decode()
    assert f'<option value="{league.pk}" selected' in form


def test_an_ordinary_hand_reads_no_earlier_hands_for_the_unlikely_check(  # type: ignore[no-untyped-def]
    user, make_players
) -> None:
    """A form's write asks about unlikely hands (``confirm``), yet a hand whose amounts
    stay under the ruleset's ceiling reads no history: one query fewer a hand."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scorekeeper.errors import UnlikelyHand

    ana, bo, cy = make_players("Ana", "Bo", "Cy")
    game = game_create(owner=user, ruleset="dirt", players=[ana.pk, bo.pk, cy.pk])

    def hand(points: int) -> dict:
        return {
            "winner": ana.pk,
            "results": [{"player": bo.pk, "points": points}, {"player": cy.pk, "points": 4}],
        }

    hand_record(game=game, user=user, hand_input=hand(30), confirm="")
    with CaptureQueriesContext(connection) as ordinary:
        hand_record(game=game, user=user, hand_input=hand(40), confirm="")
    with CaptureQueriesContext(connection) as high, pytest.raises(UnlikelyHand):
        hand_record(game=game, user=user, hand_input=hand(260), confirm="")  # over 250
    history = "LIMIT 50"
    assert not [q for q in ordinary.captured_queries if history in q["sql"]]
    assert [q for q in high.captured_queries if history in q["sql"]]


def test_an_unlikely_hand_is_written_only_once_confirmed(user, make_players) -> None:  # type: ignore[no-untyped-def]
    from scorekeeper.errors import UnlikelyHand
    from scorekeeper.services.games import hand_replace

    ana, bo, cy = make_players("Ana", "Bo", "Cy")
    game = game_create(owner=user, ruleset="dirt", players=[ana.pk, bo.pk, cy.pk])
    slip = {
        "winner": ana.pk,
        "results": [{"player": bo.pk, "points": 9999}, {"player": cy.pk, "points": 4}],
    }
    with pytest.raises(UnlikelyHand) as asked:
        hand_record(game=game, user=user, hand_input=slip, confirm="")
    assert [(u.player, u.amount) for u in asked.value.items] == [(bo.pk, 9999)]
    assert not Hand.objects.filter(game=game).exists()
    written = hand_record(game=game, user=user, hand_input=slip, confirm=asked.value.token)
    assert written.outcome is not None
    assert written.outcome.points[bo.pk] == 9999
    # A changed amount asks again; a caller that never asks (the API) is not asked.
    more = {**slip, "results": [{"player": bo.pk, "points": 8888}, {"player": cy.pk, "points": 4}]}
    with pytest.raises(UnlikelyHand):
        hand_replace(game=game, number=1, user=user, hand_input=more, confirm=asked.value.token)
    hand_replace(game=game, number=1, user=user, hand_input=more)
    assert Hand.objects.get(game=game, number=1).input["results"][0]["points"] == 8888
