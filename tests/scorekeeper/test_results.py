"""Sharing a finished game's result: the text for every game, the PNG, who may fetch it,
and the public read-only page (on, off, reopened)."""

from __future__ import annotations

import html as htmllib
import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from scorekeeper.models import Game, Player
from scorekeeper.selectors.games import game_state, game_with_related
from scorekeeper.services.games import game_close, game_reopen, hand_record
from scorekeeper.services.invites import invite_create
from scorekeeper.services.result_image import HEIGHT, WIDTH, render_result_png
from scorekeeper.services.results import Result, ResultLine, build_result
from tests.scorekeeper.factories import make_game, make_league, make_player, make_players

SYN = "screw-your-neighbour"


def finish(
    owner: User, ruleset: str, players: list[Player], hands: list[dict[str, Any]], **kw: Any
) -> Game:
    game = make_game(owner, ruleset, players, **kw)
    for hand in hands:
        hand_record(game=game, user=owner, hand_input=hand)
    game.refresh_from_db()
    if game.status != "finished":
        game_close(game=game, user=owner)
    return game_with_related(Game.objects.filter(pk=game.pk)).get()


def result_text(game: Game) -> str:
    game = game_with_related(Game.objects.filter(pk=game.pk)).get()
    return build_result(game, game_state(game)).text


@pytest.fixture
def owner_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def trio(user: User) -> list[Player]:
    return make_players("Maya", "Bob", "Cy", created_by=user)


@pytest.fixture
def won(user: User, trio: list[Player]) -> Game:
    maya, bob, _ = trio
    return finish(
        user,
        SYN,
        trio,
        [{"winner": maya.pk}, {"winner": maya.pk}, {"winner": bob.pk}],
        options={"target_wins": 0},
    )


# -- the text, game by game ----------------------------------------------------------------


def test_text_of_screw_your_neighbour_counts_hand_wins(won: Game) -> None:
    lines = result_text(won).split("\n")
    assert re.fullmatch(r"Screw Your Neighbour · \d{1,2} \w{3} \d{4} · 3 hands", lines[0])
    assert lines[1:] == [
        "🏆 Maya 2 hand wins",
        "2. Bob 1 hand win",
        "3. Cy 0 hand wins",
        "scored with scorekeeper",
    ]


def test_a_shared_win_gives_every_winner_the_trophy(user: User, trio: list[Player]) -> None:
    maya, bob, _ = trio
    game = finish(
        user, SYN, trio, [{"winner": maya.pk}, {"winner": bob.pk}], options={"target_wins": 0}
    )
    lines = result_text(game).split("\n")
    assert lines[1:3] == ["🏆 Maya 1 hand win", "🏆 Bob 1 hand win"]
    assert lines[3] == "3. Cy 0 hand wins"


def test_text_of_dirt_with_partners_names_the_teams(user: User) -> None:
    a, b, c, d = make_players("Ana", "Bo", "Cy", "Di", created_by=user)
    game = finish(
        user,
        "dirt",
        [a, b, c, d],
        [
            {
                "winner": a.pk,
                "results": [
                    {"player": b.pk, "points": 12},
                    {"player": c.pk, "points": 26},
                    {"player": d.pk, "points": 30},
                ],
            }
        ],
        teams=[[a.pk, c.pk], [b.pk, d.pk]],
    )
    lines = result_text(game).split("\n")
    assert lines[0].startswith("Dirt")
    assert "1 hand" in lines[0]
    # The team of the player who went out scores 0; dirt is won low.
    assert lines[1:3] == ["🏆 Ana & Cy 0 pts", "2. Bo & Di 42 pts"]


def test_text_of_dirty_uno_gives_points(user: User, trio: list[Player]) -> None:
    maya, bob, cy = trio
    game = finish(
        user,
        "dirty-uno",
        trio,
        [
            {
                "winner": maya.pk,
                "results": [{"player": bob.pk, "points": 30}, {"player": cy.pk, "points": 12}],
            },
        ],
    )
    text = result_text(game)
    assert text.startswith("Dirty UNO · ")
    assert "🏆 Maya 42 pts" in text.split("\n")


def test_text_of_damn_you_gives_chips(user: User, trio: list[Player]) -> None:
    maya, bob, cy = trio
    game = finish(
        user,
        "damn-you",
        trio,
        [
            {
                "winner": maya.pk,
                "results": [
                    {"player": maya.pk, "passes": 0, "cards_left": 0},
                    {"player": bob.pk, "passes": 1, "cards_left": 3},
                    {"player": cy.pk, "passes": 0, "cards_left": 2},
                ],
            },
        ],
    )
    lines = result_text(game).split("\n")
    assert lines[1].startswith("🏆 Maya ")
    assert lines[1].endswith(" chips")
    state = game_state(game)
    assert [line.split(" ")[-2] for line in lines[1:4]] == [str(r.score) for r in state.standings]


def test_text_of_dirty_deals_counts_rubbers(user: User) -> None:
    a, b, c, d = make_players("Ana", "Bo", "Cy", "Di", created_by=user)
    game = finish(
        user,
        "dirty-deals",
        [a, b, c, d],
        [
            {"winner": a.pk, "suit": "H", "surplus": ["JD", "9C"], "bower_holder": None},
        ],
    )
    text = result_text(game)
    assert text.startswith("Dirty Deals")
    assert re.search(r"^🏆 Ana 0 rubbers \+ \d+ pts$", text, re.M)


def test_a_right_to_left_name_is_isolated_in_the_text(user: User) -> None:
    players = [make_player("مريم", created_by=user), *make_players("Bob", "Cy", created_by=user)]
    game = finish(user, SYN, players, [{"winner": players[0].pk}], options={"target_wins": 0})
    assert "🏆 \u2068مريم\u2069 1 hand win" in result_text(game)


# -- the sheet's share section -------------------------------------------------------------


def test_a_finished_sheet_offers_the_result_to_share(owner_client: Client, won: Game) -> None:
    page = owner_client.get(f"/games/{won.pk}/").content.decode()
    assert 'id="result-share"' in page
    textarea = re.search(r"<textarea[^>]*data-result-text[^>]*>(.*?)</textarea>", page, re.S)
    assert textarea is not None
    assert htmllib.unescape(textarea.group(1)) == result_text(won)
    assert f'href="/games/{won.pk}/result.png?v={won.version}"' in page
    assert f'download="scorekeeper-{SYN}-{won.pk}.png"' in page
    assert "Make a public page" in page


def test_a_game_in_progress_has_no_share_section(
    owner_client: Client, user: User, trio: list[Player]
) -> None:
    game = make_game(user, SYN, trio)
    page = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="result-share"' not in page
    assert owner_client.get(f"/games/{game.pk}/result.png").status_code == 404


# -- the image -----------------------------------------------------------------------------


def test_the_image_is_a_png_with_an_etag(owner_client: Client, won: Game) -> None:
    response = owner_client.get(f"/games/{won.pk}/result.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT)
    etag = response["ETag"]
    assert str(won.version) in etag
    assert "no-cache" in response["Cache-Control"]
    again = owner_client.get(f"/games/{won.pk}/result.png", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""


def test_the_etag_changes_with_the_game(owner_client: Client, won: Game, user: User) -> None:
    before = owner_client.get(f"/games/{won.pk}/result.png")["ETag"]
    Player.objects.filter(name="Bob").update(name="Robert")
    renamed = owner_client.get(f"/games/{won.pk}/result.png", HTTP_IF_NONE_MATCH=before)
    assert renamed.status_code == 200
    assert renamed["ETag"] != before


def test_who_may_fetch_the_image(client: Client, user: User, other_user: User) -> None:
    maya = make_player("Maya", created_by=user)
    bob = make_player("Bob", created_by=user, user=other_user)  # seated, signed in
    cy = make_player("Cy", created_by=user)
    game = finish(user, SYN, [maya, bob, cy], [{"winner": maya.pk}], options={"target_wins": 0})
    url = f"/games/{game.pk}/result.png"

    assert client.get(url).status_code == 404  # anonymous
    stranger = Client()
    stranger.force_login(User.objects.create_user("zed", password="table-talk-42"))
    assert stranger.get(url).status_code == 404
    seated = Client()
    seated.force_login(other_user)
    assert seated.get(url).status_code == 200
    guest = Client()
    invite = invite_create(game=game, user=user, role="watch")
    assert guest.get(f"/join/{invite.token}/").status_code in (200, 302)
    assert guest.get(url).status_code == 200


# -- the public page -----------------------------------------------------------------------


def publish(client: Client, game: Game, action: str = "publish") -> Any:
    return client.post(f"/games/{game.pk}/result/public/", {"action": action})


def test_publish_then_unpublish(owner_client: Client, user: User, won: Game) -> None:
    response = publish(owner_client, won)
    assert response.status_code == 302
    won.refresh_from_db()
    token = won.public_token
    assert token
    assert len(token) >= 32
    sheet = owner_client.get(f"/games/{won.pk}/").content.decode()
    assert f"http://testserver/r/{token}/" in sheet
    assert "Turn the public page off" in sheet

    anon = Client()
    page = anon.get(f"/r/{token}/")
    assert page.status_code == 200
    body = page.content.decode()
    assert '<meta name="robots" content="noindex, nofollow">' in body
    assert page["X-Robots-Tag"] == "noindex"
    assert page["Cache-Control"] == "no-cache"
    assert page["Referrer-Policy"] == "no-referrer"
    og_image = re.search(r'<meta property="og:image" content="([^"]+)"', body)
    assert og_image is not None
    assert htmllib.unescape(og_image.group(1)).startswith(f"http://testserver/r/{token}/result.png")
    assert re.search(r'<meta property="og:title" content="Screw Your Neighbour · ', body)
    assert '<meta property="og:description" content="🏆 Maya 2 hand wins' in body
    assert 'name="twitter:card" content="summary_large_image"' in body
    for name in ("Maya", "Bob", "Cy", "Hand by hand"):
        assert name in body
    # Names and scores only: not the owner's account, nor the sheet's controls.
    # Random tokens (the CSRF token, the link's own) may spell "ana" by chance: drop them.
    words = re.sub(r"[A-Za-z0-9_-]{20,}", " ", body)
    assert not re.search(r"\bana\b", words, re.IGNORECASE)
    assert user.username == "ana"
    assert "/games/" not in body
    image = anon.get(f"/r/{token}/result.png")
    assert image.status_code == 200
    assert Image.open(io.BytesIO(image.content)).size == (WIDTH, HEIGHT)

    # Publishing again keeps the link.
    publish(owner_client, won)
    won.refresh_from_db()
    assert won.public_token == token

    assert publish(owner_client, won, "unpublish").status_code == 302
    won.refresh_from_db()
    assert won.public_token is None
    assert anon.get(f"/r/{token}/").status_code == 404
    assert anon.get(f"/r/{token}/result.png").status_code == 404


def test_publishing_over_htmx_swaps_the_section(owner_client: Client, won: Game) -> None:
    response = owner_client.post(
        f"/games/{won.pk}/result/public/", {"action": "publish"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith("{#") is False
    assert 'id="result-share"' in body
    assert "The public page is on" in body


def test_a_reopened_game_keeps_its_link_but_shows_no_result(
    owner_client: Client, won: Game, user: User
) -> None:
    publish(owner_client, won)
    won.refresh_from_db()
    token = won.public_token
    game_reopen(game=won, user=user)
    page = Client().get(f"/r/{token}/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "in progress again" in body
    assert "Maya" not in body
    assert "og:image" not in body
    assert Client().get(f"/r/{token}/result.png").status_code == 404
    # Finished again: the same link shows the (new) result.
    game_close(game=won, user=user)
    assert "Maya" in Client().get(f"/r/{token}/").content.decode()


def test_only_a_finished_game_can_be_published(
    owner_client: Client, user: User, trio: list[Player]
) -> None:
    game = make_game(user, SYN, trio)
    response = publish(owner_client, game)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.public_token is None


def test_who_may_publish(client: Client, user: User, other_user: User) -> None:
    maya = make_player("Maya", created_by=user)
    bob = make_player("Bob", created_by=user, user=other_user)
    cy = make_player("Cy", created_by=user)
    game = finish(user, SYN, [maya, bob, cy], [{"winner": maya.pk}], options={"target_wins": 0})
    assert publish(client, game).status_code == 404  # anonymous
    seated = Client()
    seated.force_login(other_user)
    assert publish(seated, game).status_code == 403  # may see, not change
    assert "Make a public page" not in seated.get(f"/games/{game.pk}/").content.decode()
    guest = Client()
    invite = invite_create(game=game, user=user, role="score")
    guest.post(f"/join/{invite.token}/", {"name": "Zoe"})
    assert publish(guest, game).status_code == 404
    game.refresh_from_db()
    assert game.public_token is None
    # An admin of the game's league may (as they may manage the game).
    league = make_league(user, members=[bob])
    league.memberships.update(role="admin")
    Game.objects.filter(pk=game.pk).update(league=league)
    assert publish(seated, game).status_code == 302
    game.refresh_from_db()
    assert game.public_token


@pytest.mark.parametrize("token", ["abc", "x" * 65, "%00" * 20, "a" * 20 + "%20", "..%2F" * 5])
def test_a_wrong_token_is_a_404(client: Client, db: None, token: str) -> None:
    assert client.get(f"/r/{token}/").status_code == 404
    assert client.get(f"/r/{token}/result.png").status_code == 404


# -- hostile names -------------------------------------------------------------------------

HOSTILE = [
    "مريم العلي",
    "W" * 60,
    "Zoë 🎉👩‍👩‍👧 中文",
    "שרה",
    "a\u0301\u0301\u0301",
    "<b>&amp;</b>",
]


def test_hostile_names_everywhere(owner_client: Client, user: User) -> None:
    players = [make_player(n, created_by=user) for n in HOSTILE]
    game = finish(user, SYN, players, [{"winner": players[1].pk}], options={"target_wins": 0})
    assert owner_client.get(f"/games/{game.pk}/").status_code == 200
    png = owner_client.get(f"/games/{game.pk}/result.png")
    assert png.status_code == 200
    assert Image.open(io.BytesIO(png.content)).size == (WIDTH, HEIGHT)
    publish(owner_client, game)
    game.refresh_from_db()
    page = Client().get(f"/r/{game.public_token}/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "<b>&amp;</b>" not in body
    assert "&lt;b&gt;&amp;amp;&lt;/b&gt;" in body


names = st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"]), min_size=1, max_size=60)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(names, min_size=1, max_size=8))
def test_any_names_draw(labels: list[str]) -> None:
    from datetime import date

    result = Result(
        game_id=1,
        title="Dirt (Baby)",
        day=date(2026, 11, 23),
        hands=1,
        lines=tuple(ResultLine(i + 1, label, f"{i} pts", i == 0) for i, label in enumerate(labels)),
        version=1,
    )
    image = Image.open(io.BytesIO(render_result_png(result)))
    assert image.size == (WIDTH, HEIGHT)
    assert result.text.count("\n") == len(labels) + 1


# -- the API -------------------------------------------------------------------------------


def test_api_result_and_public_page(api: Any, won: Game, anon_api: Any) -> None:
    response = api.get(f"/api/v1/games/{won.pk}/result/")
    assert response.status_code == 200
    data = response.json()
    assert data["text"] == result_text(won)
    assert data["image_url"] == f"http://testserver/games/{won.pk}/result.png?v={won.version}"
    assert data["public_url"] is None
    assert data["lines"][0] == {"place": 1, "name": "Maya", "score": "2 hand wins", "won": True}

    published = api.post(f"/api/v1/games/{won.pk}/public/")
    assert published.status_code == 200
    url = published.json()["public_url"]
    assert url.startswith("http://testserver/r/")
    assert api.post(f"/api/v1/games/{won.pk}/public/").json()["public_url"] == url
    assert Client().get(url).status_code == 200
    assert api.get(f"/api/v1/games/{won.pk}/result/").json()["public_url"] == url

    assert api.delete(f"/api/v1/games/{won.pk}/public/").status_code == 204
    assert Client().get(url).status_code == 404
    assert api.get(f"/api/v1/games/{won.pk}/result/").json()["public_url"] is None
    assert anon_api.get(f"/api/v1/games/{won.pk}/result/").status_code == 401


def test_api_refuses_what_it_must(
    api: Any, user: User, other_user: User, trio: list[Player]
) -> None:
    game = make_game(user, SYN, trio)
    assert api.get(f"/api/v1/games/{game.pk}/result/").status_code == 409
    assert api.post(f"/api/v1/games/{game.pk}/public/").status_code == 409
    assert api.get("/api/v1/games/999999/result/").status_code == 404
    bob = make_player("Bob", created_by=user, user=other_user)
    won = finish(
        user, SYN, [trio[0], bob, trio[2]], [{"winner": bob.pk}], options={"target_wins": 0}
    )
    from rest_framework.test import APIClient

    seated = APIClient()
    seated.force_authenticate(other_user)
    assert seated.get(f"/api/v1/games/{won.pk}/result/").status_code == 200
    assert seated.post(f"/api/v1/games/{won.pk}/public/").status_code == 403
    assert seated.delete(f"/api/v1/games/{won.pk}/public/").status_code == 403
    stranger = APIClient()
    stranger.force_authenticate(User.objects.create_user("zed", password="table-talk-42"))
    assert stranger.get(f"/api/v1/games/{won.pk}/result/").status_code == 404
    assert stranger.post(f"/api/v1/games/{won.pk}/public/").status_code == 404


def test_the_image_font_ships_inside_the_package() -> None:
    """Found next to the code (package data), not among static files: it works with
    DEBUG off and without collectstatic."""
    from scorekeeper.services import result_image

    path = result_image._primary_path(False)
    assert path is not None
    assert path.startswith(str(result_image.FONT_DIR))
    assert result_image._primary_path(True).endswith("DejaVuSans-Bold.ttf")  # type: ignore[union-attr]
    font, text = result_image.font_for("Zoë مريم", 20)
    assert text == "Zoë مريم"
    assert getattr(font, "path", "").startswith(str(result_image.FONT_DIR))
    # What no installed font can draw becomes a box, not an error.
    _, drawn = result_image.font_for("A\U0010fffdB", 20)
    assert drawn == "A\u25a1B"


def test_the_share_page_of_a_finished_game_points_to_its_result(
    owner_client: Client, won: Game
) -> None:
    page = owner_client.get(f"/games/{won.pk}/share/").content.decode()
    assert f'href="/games/{won.pk}/#result-share"' in page
