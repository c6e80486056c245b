"""League roles: the owner and admins set what each member may do (admin, records games,
only looks) on the league page and in the API; a member who only looks is refused every
write; the owner's rights are not taken away; leaving a league asks for the password
again. (Each role × action × game state on a league's games: ``test_access``.)"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games import RuleError
from scorekeeper.models import Game, Invite, League, MemberRole, Membership, Player
from scorekeeper.services.games import hand_record
from scorekeeper.services.invites import invite_create
from scorekeeper.services.league_members import league_leave
from tests.scorekeeper.factories import make_game, make_player, make_user

SYN = "screw-your-neighbour"
PASSWORD = "table-talk-42"


class Table:
    def __init__(self) -> None:
        self.lou, self.adi, self.rex, self.vi = (make_user(n) for n in ("lou", "adi", "rex", "vi"))
        self.league = League.objects.create(name="Thursday", owner=self.lou)
        self.players: dict[str, Player] = {}
        for user, role in (
            (self.lou, MemberRole.RECORDER),
            (self.adi, MemberRole.ADMIN),
            (self.rex, MemberRole.RECORDER),
            (self.vi, MemberRole.VIEWER),
        ):
            player = make_player(user.username.title(), user=user, created_by=self.lou)
            Membership.objects.create(league=self.league, player=player, role=role)
            self.players[user.username] = player
        self.spare = make_player("Sam", created_by=self.lou)
        self.game = make_game(
            self.lou, SYN, [self.players["lou"], self.players["rex"], self.players["vi"]],
            options={"target_wins": 3}, league=self.league,
        )  # fmt: skip
        hand_record(game=self.game, user=self.lou, hand_input={"winner": self.players["lou"].pk})

    def role(self, name: str) -> str:
        return Membership.objects.get(league=self.league, player=self.players[name]).role


@pytest.fixture
def table(db: None) -> Table:
    return Table()


def _page(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _messages(response) -> str:  # type: ignore[no-untyped-def]
    return " ".join(str(m) for m in response.context["messages"])


def test_a_look_only_member_sees_the_league_and_is_refused_every_write(table: Table) -> None:
    vi, league, game = _page(table.vi), table.league, table.game
    page = vi.get(reverse("league_detail", args=[league.pk])).content.decode()
    assert "Only looks" in page
    assert "+ New game" not in page
    assert reverse("league_member_add", args=[league.pk]) not in page
    assert reverse("league_member_role", args=[league.pk, table.players["rex"].pk]) not in page
    assert vi.get(reverse("game_sheet", args=[game.pk])).status_code == 200
    # The new-game form offers only the leagues one may start games in.
    assert (
        "Thursday" not in vi.get(f"/games/new/?ruleset={SYN}&league={league.pk}").content.decode()
    )
    assert (
        "Thursday"
        in _page(table.rex).get(f"/games/new/?ruleset={SYN}&league={league.pk}").content.decode()
    )

    link = invite_create(game=game, user=table.lou, role="watch")
    members_before = set(Membership.objects.values_list("league_id", "player_id", "role"))
    added = vi.post(reverse("league_member_add", args=[league.pk]), {"name": "Zed"}, follow=True)
    assert "Only the league's owner and admins may add members." in _messages(added)
    picked = vi.post(
        reverse("league_member_add", args=[league.pk]), {"player": table.spare.pk}, follow=True
    )
    assert "Only the league's owner and admins may add members." in _messages(picked)
    promoted = vi.post(
        reverse("league_member_role", args=[league.pk, table.players["vi"].pk]),
        {"role": "admin"},
        follow=True,
    )
    assert "Only the league's owner and admins may set members' roles." in _messages(promoted)
    assert set(Membership.objects.values_list("league_id", "player_id", "role")) == members_before
    assert not Player.objects.filter(name="Zed").exists()

    refused = {
        "hand": vi.post(
            reverse("game_hand_new", args=[game.pk]),
            {"winner": str(table.players["vi"].pk), "number": "2"},
        ),
        "undo": vi.post(reverse("game_hand_undo", args=[game.pk, 1])),
        "close": vi.post(reverse("game_close", args=[game.pk])),
        "delete": vi.post(reverse("game_delete", args=[game.pk])),
        "link": vi.post(reverse("game_share", args=[game.pk]), {"role": "watch"}),
        "revoke": vi.post(reverse("game_share_revoke", args=[game.pk, link.pk])),
    }
    assert {k: r.status_code for k, r in refused.items()} == dict.fromkeys(refused, 403)
    game.refresh_from_db()
    assert (game.hand_count, game.status) == (1, "in_progress")
    assert Invite.objects.get(pk=link.pk).revoked_at is None

    api = _api(table.vi)
    pk = table.players["vi"].pk
    answers = {
        "add": api.post(f"/api/v1/leagues/{league.pk}/members/", {"player": pk}, format="json"),
        "role": api.patch(
            f"/api/v1/leagues/{league.pk}/members/{pk}/", {"role": "admin"}, format="json"
        ),
        "hand": api.post(f"/api/v1/games/{game.pk}/hands/", {"winner": pk}, format="json"),
        "close": api.post(f"/api/v1/games/{game.pk}/close/"),
        "delete": api.delete(f"/api/v1/games/{game.pk}/"),
        "link": api.post(f"/api/v1/games/{game.pk}/invites/", {"role": "score"}, format="json"),
    }
    assert {k: r.status_code for k, r in answers.items()} == dict.fromkeys(answers, 403)
    three = [table.players[n].pk for n in ("vi", "rex", "lou")]
    started = api.post(
        "/api/v1/games/",
        {"ruleset": SYN, "players": [pk, *three[1:]], "league": league.pk},
        format="json",
    )
    assert started.status_code == 400
    assert "league" in started.json()
    assert Game.objects.count() == 1
    assert table.role("vi") == "viewer"
    detail = api.get(f"/api/v1/leagues/{league.pk}/").json()
    assert detail["can_change"] is False
    assert api.get(f"/api/v1/leagues/{league.pk}/members/{pk}/").json()["role"] == "viewer"


def test_the_owner_and_admins_set_roles_on_the_league_page(table: Table) -> None:
    url = reverse("league_member_role", args=[table.league.pk, table.players["vi"].pk])
    page = _page(table.lou).get(reverse("league_detail", args=[table.league.pk])).content.decode()
    assert url in page
    done = _page(table.lou).post(url, {"role": "recorder"}, follow=True)
    assert "Vi: records games." in _messages(done)
    assert table.role("vi") == "recorder"
    # An admin may too.
    _page(table.adi).post(url, {"role": "viewer"})
    assert table.role("vi") == "viewer"
    # A member who records may not.
    refused = _page(table.rex).post(url, {"role": "admin"}, follow=True)
    assert "Only the league's owner and admins" in _messages(refused)
    assert table.role("vi") == "viewer"
    # A role that is none: a message naming it, nothing changed.
    wrong = _page(table.lou).post(url, {"role": "king"}, follow=True)
    assert "Role must be one of admin, recorder, viewer." in _messages(wrong)
    assert table.role("vi") == "viewer"


def test_the_owners_role_is_not_removable(table: Table) -> None:
    lou = table.players["lou"].pk
    url = reverse("league_member_role", args=[table.league.pk, lou])
    page = _page(table.adi).get(reverse("league_detail", args=[table.league.pk])).content.decode()
    assert url not in page
    assert "Owner" in page
    refused = _page(table.adi).post(url, {"role": "viewer"}, follow=True)
    assert "The league's owner keeps every right" in _messages(refused)
    answer = _api(table.adi).patch(
        f"/api/v1/leagues/{table.league.pk}/members/{lou}/", {"role": "viewer"}, format="json"
    )
    assert answer.status_code == 403
    assert table.role("lou") == "recorder"
    # And the owner keeps every right on the league's games whatever the row says.
    Membership.objects.filter(player_id=lou).update(role=MemberRole.VIEWER)
    game = Game.objects.get()
    closed = _page(table.lou).post(reverse("game_close", args=[game.pk]))
    assert closed.status_code == 302
    assert Game.objects.get().status == "finished"


def test_roles_in_the_api(table: Table) -> None:
    league, rex = table.league.pk, table.players["rex"].pk
    url = f"/api/v1/leagues/{league}/members/{rex}/"
    admin = _api(table.adi)
    assert admin.get(url).json() == {"id": rex, "name": "Rex", "role": "recorder"}
    promoted = admin.patch(url, {"role": "admin"}, format="json")
    assert promoted.status_code == 200
    assert promoted.json()["role"] == "admin"
    bad = admin.patch(url, {"role": "king"}, format="json")
    assert bad.status_code == 400
    assert list(bad.json()) == ["role"]
    assert admin.patch(url, {}, format="json").status_code == 400
    nobody = admin.patch(
        f"/api/v1/leagues/{league}/members/{table.spare.pk}/", {"role": "admin"}, format="json"
    )
    assert nobody.status_code == 404
    assert _api(make_user("eve")).patch(url, {"role": "viewer"}, format="json").status_code == 404
    assert table.role("rex") == "admin"
    # A member who records starts games in the league; one who only looks does not.
    started = _api(table.rex).post(
        "/api/v1/games/",
        {
            "ruleset": SYN,
            "players": [rex, *(table.players[n].pk for n in ("vi", "lou"))],
            "league": league,
        },
        format="json",
    )
    assert started.status_code == 201


def test_leaving_a_league_asks_for_the_password(table: Table) -> None:
    rex = _page(table.rex)
    url = reverse("league_leave", args=[table.league.pk])
    assert url in rex.get(reverse("league_detail", args=[table.league.pk])).content.decode()
    form = rex.get(url).content.decode()
    assert 'type="password"' in form
    for refused in ({}, {"password": ""}, {"password": "not-it"}):
        answer = rex.post(url, refused)
        assert answer.status_code == 400
        assert table.role("rex") == "recorder"
    assert "That is not your password: nothing was done." in answer.content.decode()
    left = rex.post(url, {"password": PASSWORD}, follow=True)
    assert "You have left Thursday." in _messages(left)
    assert not Membership.objects.filter(player=table.players["rex"]).exists()
    assert rex.get(reverse("league_detail", args=[table.league.pk])).status_code == 404
    # The league's games keep him.
    assert table.game.seats.filter(player=table.players["rex"]).exists()


def test_leaving_refuses_a_wrong_password_in_the_service_itself(table: Table) -> None:
    # The page and the API share this one decision: a wrong password leaves the member in.
    with pytest.raises(RuleError) as refused:
        league_leave(league=table.league, user=table.vi, password="not-it")
    assert refused.value.field == "password"
    assert table.role("vi") == "viewer"
    league_leave(league=table.league, user=table.vi, password=PASSWORD)
    assert not Membership.objects.filter(player=table.players["vi"]).exists()


def test_leaving_in_the_api_asks_for_the_password(table: Table) -> None:
    url = f"/api/v1/leagues/{table.league.pk}/leave/"
    vi = _api(table.vi)
    missing = vi.post(url, {}, format="json")
    assert missing.status_code == 400
    assert list(missing.json()) == ["password"]
    wrong = vi.post(url, {"password": "not-it"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json() == {"password": ["That is not your password: nothing was done."]}
    assert table.role("vi") == "viewer"
    assert vi.post(url, {"password": PASSWORD}, format="json").status_code == 204
    assert not Membership.objects.filter(player=table.players["vi"]).exists()
    # The owner cannot leave: they own it.
    owner = _api(table.lou).post(url, {"password": PASSWORD}, format="json")
    assert owner.status_code == 403
    page = _page(table.lou).get(reverse("league_leave", args=[table.league.pk]), follow=True)
    assert "The league's owner cannot leave it." in _messages(page)
