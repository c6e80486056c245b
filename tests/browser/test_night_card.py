"""The evening's share card on a phone: the night's page shows its standings as an image
(drawn by the server, 1200×630) beside the text, with a way to download it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.services.games import game_create, hand_record
from scorekeeper.services.nights import night_create
from tests.scorekeeper.factories import make_players

pytestmark = pytest.mark.browser


def test_the_night_page_shows_the_evening_as_an_image(
    signed_in_page: Any, live_server: Any
) -> None:
    page = signed_in_page()
    page.set_viewport_size({"width": 360, "height": 740})
    user = User.objects.get(username="ana")
    players = make_players("Bo", "Cy", "Di", created_by=user)
    night = night_create(owner=user, name="Friday at Jo's")
    for winner in (players[0], players[0], players[1]):
        game = game_create(
            owner=user, ruleset="screw-your-neighbour", players=[p.pk for p in players],
            options={"target_wins": 1}, night=night.pk,
        )  # fmt: skip
        hand_record(game=game, user=user, hand_input={"winner": winner.pk})
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    image = page.locator(".night-share-card img.result-image")
    image.scroll_into_view_if_needed()
    expect(image).to_have_js_property("naturalWidth", 1200)
    expect(image).to_have_attribute(
        "alt", "Friday at Jo's: 1. Bo 2 wins; 2. Cy 1 win; 3. Di 0 wins"
    )
    download = page.locator(".night-share-card a[download]")
    expect(download).to_have_attribute("download", f"scorekeeper-night-{night.pk}.png")
