"""Managing players (services.player_admin): rename, colour, hide, merge, and who may."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import RuleError
from scorekeeper.models import (
    Game,
    Hand,
    HandRevision,
    League,
    Membership,
    Player,
    PlayerMerge,
    PlayerStanding,
    RatingPoint,
    Seat,
)
from scorekeeper.ratings.rebuild import rebuild_derived
from scorekeeper.selectors.games import game_state, game_with_related
from scorekeeper.selectors.player_colours import default_colour, table_colours
from scorekeeper.services.games import hand_replace
from scorekeeper.services.player_admin import (
    NoSuchPlayer,
    NotManageable,
    parse_colour,
    player_merge,
    player_update,
    players_managed_by,
)
from tests.scorekeeper.league_factories import dirt_hand, play_partner_dirt, play_syn
from tests.scorekeeper.ratings.derived import points, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True, params=["inline", "background"])
def replay_mode(request, monkeypatch) -> str:  # type: ignore[no-untyped-def]
    """Merges re-rated on the request, and left to the background task (run at once by
    the test settings) one game per chunk."""
    if request.param == "background":
        monkeypatch.setattr("scorekeeper.ratings.hooks.INLINE_POINTS", 0)
        monkeypatch.setattr("scorekeeper.ratings.backlog.CHUNK_GAMES", 1)
        monkeypatch.setattr("scorekeeper.ratings.backlog.MIN_CHUNK_GAMES", 1)
        monkeypatch.setattr("scorekeeper.ratings.backlog.CHUNK_SECONDS", 0.0)
    return str(request.param)


@pytest.fixture
def league(user: User) -> League:
    return League.objects.create(name="Thursday table", owner=user)


@pytest.fixture
def five(make_players) -> list[Player]:  # type: ignore[no-untyped-def]
    return make_players("Ana", "Bo", "Cy", "Di", "Robert")


def rebuilt(league: League) -> tuple[object, object]:
    rebuild_derived(leagues=[league.pk], games=[])
    return snapshot(league), points(league)


# -- rename, colour, hide ----------------------------------------------------------------


def test_a_rename_shows_in_past_games(user, five):  # type: ignore[no-untyped-def]
    ana, bo, cy, _di, _rob = five
    game = play_syn(user, None, [ana, bo, cy], [bo])
    player_update(user=user, player=bo, name="  Boris   B ")
    fresh = game_with_related(Game.objects.filter(pk=game.pk)).get()
    assert {s.player.name for s in fresh.seats.all()} == {"Ana", "Boris B", "Cy"}
    assert Player.objects.get(pk=bo.pk).name == "Boris B"


@pytest.mark.parametrize("name", ["", "   ", "A\u202egnp", "x" * 61, None])
def test_a_bad_name_is_refused_and_nothing_changes(user, five, name):  # type: ignore[no-untyped-def]
    bo = five[1]
    if name is None:
        player_update(user=user, player=bo)  # nothing asked: nothing changes
    else:
        with pytest.raises(RuleError) as info:
            player_update(user=user, player=bo, name=name, hidden=True)
        assert info.value.field == "name"
    bo.refresh_from_db()
    assert (bo.name, bo.hidden) == ("Bo", False)


def test_colour_and_hidden(user, five):  # type: ignore[no-untyped-def]
    bo = five[1]
    player_update(user=user, player=bo, colour=3, hidden=True)
    bo.refresh_from_db()
    assert (bo.colour, bo.hidden) == (3, True)
    player_update(user=user, player=bo, colour=None, hidden=False)
    bo.refresh_from_db()
    assert (bo.colour, bo.hidden) == (None, False)


@pytest.mark.parametrize("value", [0, 11, -1, "red", 2.5, True, "٣", [1]])
def test_a_colour_outside_the_palette_is_refused(value):  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as info:
        parse_colour(value)
    assert info.value.field == "colour"


@given(
    ids=st.lists(st.integers(1, 10_000), min_size=1, max_size=10, unique=True),
    chosen=st.lists(st.one_of(st.none(), st.integers(1, 10)), min_size=10, max_size=10),
)
def test_players_at_a_table_get_different_colours_where_they_can(ids, chosen) -> None:  # type: ignore[no-untyped-def]
    players = [Player(pk=pid, name="x", colour=c) for pid, c in zip(ids, chosen, strict=False)]
    colours = table_colours(players)
    assert set(colours) == set(ids)
    for p in players:
        if p.colour:
            assert colours[p.pk] == p.colour  # a chosen colour is kept
    autos = [colours[p.pk] for p in players if not p.colour]
    chosen_set = {p.colour for p in players if p.colour}
    # The automatic ones differ from each other and from the chosen ones (10 fit).
    assert len(set(autos)) == len(autos)
    assert not set(autos) & chosen_set
    assert table_colours(players) == colours  # deterministic
    assert all(1 <= c <= 10 for c in colours.values())


def test_default_colours_of_consecutive_players_differ() -> None:
    assert len({default_colour(i) for i in range(7, 17)}) == 10


# -- who may manage ----------------------------------------------------------------------


def test_someone_elses_player_is_not_found(user, other_user):  # type: ignore[no-untyped-def]
    theirs = Player.objects.create(name="Zed", created_by=other_user)
    with pytest.raises(NoSuchPlayer):
        player_update(user=user, player=theirs, name="Mine now")
    assert Player.objects.get(pk=theirs.pk).name == "Zed"


def test_a_player_seen_at_a_shared_league_is_not_managed(user, other_user):  # type: ignore[no-untyped-def]
    """A member of a league the user plays in (not owns) may be seated, not renamed."""
    own = Player.objects.create(name="Ana", user=user, created_by=user)
    theirs = Player.objects.create(name="Zed", created_by=other_user)
    league = League.objects.create(name="Theirs", owner=other_user)
    Membership.objects.create(league=league, player=own)
    Membership.objects.create(league=league, player=theirs)
    with pytest.raises(NotManageable):
        player_update(user=user, player=theirs, name="Zzz")
    assert not players_managed_by(user).filter(pk=theirs.pk).exists()
    assert players_managed_by(user).filter(pk=own.pk).exists()


def test_a_league_owner_manages_its_members_without_an_account(user, other_user):  # type: ignore[no-untyped-def]
    league = League.objects.create(name="Mine", owner=user)
    guest = Player.objects.create(name="Zed", created_by=other_user)
    account = Player.objects.create(name="Bo", created_by=other_user, user=other_user)
    Membership.objects.create(league=league, player=guest)
    Membership.objects.create(league=league, player=account)
    player_update(user=user, player=guest, name="Zed Z")
    with pytest.raises(NotManageable):
        player_update(user=user, player=account, name="Not Bo")
    # The account's owner manages their own player.
    player_update(user=other_user, player=account, colour=2)


def test_anonymous_manages_nobody(five):  # type: ignore[no-untyped-def]
    from django.contrib.auth.models import AnonymousUser

    assert not players_managed_by(AnonymousUser()).exists()


# -- merge -------------------------------------------------------------------------------


def test_a_merge_moves_everything_and_equals_a_rebuild(user, league, five):  # type: ignore[no-untyped-def]
    ana, bo, cy, di, rob = five
    Membership.objects.create(league=league, player=bo)
    games = []
    for i in range(8):
        table = [ana, cy, di, rob if i % 2 else bo]
        games.append(play_syn(user, league, table, [table[i % 4]], minutes_ago=100 - i))
    partner = play_partner_dirt(
        user, league, [rob, ana], [cy, di],
        [dirt_hand(rob, {ana: 4, cy: 5, di: 6})] * 3, minutes_ago=50,
    )  # fmt: skip
    # A corrected hand: its revisions name the player too.
    hand_replace(
        game=partner, number=1, user=user, hand_input=dirt_hand(cy, {rob: 2, ana: 3, di: 4})
    )
    assert Membership.objects.filter(league=league, player=rob).exists()
    before_games = set(Seat.objects.filter(player=rob).values_list("game_id", flat=True))

    merged = player_merge(user=user, source=rob, into=bo)

    assert merged.into.pk == bo.pk
    assert merged.games == len(before_games)
    assert not Player.objects.filter(pk=rob.pk).exists()
    assert set(Seat.objects.filter(player=bo).values_list("game_id", flat=True)) >= before_games
    assert Membership.objects.filter(league=league, player=bo).count() == 1
    for hand in Hand.objects.filter(game__league=league):
        assert rob.pk not in _player_ids(hand.input) | _player_ids(hand.derived)
    for rev in HandRevision.objects.filter(game__league=league):
        assert rob.pk not in _player_ids(rev.input)
    partner = Game.objects.get(pk=partner.pk)
    assert partner.teams == [[bo.pk, ana.pk], [cy.pk, di.pk]]
    state = game_state(game_with_related(Game.objects.filter(pk=partner.pk)).get())
    assert bo.pk in state.config.players
    assert state.hands[0].winner == cy.pk
    assert not PlayerStanding.objects.filter(player_id=rob.pk).exists()
    assert not RatingPoint.objects.filter(player_id=rob.pk).exists()
    record = PlayerMerge.objects.get()
    assert (record.from_name, record.into_id, record.by_id) == ("Robert", bo.pk, user.pk)

    after = snapshot(league), points(league)
    assert after == rebuilt(league)
    # Bo now has every game of the two.
    assert PlayerStanding.objects.get(league=league, ruleset="", player=bo).games == 9


def _player_ids(value: object) -> set[int]:
    if isinstance(value, dict):
        return {
            v
            for k, v in value.items()
            if k in {"winner", "player", "bower_holder"} and isinstance(v, int)
        } | {i for v in value.values() for i in _player_ids(v)}
    if isinstance(value, list):
        return {i for v in value for i in _player_ids(v)}
    return set()


def test_two_who_sat_together_are_not_merged(user, league, five):  # type: ignore[no-untyped-def]
    ana, bo, cy, _di, rob = five
    play_syn(user, league, [ana, bo, rob], [bo])
    play_syn(user, league, [ana, cy, rob], [rob])
    before = snapshot(league), points(league)
    with pytest.raises(RuleError) as info:
        player_merge(user=user, source=rob, into=bo)
    assert info.value.field == "into"
    assert "sat at the same game" in info.value.message
    assert Player.objects.filter(pk=rob.pk).exists()
    assert Seat.objects.filter(player=rob).count() == 2
    assert (snapshot(league), points(league)) == before
    assert not PlayerMerge.objects.exists()


def test_merge_refusals(user, other_user, five):  # type: ignore[no-untyped-def]
    ana, bo, *_ = five
    with pytest.raises(RuleError, match="themselves"):
        player_merge(user=user, source=bo, into=bo)
    theirs = Player.objects.create(name="Zed", created_by=other_user)
    with pytest.raises(RuleError) as info:
        player_merge(user=user, source=bo, into=theirs)
    assert info.value.field == "into"
    with pytest.raises(NoSuchPlayer):
        player_merge(user=user, source=theirs, into=bo)
    ana.user = user
    ana.save()
    bo.user = other_user
    bo.created_by = user
    bo.save()
    with pytest.raises(RuleError, match="account"):
        player_merge(user=user, source=bo, into=ana)
    assert Player.objects.filter(pk__in=[ana.pk, bo.pk]).count() == 2


def test_the_account_follows_the_merge(user, five):  # type: ignore[no-untyped-def]
    ana, bo, *_ = five
    Player.objects.filter(pk=ana.pk).update(user=user)
    merged = player_merge(user=user, source=ana, into=bo)
    assert merged.into.user_id == user.pk


def test_a_failing_merge_changes_nothing(user, league, five, monkeypatch):  # type: ignore[no-untyped-def]
    ana, bo, cy, di, rob = five
    play_syn(user, league, [ana, cy, rob], [rob])
    play_syn(user, league, [ana, bo, di], [bo])
    before = snapshot(league), points(league)

    def boom(*_args, **_kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("disk full")

    monkeypatch.setattr("scorekeeper.services.player_admin.rerate", boom)
    with pytest.raises(RuntimeError):
        player_merge(user=user, source=rob, into=bo)
    assert Player.objects.filter(pk=rob.pk).exists()
    assert Seat.objects.filter(player=rob).count() == 1
    assert Membership.objects.filter(player=rob).exists()
    assert (snapshot(league), points(league)) == before
    assert not PlayerMerge.objects.exists()


def test_a_merge_chain_keeps_its_record(user, five):  # type: ignore[no-untyped-def]
    ana, bo, cy, *_ = five
    player_merge(user=user, source=ana, into=bo)
    player_merge(user=user, source=bo, into=cy)
    assert sorted(PlayerMerge.objects.values_list("from_name", "into_id")) == [
        ("Ana", cy.pk),
        ("Bo", cy.pk),
    ]


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32), games=st.integers(2, 9))
def test_any_merge_leaves_the_stats_a_rebuild_gives(user, seed, games) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    league = League.objects.create(name=f"L{seed}", owner=user)
    people = [Player.objects.create(name=f"P{i}", created_by=user) for i in range(5)]
    a, b = people[3], people[4]
    for i in range(games):
        others = rng.sample(people[:3], rng.randint(2, 3))
        table = [*others, rng.choice([a, b])]
        rng.shuffle(table)
        play_syn(user, league, table, [rng.choice(table)], minutes_ago=1000 - i * rng.randint(1, 9))
    player_merge(user=user, source=a, into=b)
    after = snapshot(league), points(league)
    assert after == rebuilt(league)
