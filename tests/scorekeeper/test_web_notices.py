"""Words that must not go stale: the sheet's notices, the home page's game goals, and
each page's description."""

from __future__ import annotations

import html as htmllib
import re

from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Game, Player
from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.test_web_games import HTMX, post_hand, text


def start_screw_game(client: Client, user: User) -> Game:
    make_players("Ana", "Bo", "Cy", created_by=user)
    ids = [str(p.pk) for p in Player.objects.order_by("pk")]
    response = client.post(
        "/games/new/",
        {
            "ruleset": "screw-your-neighbour",
            "seat_count": "3",
            **{f"seat-{i}-player": pid for i, pid in enumerate(ids)},
            "option-target_wins": "1",
        },
    )
    assert response.status_code == 302
    return Game.objects.get()


def notice_of(html: str) -> str:
    found = re.search(r'<div id="sheet-notice"[^>]*>(.*?)</div>', html, flags=re.S)
    assert found is not None
    return htmllib.unescape(" ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split()))


def test_game_started_is_a_notice_of_the_sheet_and_goes_with_the_first_hand(
    client: Client, user: User
) -> None:
    client.force_login(user)
    game = start_screw_game(client, user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    # Shown in the sheet's notice (replaced by every save and live update), not above it.
    assert notice_of(page) == "Game started. Deal the first hand!"
    assert 'class="messages"' not in page
    winner = game.seats.order_by("position").first()
    assert winner is not None
    saved = post_hand(client, game, {"winner": str(winner.player_id)}, **HTMX)
    body = text(saved)
    assert "Game over" in body
    assert "Game started" not in body
    # And a reload shows it no more.
    assert "Game started" not in text(client.get(f"/games/{game.pk}/"))


def test_a_live_update_replaces_the_notice(client: Client, user: User) -> None:
    client.force_login(user)
    game = start_screw_game(client, user)
    client.get(f"/games/{game.pk}/")
    seat = game.seats.order_by("position").first()
    assert seat is not None
    post_hand(client, game, {"winner": str(seat.player_id)})
    live = client.get(f"/games/{game.pk}/live/?v=0&hand=1", **HTMX).content.decode()
    assert "Game started" not in live
    assert notice_of(live) == "The game was finished on another phone."


def test_the_home_page_cards_say_how_each_game_is_won(client: Client, db: None) -> None:
    body = text(client.get("/"))
    assert "3–61 players · lowest total after 6 hands (3–10 by variant) wins" in body
    assert "3–13 players · first to 3 hand wins (or the target you set, or none)" in body
    assert (
        "3–8 players · one deal by each player (or the game length you set); most chips wins"
        in body
    )
    assert "2–10 players · first past 500 wins (penalty scoring: lowest score wins)" in body
    assert "4 players · rubbers to 9 points; first to win two rubbers takes the match" in body
    assert "players · <" not in client.get("/").content.decode()


def description(client: Client, url: str) -> str:
    html = client.get(url).content.decode()
    found = re.findall(r'<meta name="description" content="([^"]*)">', html)
    assert len(found) == 1, url
    return htmllib.unescape(found[0])


def test_every_page_has_a_meaningful_description(client: Client, user: User) -> None:
    home = description(client, "/")
    assert home.startswith("Keep score at the card table")
    assert description(client, "/accounts/login/").startswith("Keep score at the card table")
    assert description(client, "/rules/").startswith("The rules of five house-rule card games")
    dirt = description(client, "/rules/dirt/")
    assert dirt.startswith("The rules of Dirt on Your Neighbor and how it is scored (3–61 players)")
    client.force_login(user)
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "dirty-uno", players)
    assert description(client, f"/games/{game.pk}/") == (
        f"Live score sheet of Dirty UNO #{game.pk} with Ana, Bo, Cy: first past 500 wins."
    )


def test_a_bad_option_is_named_by_its_label(client: Client, user: User) -> None:
    client.force_login(user)
    make_players("Ana", "Bo", "Cy", created_by=user)
    ids = [str(p.pk) for p in Player.objects.order_by("pk")]
    response = client.post(
        "/games/new/",
        {
            "ruleset": "damn-you",
            "seat_count": "3",
            **{f"seat-{i}-player": pid for i, pid in enumerate(ids)},
            "option-starting_chips": "5000",
        },
    )
    assert response.status_code == 422
    body = text(response)
    assert "Starting chips: must be between 1 and 1000" in body
    assert "starting_chips" not in body.lower().replace("option-starting_chips", "")
