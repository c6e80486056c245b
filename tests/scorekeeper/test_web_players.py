"""The players' page: rename, colour, hide and merge as plain forms (and htmx), and what
the sheet, the pickers and the league pages show afterwards."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import League, Membership, Player
from tests.scorekeeper.factories import make_players
from tests.scorekeeper.league_factories import play_syn

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def four(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", "Robert", created_by=user)


def _picker_names(html: str) -> list[str]:
    select = re.search(r'<select name="seat-0-player".*?</select>', html, re.S)
    assert select is not None
    return re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', select.group(0))


def test_the_page_lists_my_players_only(signed_in: Client, four, other_user: User) -> None:  # type: ignore[no-untyped-def]
    Player.objects.create(name="Not mine", created_by=other_user)
    html = signed_in.get("/players/").content.decode()
    for p in four:
        assert f'id="player-{p.pk}"' in html
        assert f"player-c{(p.pk - 1) % 10 + 1}" in html
    assert "Not mine" not in html
    assert 'href="/players/"' in signed_in.get("/").content.decode()  # home links the page


def test_anonymous_is_sent_to_sign_in(client: Client, four) -> None:  # type: ignore[no-untyped-def]
    assert client.get("/players/").status_code == 302
    assert client.post(f"/players/{four[0].pk}/rename/", {"name": "x"}).status_code == 302
    assert Player.objects.get(pk=four[0].pk).name == "Ana"


def test_rename_shows_on_an_old_sheet(signed_in: Client, user: User, four) -> None:  # type: ignore[no-untyped-def]
    ana, bo, cy, _ = four
    game = play_syn(user, None, [ana, bo, cy], [bo])
    response = signed_in.post(f"/players/{bo.pk}/rename/", {"name": "Boris"}, follow=True)
    assert "Renamed to Boris." in response.content.decode()
    sheet = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert "Boris" in sheet
    assert ">Bo<" not in sheet


def test_a_bad_name_is_a_message(signed_in: Client, four) -> None:  # type: ignore[no-untyped-def]
    response = signed_in.post(f"/players/{four[1].pk}/rename/", {"name": "   "}, follow=True)
    assert "A name is required." in response.content.decode()
    assert Player.objects.get(pk=four[1].pk).name == "Bo"
    nul = signed_in.post(f"/players/{four[1].pk}/rename/", {"name": "B\x00o"}, follow=True)
    assert nul.status_code == 200
    assert Player.objects.get(pk=four[1].pk).name == "Bo"


def test_htmx_rename_swaps_the_row(signed_in: Client, four) -> None:  # type: ignore[no-untyped-def]
    bo = four[1]
    url = f"/players/{bo.pk}/rename/"
    response = signed_in.post(url, {"name": "Boris"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<li class="pl-item" id="player-{bo.pk}"')
    assert "Renamed to Boris." in html
    bad = signed_in.post(f"/players/{bo.pk}/rename/", {"name": ""}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 422
    assert "A name is required." in bad.content.decode()


def test_someone_elses_player_is_404(signed_in: Client, other_user: User) -> None:
    theirs = Player.objects.create(name="Zed", created_by=other_user)
    for action in ("rename", "colour", "hide", "unhide"):
        assert signed_in.post(f"/players/{theirs.pk}/{action}/", {"name": "x"}).status_code == 404
    assert Player.objects.get(pk=theirs.pk).name == "Zed"


def test_colour_shows_on_the_sheet_and_scoreboard(signed_in: Client, user: User, four) -> None:  # type: ignore[no-untyped-def]
    ana, bo, cy, _ = four
    game = play_syn(user, None, [ana, bo, cy], [bo, ana], target=3)
    signed_in.post(f"/players/{bo.pk}/colour/", {"colour": "7"})
    assert Player.objects.get(pk=bo.pk).colour == 7
    html = signed_in.get(f"/games/{game.pk}/").content.decode()
    header = re.search(r'<table class="score-grid">.*?</thead>', html, re.S)
    assert header is not None
    assert header.group(0).count("player-dot") == 3
    assert "player-dot player-c7" in header.group(0)
    board = re.search(r'<section class="scoreboard".*?</section>', html, re.S)
    assert board is not None
    assert "player-dot player-c7" in board.group(0)
    # Three players: three different colours at the table.
    assert len(set(re.findall(r"player-c(\d+)", header.group(0)))) == 3
    signed_in.post(f"/players/{bo.pk}/colour/", {"colour": "nope"})
    assert Player.objects.get(pk=bo.pk).colour == 7
    signed_in.post(f"/players/{bo.pk}/colour/", {"colour": "auto"})
    assert Player.objects.get(pk=bo.pk).colour is None


def test_the_finished_chart_uses_the_colours(signed_in: Client, user: User, four) -> None:  # type: ignore[no-untyped-def]
    ana, bo, cy, _ = four
    Player.objects.filter(pk=bo.pk).update(colour=9)
    game = play_syn(user, None, [ana, bo, cy], [bo])
    html = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert 'class="chart-line player-c9"' in html
    assert 'class="swatch player-c9"' in html


def test_hidden_players_leave_the_pickers(signed_in: Client, user: User, four) -> None:  # type: ignore[no-untyped-def]
    ana, bo, cy, rob = four
    league = League.objects.create(name="Thursday", owner=user)
    game = play_syn(user, league, [ana, bo, cy], [bo])
    signed_in.post(f"/players/{bo.pk}/hide/")
    signed_in.post(f"/players/{rob.pk}/hide/")
    assert _picker_names(signed_in.get("/games/new/?ruleset=dirt").content.decode()) == [
        "Ana",
        "Cy",
    ]
    detail = signed_in.get(f"/leagues/{league.pk}/").content.decode()
    assert f'<option value="{rob.pk}"' not in detail  # not offered to add
    Player.objects.filter(pk=rob.pk).update(hidden=False)
    assert f'<option value="{rob.pk}"' in signed_in.get(f"/leagues/{league.pk}/").content.decode()
    # Still in the past game and the standings.
    assert "Bo" in signed_in.get(f"/games/{game.pk}/").content.decode()
    standings = re.search(r'<section id="standings".*?</section>', detail, re.S)
    assert standings is not None
    assert ">Bo<" in standings.group(0)
    # A rematch keeps a hidden player picked.
    rematch = signed_in.get(f"/games/new/?ruleset=screw-your-neighbour&from={game.pk}")
    assert f'<option value="{bo.pk}" selected>Bo</option>' in rematch.content.decode()
    page = signed_in.get("/players/?show=hidden").content.decode()
    assert "Show in pickers" in page
    assert f'id="player-{ana.pk}"' not in page
    signed_in.post(f"/players/{bo.pk}/unhide/")
    assert "Bo" in _picker_names(signed_in.get("/games/new/?ruleset=dirt").content.decode())


def test_merge_on_the_page(signed_in: Client, user: User, four) -> None:  # type: ignore[no-untyped-def]
    ana, bo, cy, rob = four
    league = League.objects.create(name="Thursday", owner=user)
    play_syn(user, league, [ana, bo, cy], [bo], minutes_ago=30)
    play_syn(user, league, [ana, rob, cy], [rob], minutes_ago=20)
    # The page asks first, saying what will happen; nothing changes until confirmed.
    asked = signed_in.post("/players/merge/", {"player": rob.pk, "into": bo.pk})
    assert asked.status_code == 200
    question = re.sub(r"\s+", " ", asked.content.decode())
    assert "<h1>Merge Robert into Bo?</h1>" in question
    assert "Robert's 1 game, their hands, 1 league membership, standings" in question
    assert "This cannot be undone." in question
    assert Player.objects.filter(pk=rob.pk).exists()
    response = signed_in.post(
        "/players/merge/", {"player": rob.pk, "into": bo.pk, "confirm": "yes"}, follow=True
    )
    html = response.content.decode()
    assert "Robert was merged into Bo: 1 game moved over." in html
    assert not Player.objects.filter(pk=rob.pk).exists()
    assert Membership.objects.filter(league=league, player=bo).exists()
    player_page = signed_in.get(f"/players/{bo.pk}/").content.decode()
    assert re.search(r"Robert was merged into <a[^>]*>Bo</a> on \d+ \w+ \d{4}", player_page)
    league_page = signed_in.get(f"/leagues/{league.pk}/").content.decode()
    assert "Robert was merged into" in league_page
    standings = re.search(r'<section id="standings".*?</section>', league_page, re.S)
    assert standings is not None
    assert "Robert" not in standings.group(0)
    # An old link to Robert's page leads to Bo's, keeping its query.
    old = signed_in.get(f"/players/{rob.pk}/?league={league.pk}")
    assert old.status_code == 302
    assert old["Location"] == f"/players/{bo.pk}/?league={league.pk}"


def test_merged_player_link_follows_chains_but_not_into_strangers(  # type: ignore[no-untyped-def]
    signed_in: Client, client: Client, user: User, four
) -> None:
    _, bo, cy, rob = four
    signed_in.post("/players/merge/", {"player": rob.pk, "into": bo.pk, "confirm": "yes"})
    signed_in.post("/players/merge/", {"player": bo.pk, "into": cy.pk, "confirm": "yes"})
    response = signed_in.get(f"/players/{rob.pk}/")
    assert response.status_code == 302
    assert response["Location"] == f"/players/{cy.pk}/"
    # Someone who may not see Cy gets the same 404 as for a player that never was.
    stranger = User.objects.create_user("stranger", password="pw-long-enough-1")
    client.force_login(stranger)
    assert client.get(f"/players/{rob.pk}/").status_code == 404


def test_merge_refusals_on_the_page(signed_in: Client, user: User, four) -> None:  # type: ignore[no-untyped-def]
    ana, bo, cy, _ = four
    play_syn(user, None, [ana, bo, cy], [bo])
    for confirm in ("", "yes"):  # refused when asked, and when confirmed
        response = signed_in.post(
            "/players/merge/", {"player": ana.pk, "into": bo.pk, "confirm": confirm}, follow=True
        )
        assert "sat at the same game" in response.content.decode()
    empty = signed_in.post("/players/merge/", {"player": "", "into": "x"}, follow=True)
    assert "Choose the player to merge" in empty.content.decode()
    assert Player.objects.count() == 4


def test_the_rating_chart_uses_the_colour(signed_in: Client, user: User, four) -> None:  # type: ignore[no-untyped-def]
    ana, bo, cy, _ = four
    Player.objects.filter(pk=bo.pk).update(colour=5)
    league = League.objects.create(name="Thursday", owner=user)
    play_syn(user, league, [ana, bo, cy], [bo], minutes_ago=30)
    play_syn(user, league, [ana, bo, cy], [ana], minutes_ago=20)
    html = signed_in.get(f"/players/{bo.pk}/?league={league.pk}").content.decode()
    assert 'class="lg-chart-line player-c5"' in html
