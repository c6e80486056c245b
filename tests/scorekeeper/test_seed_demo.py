"""``manage.py seed_demo``: a living demo league, loaded once."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.utils import timezone

from games import RULESETS
from scorekeeper.models import Game, Hand, HandRevision, League, Player
from scorekeeper.selectors.leagues import standings_for_league

pytestmark = pytest.mark.django_db


def test_seed_demo_loads_a_year_of_game_nights_once() -> None:
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert "Loaded the demo league" in out.getvalue()

    user = authenticate(username="demo", password="demo")
    assert user is not None
    league = League.objects.get(name="Thursday Card Club")
    assert league.owner == user
    demo_player = Player.objects.get(user=user)
    assert league.members.count() == 10
    assert league.members.filter(pk=demo_player.pk).exists()

    games = Game.objects.filter(league=league)
    assert games.count() > 80
    for slug in RULESETS:
        assert games.filter(ruleset=slug, status="finished").exists(), slug
    in_progress = games.filter(status="in_progress")
    assert in_progress.values("ruleset").distinct().count() >= 3
    assert all(g.seats.filter(player=demo_player).exists() for g in in_progress)
    # A year of weekly nights, in the past.
    finished = games.filter(status="finished").order_by("created_at")
    first, last = finished.first(), finished.last()
    assert first is not None
    assert last is not None
    assert (last.created_at - first.created_at).days > 300
    assert {timezone.localtime(g.created_at).weekday() for g in finished} == {3}  # Thursdays
    # Corrections and undos leave a history.
    assert HandRevision.objects.filter(game__league=league, action="corrected").exists()
    assert HandRevision.objects.filter(game__league=league, action="undone").exists()
    assert Hand.objects.filter(game__league=league, revision__gt=1).exists()

    standings = standings_for_league(league)
    assert len(standings) == 10
    assert standings[0]["rating"] > standings[-1]["rating"]
    assert len(standings_for_league(league, "dirty-deals")) >= 4

    # Two seasons: the first closed with its final table and champion, "Autumn" under way.
    first_season, autumn = league.seasons.order_by("start")
    assert (first_season.name, autumn.name) == ("Season 1", "Autumn")
    assert first_season.end is not None
    assert first_season.final_table
    assert autumn.end is None
    assert all(timezone.localdate(g.created_at) >= autumn.start for g in in_progress)

    counts = (Game.objects.count(), Hand.objects.count(), Player.objects.count())
    again = io.StringIO()
    call_command("seed_demo", stdout=again)
    assert "already loaded" in again.getvalue()
    assert (Game.objects.count(), Hand.objects.count(), Player.objects.count()) == counts
    assert League.objects.filter(name="Thursday Card Club").count() == 1
