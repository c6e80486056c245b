"""``manage.py rebuild_derived``: every derived number recomputed from the stored hands
comes out as the services kept it."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from scorekeeper.models import Game, PlayerStanding, RatingPoint, Seat
from scorekeeper.ratings.rebuild import rebuild_derived
from scorekeeper.services.games import hand_record, hand_replace
from tests.scorekeeper.league_factories import dirt_hand, play_partner_dirt, play_syn
from tests.scorekeeper.ratings.derived import points, snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("replay_mode")]


def test_rebuild_derived_reproduces_the_same_numbers(user, league, four, capsys):
    ana, bo, cy, di = four
    play_syn(user, league, four, [ana], minutes_ago=50)
    corrected = play_syn(user, league, four, [bo, bo], target=2, minutes_ago=40)
    hand_replace(game=corrected, number=2, user=None, hand_input={"winner": cy.pk})
    hand_record(game=corrected, user=None, hand_input={"winner": cy.pk})
    play_partner_dirt(user, league, [ana, cy], [bo, di], [
        dirt_hand(ana, {bo: 10, cy: 20, di: 5}),
        dirt_hand(cy, {ana: 3, bo: 4, di: 30}),
        dirt_hand(ana, {bo: 1, cy: 2, di: 9}),
    ])  # fmt: skip
    play_syn(user, None, four, [di])
    before, before_points = snapshot(league), points(league)
    seats_before = sorted(Seat.objects.values_list("id", "score", "place", "won"))

    # Wreck every derived number, then rebuild from the stored hands.
    Seat.objects.update(score=0, place=None, won=False)
    Game.objects.update(status="in_progress", hand_count=0)
    PlayerStanding.objects.all().delete()
    RatingPoint.objects.all().delete()
    call_command("rebuild_derived")

    assert sorted(Seat.objects.values_list("id", "score", "place", "won")) == seats_before
    assert set(Game.objects.values_list("status", flat=True)) == {"finished"}
    assert snapshot(league) == before
    assert points(league) == before_points
    out = capsys.readouterr().out
    assert "4 games checked, 4 changed" in out
    assert "Thursday table" in out


def test_rebuild_derived_keeps_a_set_finished_at(user, league, four):
    game = play_syn(user, league, four, [four[0]])
    finished_at = game.finished_at
    assert finished_at is not None
    rebuild_derived()
    game.refresh_from_db()
    assert game.finished_at == finished_at
