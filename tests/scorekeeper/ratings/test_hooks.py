"""League statistics follow the games: finishing, correcting, undoing and deleting a game
keeps standings and ratings exactly what a rebuild from the stored hands gives."""

from __future__ import annotations

import pytest

from scorekeeper.models import ALL_GAMES, Game, PlayerStanding, RatingPoint, Seat
from scorekeeper.selectors.leagues import standings_for_league
from scorekeeper.services.games import (
    game_create,
    game_delete,
    game_reopen,
    hand_record,
    hand_replace,
    hand_undo,
)
from tests.scorekeeper.league_factories import SYN, dirt_hand, play_partner_dirt, play_syn
from tests.scorekeeper.ratings.derived import assert_same_as_rebuild, expected_ratings, snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("replay_mode")]


def test_a_finished_game_rates_its_players_by_place(user, league, four):
    ana, bo, cy, di = four
    play_syn(user, league, four, [bo])

    rows = {r["name"]: r for r in standings_for_league(league)}
    want = expected_ratings([[([bo], 1), ([ana], 2), ([cy], 2), ([di], 2)]])
    assert rows["Bo"]["rank"] == 1
    assert rows["Bo"]["wins"] == 1
    assert rows["Ana"]["wins"] == 0
    assert rows["Ana"]["avg_place"] == 2
    for player in four:
        standing = PlayerStanding.objects.get(league=league, ruleset=ALL_GAMES, player=player)
        assert (standing.mu, standing.sigma) == pytest.approx(want[player.pk])
        assert standing.rating == pytest.approx(want[player.pk][0] - 3 * want[player.pk][1])
    # The same numbers for the game's own standings.
    assert snapshot(league)[(SYN, bo.pk)] == snapshot(league)[(ALL_GAMES, bo.pk)]


def test_games_in_progress_and_games_without_a_league_are_not_rated(user, league, four):
    bo = four[1]
    play_syn(user, league, four, [bo], target=2)  # one hand win short of the target
    play_syn(user, None, four, [bo])
    assert standings_for_league(league) == []
    assert not RatingPoint.objects.exists()


def test_a_shared_first_place_counts_as_a_win_for_both(user, league, four):
    ana, bo, cy, di = four
    play_syn(user, league, four, [ana, bo], target=3, close=True)

    rows = {r["name"]: r for r in standings_for_league(league)}
    assert (rows["Ana"]["wins"], rows["Bo"]["wins"], rows["Cy"]["wins"]) == (1, 1, 0)
    assert rows["Ana"]["rating"] == rows["Bo"]["rating"]
    assert rows["Ana"]["avg_place"] == rows["Bo"]["avg_place"] == 1
    assert rows["Cy"]["avg_place"] == 3
    want = expected_ratings([[([ana], 1), ([bo], 1), ([cy], 3), ([di], 3)]])
    assert PlayerStanding.objects.get(league=league, ruleset="", player=ana).mu == (
        pytest.approx(want[ana.pk][0])
    )


def test_ratings_are_provisional_for_a_players_first_games(user, league, four):
    ana, bo, cy, di = four
    for _ in range(4):
        play_syn(user, league, [ana, bo, cy], [ana])
    rows = {r["name"]: r for r in standings_for_league(league)}
    assert rows["Ana"]["games"] == 4
    assert rows["Ana"]["provisional"] is True

    play_syn(user, league, [ana, bo, di], [ana])
    rows = {r["name"]: r for r in standings_for_league(league)}
    assert rows["Ana"]["provisional"] is False
    assert rows["Bo"]["provisional"] is False
    assert rows["Di"]["provisional"] is True
    assert rows["Ana"]["win_rate"] == 1.0


def test_partner_dirt_rates_each_team_as_one_entry(user, league, four):
    ana, bo, cy, di = four
    # Ana and Cy against Bo and Di; Bo's team goes out every hand, so it finishes first.
    hands = [
        dirt_hand(bo, {ana: 10, cy: 20, di: 5}),
        dirt_hand(di, {ana: 3, cy: 4, bo: 30}),
        dirt_hand(bo, {ana: 1, cy: 2, di: 9}),
    ]
    game = play_partner_dirt(user, league, [ana, cy], [bo, di], hands)
    assert game.status == "finished"

    want = expected_ratings([[([bo, di], 1), ([ana, cy], 2)]])
    rows = {r["name"]: r for r in standings_for_league(league, "dirt")}
    assert rows["Bo"]["wins"] == rows["Di"]["wins"] == 1
    assert rows["Ana"]["avg_place"] == rows["Cy"]["avg_place"] == 2
    for player in four:
        standing = PlayerStanding.objects.get(league=league, ruleset="dirt", player=player)
        assert (standing.mu, standing.sigma) == pytest.approx(want[player.pk])
    # Two entries of two, not four players: a 1-vs-1 of teams moves mu further than a
    # four-way game where three share second place would.
    assert rows["Bo"]["rating"] == rows["Di"]["rating"]


def test_ratings_follow_the_order_games_were_started(user, league, four):
    ana, bo, cy, di = four
    # Played out of order: the game started first finishes last.
    early = play_syn(user, league, four, [], target=1, minutes_ago=60)
    play_syn(user, league, four, [cy], minutes_ago=30)
    hand_record(game=early, user=None, hand_input={"winner": ana.pk})

    want = expected_ratings([
        [([ana], 1), ([bo], 2), ([cy], 2), ([di], 2)],
        [([cy], 1), ([ana], 2), ([bo], 2), ([di], 2)],
    ])  # fmt: skip
    for player in four:
        standing = PlayerStanding.objects.get(league=league, ruleset="", player=player)
        assert (standing.mu, standing.sigma) == pytest.approx(want[player.pk])
    assert_same_as_rebuild(league)


def test_correcting_an_older_game_replays_every_later_rating(user, league, four):
    ana, bo, cy, di = four
    first = play_syn(user, league, four, [ana], minutes_ago=50)
    play_syn(user, league, four, [bo], minutes_ago=40)
    play_syn(user, league, [ana, bo, cy], [cy], minutes_ago=30)

    hand_replace(game=first, number=1, user=None, hand_input={"winner": di.pk})

    want = expected_ratings([
        [([di], 1), ([ana], 2), ([bo], 2), ([cy], 2)],
        [([bo], 1), ([ana], 2), ([cy], 2), ([di], 2)],
        [([cy], 1), ([ana], 2), ([bo], 2)],
    ])  # fmt: skip
    rows = {r["name"]: r for r in standings_for_league(league)}
    assert rows["Di"]["wins"] == 1
    assert rows["Ana"]["wins"] == 0
    for player in four:
        standing = PlayerStanding.objects.get(league=league, ruleset="", player=player)
        assert (standing.mu, standing.sigma) == pytest.approx(want[player.pk])
    assert_same_as_rebuild(league)


def test_a_correction_that_keeps_the_ranking_rewrites_nothing(user, league, four):
    ana, bo, cy, _ = four
    game = game_create(
        owner=user, ruleset="dirt", variant="tiny-baby-down",
        players=[ana.pk, bo.pk, cy.pk], league=league,
    )  # fmt: skip
    for _ in range(3):
        hand_record(game=game, user=None, hand_input=dirt_hand(ana, {bo: 10, cy: 20}))
    before = list(RatingPoint.objects.order_by("id").values_list("id", "rating"))
    assert len(before) == 6

    # Bo had 12, not 10: his total changes, the ranking does not.
    hand_replace(game=game, number=1, user=None, hand_input=dirt_hand(ana, {bo: 12, cy: 20}))

    assert Seat.objects.get(game=game, player=bo).score == 32
    assert list(RatingPoint.objects.order_by("id").values_list("id", "rating")) == before


def test_undoing_the_last_hand_of_a_finished_game_takes_it_out(user, league, four):
    ana, bo, cy, di = four
    play_syn(user, league, four, [ana], minutes_ago=30)
    second = play_syn(user, league, [ana, bo, cy], [bo])
    assert {r["name"]: r["games"] for r in standings_for_league(league)}["Bo"] == 2

    hand_undo(game=second, number=1, user=None)

    rows = {r["name"]: r for r in standings_for_league(league)}
    assert rows["Bo"]["games"] == 1
    assert rows["Bo"]["wins"] == 0
    want = expected_ratings([[([ana], 1), ([bo], 2), ([cy], 2), ([di], 2)]])
    standing = PlayerStanding.objects.get(league=league, ruleset="", player=bo)
    assert (standing.mu, standing.sigma) == pytest.approx(want[bo.pk])
    assert_same_as_rebuild(league)


def test_reopening_a_game_ended_by_hand_takes_it_out(user, league, four):
    ana = four[0]
    game = play_syn(user, league, four, [ana], target=3, close=True)
    assert len(standings_for_league(league)) == 4
    game_reopen(game=game, user=None)
    assert standings_for_league(league) == []
    assert not RatingPoint.objects.exists()


def test_deleting_a_game_recomputes_the_league(user, league, make_players, four):
    ana, bo, cy, di = four
    (eve,) = make_players("Eve")
    play_syn(user, league, four, [ana], minutes_ago=50)
    middle = play_syn(user, league, [ana, bo, eve], [eve], minutes_ago=40)
    play_syn(user, league, four, [bo], minutes_ago=30)

    game_delete(game=middle, user=None)

    names = {r["name"] for r in standings_for_league(league)}
    assert names == {"Ana", "Bo", "Cy", "Di"}  # Eve played only the deleted game
    want = expected_ratings([
        [([ana], 1), ([bo], 2), ([cy], 2), ([di], 2)],
        [([bo], 1), ([ana], 2), ([cy], 2), ([di], 2)],
    ])  # fmt: skip
    for player in four:
        standing = PlayerStanding.objects.get(league=league, ruleset="", player=player)
        assert (standing.mu, standing.sigma) == pytest.approx(want[player.pk])
    assert not RatingPoint.objects.filter(game__isnull=True).exists()
    assert_same_as_rebuild(league)


def test_a_game_deleted_behind_the_services_back_is_caught_up(user, league, four):
    ana, bo, cy, _ = four
    play_syn(user, league, four, [ana], minutes_ago=50)
    stray = play_syn(user, league, four, [cy], minutes_ago=40)
    Game.objects.filter(pk=stray.pk).delete()  # e.g. in the admin, without the hook
    play_syn(user, league, four, [bo], minutes_ago=30)

    assert not RatingPoint.objects.filter(game__isnull=True).exists()
    assert_same_as_rebuild(league)
    assert {r["name"]: r["games"] for r in standings_for_league(league)}["Cy"] == 2


def test_each_game_has_its_own_standings_beside_all_games(user, league, four):
    ana, bo, cy, di = four
    play_syn(user, league, four, [ana])
    play_partner_dirt(user, league, [ana, cy], [bo, di], [
        dirt_hand(bo, {ana: 10, cy: 20, di: 5}),
        dirt_hand(bo, {ana: 3, cy: 4, di: 30}),
        dirt_hand(bo, {ana: 1, cy: 2, di: 9}),
    ])  # fmt: skip
    assert {r["name"]: r["games"] for r in standings_for_league(league)} == dict.fromkeys(
        ["Ana", "Bo", "Cy", "Di"], 2
    )
    assert {r["name"]: r["games"] for r in standings_for_league(league, SYN)}["Bo"] == 1
    assert {r["name"]: r["wins"] for r in standings_for_league(league, "dirt")}["Bo"] == 1
