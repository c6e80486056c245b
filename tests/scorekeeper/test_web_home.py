"""The start page: the five games for everyone; for a signed-in user, their games."""

from __future__ import annotations

import html as htmllib
import re

from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.services.games import hand_record
from tests.scorekeeper.factories import make_game, make_players


def text(response: object) -> str:
    body = response.content.decode()  # type: ignore[attr-defined]
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", body, flags=re.S)
    return htmllib.unescape(" ".join(re.sub(r"<[^>]+>", " ", body).split()))


def test_everyone_sees_the_five_games_with_their_scoring(client: Client, db: None) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = text(response)
    for name in (
        "Dirt on Your Neighbor",
        "Screw Your Neighbour",
        "D$%n You!",
        "Dirty UNO",
        "Dirty Deals",
    ):
        assert name in page
    assert "Dirt rank of the hand (any suit) Overrides the rank's usual value" in page
    assert "Wild, Wild Draw Four 50" in page
    assert "No card points: the sheet counts hand wins." in page
    assert "Sign in" in page
    assert "In progress" not in page


def test_my_games_in_progress_and_recently_finished(
    client: Client, user: User, other_user: User
) -> None:
    ana, bo, cy = make_players("Ana", "Bo", "Cy", created_by=user)
    playing = make_game(user, "dirt", [ana, bo, cy], variant="tiny-baby-up")
    hand_record(
        game=playing,
        user=user,
        hand_input={
            "winner": ana.pk,
            "results": [{"player": bo.pk, "points": 3}, {"player": cy.pk, "points": 4}],
        },
    )
    done = make_game(user, "screw-your-neighbour", [ana, bo, cy], options={"target_wins": 1})
    hand_record(game=done, user=user, hand_input={"winner": cy.pk})
    theirs = make_game(other_user, "dirty-uno", make_players("Xi", "Yu", created_by=other_user))
    client.force_login(user)
    response = client.get("/")
    html = response.content.decode()
    page = text(response)
    assert 'href="/games/new/"' in html
    in_progress = page.split("In progress", 1)[1].split("Recently finished", 1)[0]
    assert "Dirt on Your Neighbor · Tiny Baby Dirt (up) Ana, Bo, Cy hand 2 of 3 just now" in (
        in_progress
    )
    finished = page.split("Recently finished", 1)[1].split("The games", 1)[0]
    assert "Screw Your Neighbour Ana, Bo, Cy ★ Cy" in finished
    assert f"/games/{theirs.pk}/" not in html
    # Each game can be started straight from its card.
    assert 'href="/games/new/?ruleset=damn-you"' in html


def test_nothing_yet(client: Client, user: User) -> None:
    client.force_login(user)
    page = text(client.get("/"))
    assert "No game in progress." in page
    assert "Finished games show here with their winners." in page
