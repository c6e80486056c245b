"""Correcting a hand keeps its earlier versions, and the sheet shows who changed what."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.services.games import game_create, hand_record, hand_replace


def test_the_correction_form_shows_every_version_of_the_hand(user: User, make_players) -> None:  # type: ignore[no-untyped-def]
    ana, bo, cy, di = make_players("Ana", "Bo", "Cy", "Di")
    game = game_create(owner=user, ruleset="dirt", players=[ana.pk, bo.pk, cy.pk, di.pk])
    first = {
        "winner": ana.pk,
        "results": [
            {"player": bo.pk, "cards": ["JK", "4H"]},
            {"player": cy.pk, "points": 12},
            {"player": di.pk, "points": 3},
        ],
    }
    hand_record(game=game, user=user, hand_input=first)
    corrected = {
        **first,
        "results": [*first["results"][:1], {"player": cy.pk, "points": 21}, first["results"][2]],
    }
    hand_replace(game=game, number=1, user=user, hand_input=corrected)

    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/hands/1/").content.decode()
    assert "History of hand 1 (2 versions)" in page
    assert "Recorded</strong> by ana" in page
    assert "Corrected</strong> by ana" in page
    assert "Cy: 12 pts" in page
    assert "Cy: 21 pts" in page
    assert "Bo: JK 4H" in page
