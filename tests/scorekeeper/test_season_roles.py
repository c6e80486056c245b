"""Who starts a league's season, by league role, on the page and over the API: the
owner, an admin and a site administrator may (the form is offered, the post starts
it); a member who records games or only looks sees no form and is refused; an account
outside the league finds no league. The one access decision
(``LeagueAccess.may_start_season``) answers the page, the API and the service alike."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.test import Client
from rest_framework.test import APIClient

from scorekeeper.models import League, MemberRole, Membership, Season
from scorekeeper.selectors.access import league_access
from scorekeeper.services.seasons import season_start
from tests.scorekeeper.factories import make_player, make_user

pytestmark = pytest.mark.django_db

FORM = "Start a new season"
REFUSED = "Only the league&#x27;s owner and admins may start a new season."

#: Who, and whether they may start a season (None: the league is not theirs to see).
MATRIX = [
    ("owner", True),
    ("admin", True),
    ("superuser", True),
    ("recorder", False),
    ("viewer", False),
    ("stranger", None),
]


@pytest.fixture
def club(db: None) -> dict[str, User]:
    """A league: its owner (a member who records games, as a creator is), an admin, a
    member who records games, one who only looks; a stranger and a site administrator."""
    people = {name: make_user(name) for name in ("owner", "admin", "recorder", "viewer")}
    people["stranger"] = make_user("stranger")
    people["superuser"] = User.objects.create_superuser("superuser", password="x-table-42")
    league = League.objects.create(name="Thursday", owner=people["owner"])
    for name, role in (
        ("owner", MemberRole.RECORDER),
        ("admin", MemberRole.ADMIN),
        ("recorder", MemberRole.RECORDER),
        ("viewer", MemberRole.VIEWER),
    ):
        player = make_player(name.title(), user=people[name], created_by=people["owner"])
        Membership.objects.create(league=league, player=player, role=role)
    return people


def _league() -> League:
    return League.objects.get(name="Thursday")


@pytest.mark.parametrize(("who", "may"), MATRIX)
def test_the_page_offers_and_takes_a_new_season_by_role(
    club: dict[str, User], who: str, may: bool | None
) -> None:
    league = _league()
    client = Client()
    client.force_login(club[who])
    page = client.get(f"/leagues/{league.pk}/")
    response = client.post(f"/leagues/{league.pk}/seasons/", {"name": "Spring"}, follow=True)
    if may is None:
        assert (page.status_code, response.status_code) == (404, 404)
        assert not Season.objects.exists()
        return
    assert page.status_code == 200
    assert (FORM in page.content.decode()) is may
    text = response.content.decode()
    if may:
        assert "“Spring” has started" in text
        assert list(Season.objects.values_list("name", "end")) == [("Spring", None)]
    else:
        assert REFUSED in text
        assert not Season.objects.exists()


@pytest.mark.parametrize(("who", "may"), MATRIX)
def test_the_api_starts_a_season_by_role(club: dict[str, User], who: str, may: bool | None) -> None:
    league = _league()
    api = APIClient()
    api.force_authenticate(club[who])
    url = f"/api/v1/leagues/{league.pk}/seasons/"
    response = api.post(url, {"name": "Spring"}, format="json")
    expected = {True: 201, False: 403, None: 404}[may]
    assert response.status_code == expected, response.content
    if may:
        assert response.json()["name"] == "Spring"
        assert Season.objects.get().name == "Spring"
    else:
        assert not Season.objects.exists()
    # Everyone who sees the league reads its seasons.
    assert api.get(url).status_code == (404 if may is None else 200)


@pytest.mark.parametrize(("who", "may"), MATRIX)
def test_the_service_asks_the_same_decision(
    club: dict[str, User], who: str, may: bool | None
) -> None:
    league = _league()
    assert league_access(club[who], league).may_start_season is bool(may)
    if may:
        season_start(league=league, user=club[who], name="Spring")
        assert Season.objects.filter(league=league).count() == 1
    else:
        with pytest.raises(PermissionDenied):
            season_start(league=league, user=club[who], name="Spring")
        assert not Season.objects.exists()


def test_an_admin_made_a_recorder_is_refused_the_next_season(club: dict[str, User]) -> None:
    league = _league()
    api = APIClient()
    api.force_authenticate(club["admin"])
    url = f"/api/v1/leagues/{league.pk}/seasons/"
    assert api.post(url, {"name": "Spring"}, format="json").status_code == 201
    owner = APIClient()
    owner.force_authenticate(club["owner"])
    player = Membership.objects.get(league=league, player__user=club["admin"]).player_id
    assert (
        owner.patch(
            f"/api/v1/leagues/{league.pk}/members/{player}/", {"role": "recorder"}, format="json"
        ).status_code
        == 200
    )
    assert api.post(url, {"name": "Summer"}, format="json").status_code == 403
    assert list(Season.objects.values_list("name", flat=True)) == ["Spring"]
