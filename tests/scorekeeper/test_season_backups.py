"""Seasons in league backups: exported and imported with 0 differences, an export
written before seasons imports as one, and a file's seasons checked before anything is
written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games import RuleError
from scorekeeper.models import Game, League, Membership, Player, Season
from scorekeeper.selectors.league_seasons import champion, league_seasons, season_standings
from scorekeeper.selectors.leagues import standings_for_league
from scorekeeper.services.backup import league_export_json, league_import_json
from scorekeeper.services.player_admin import player_merge
from tests.scorekeeper.season_factories import play
from tests.scorekeeper.test_backup import canonical, empty_the_install
from tests.scorekeeper.test_seasons import SCOPES, _first, _key, league, six, two_seasons

pytestmark = pytest.mark.django_db

__all__ = ["league", "six", "two_seasons"]  # the fixtures, shared with test_seasons


# -- backups --------------------------------------------------------------------------


def _canonical(export: dict[str, Any]) -> dict[str, Any]:
    """The export with ids replaced by their order in the file (see test_backup), the
    seasons' tables included."""
    players = {p["id"]: index for index, p in enumerate(export["players"])}
    data = canonical(export)
    for season in data["seasons"]:
        for rows in (season["final_table"] or {}).values():
            for row in rows:
                row["player"] = players[row["player"]]
    return data


def _tables(league: League) -> dict[str, Any]:
    return {
        season.name: {
            scope or "all": _key(season_standings(season, scope or None)) for scope in SCOPES
        }
        for season in league_seasons(league)
    }


def test_seasons_survive_export_and_import_into_an_empty_install(two_seasons: League) -> None:
    Player.objects.filter(name="Ana").update(name="Ana B")  # the kept table says "Ana"
    before = league_export_json(two_seasons)
    tables = _tables(two_seasons)
    champions = {s.name: champion(s) for s in league_seasons(two_seasons)}
    assert [s["name"] for s in before["seasons"]] == ["Autumn", "Winter"]
    Season.objects.all().delete()
    empty_the_install()
    owner = User.objects.create_user("ana")

    imported = league_import_json(json.loads(json.dumps(before)), owner=owner, trusted=True)

    after = league_export_json(imported)
    assert _canonical(after) == _canonical(before)  # 0 differences
    assert _tables(imported) == tables
    got = {s.name: champion(s) for s in league_seasons(imported)}
    assert {k: v and v["name"] for k, v in got.items()} == {
        k: v and v["name"] for k, v in champions.items()
    }
    autumn = Season.objects.get(league=imported, name="Autumn")
    assert champion(autumn) is not None
    assert (
        Player.objects.get(pk=champion(autumn)["player"])
        .memberships.filter(league=imported)
        .exists()
    )


def test_an_export_without_seasons_imports_as_one(
    user: User, league: League, six: list[Player]
) -> None:
    play(user, league, _first(six))
    data = league_export_json(league)
    del data["seasons"]  # as exports were written before there were seasons
    imported = league_import_json(data, owner=user)
    [only] = league_seasons(imported)
    first_game = min(Game.objects.filter(league=imported).values_list("created_at", flat=True))
    assert (only.name, only.end) == ("Season 1", None)
    assert only.start == min(timezone.localdate(first_game), timezone.localdate(league.created_at))
    assert _key(season_standings(only)) == _key(standings_for_league(imported))


def _file_with(two_seasons: League, change: Any) -> dict[str, Any]:
    data = league_export_json(two_seasons)
    change(data["seasons"])
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.reverse(), "only the last season may still be open"),
        (lambda s: s[0].update(end=None, final_table=None), "only the last season may"),
        (lambda s: s[1].update(start=s[0]["end"]), "must follow each other"),
        (lambda s: s[1].update(name="autumn"), "two seasons are called"),
        (lambda s: s[0].update(end="1999-01-01"), "ends before it starts"),
        (lambda s: s[1].update(final_table={"": []}), "an open season has no final table"),
        (lambda s: s[0]["final_table"].update(chess=[]), "'chess' is not a game"),
        (lambda s: s[0]["final_table"][""][0].update(player=987654), "987654 is not in"),
        (lambda s: s[0].update(start="2026-02-30"), "YYYY-MM-DD"),
        (lambda s: s[0].update(start=20260101), "YYYY-MM-DD"),
        (lambda s: s[0].update(start=None), "YYYY-MM-DD (got null)"),
        (lambda s: s[0].update(end="2026-13-01"), "end: must be a day written YYYY-MM-DD"),
        (lambda s: s[0]["final_table"][""][0].update(rating="high"), "rating"),
        (lambda s: s.append({"name": "x"}), "start"),
    ],
)
def test_a_file_with_bad_seasons_is_refused_and_nothing_is_written(
    user: User, two_seasons: League, change: Any, message: str
) -> None:
    data = _file_with(two_seasons, change)
    leagues = League.objects.count()
    with pytest.raises(RuleError) as caught:
        league_import_json(json.loads(json.dumps(data)), owner=user)
    assert caught.value.field == "seasons"
    assert message in caught.value.message
    assert League.objects.count() == leagues


def test_a_kept_champion_merged_away_still_exports_and_imports(
    user: User, two_seasons: League
) -> None:
    autumn = Season.objects.get(name="Autumn")
    champ = champion(autumn)
    assert champ is not None
    # A new name with no game at all, then the champion merged into it.
    into = Player.objects.create(name="Renamed", created_by=user)
    Membership.objects.create(league=two_seasons, player=into)
    player_merge(user=user, source=champ["player"], into=into.pk)
    data = league_export_json(two_seasons)
    kept = data["seasons"][0]["final_table"][""][0]
    assert (kept["player"], kept["name"]) == (into.pk, champ["name"])
    imported = league_import_json(json.loads(json.dumps(data)), owner=user)
    new = champion(Season.objects.get(league=imported, name="Autumn"))
    assert new is not None
    assert new["name"] == champ["name"]
    assert Player.objects.get(pk=new["player"]).name == "Renamed"
