"""The table display at the end of a game (issue 29): the final standings, winner first,
places shared by a tie, each score in the game's own terms; never "No hands yet" once
hands were played; the live answer brings the end to a display that showed the game in
play."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import get_ruleset
from scorekeeper.models import Game
from scorekeeper.selectors.games import game_config
from scorekeeper.services.games import game_close, hand_record
from scorekeeper.simulate import next_hand
from tests.scorekeeper.factories import make_game, make_player, make_user

pytestmark = pytest.mark.django_db


def _played(slug: str, names: tuple[str, ...], hands: int) -> tuple[Game, User, Client]:
    owner = make_user("ana")
    players = [make_player(n, created_by=owner) for n in names]
    game = make_game(owner, slug, players)
    config = game_config(game)
    state = get_ruleset(slug).play(config, [])
    rng = random.Random(3)
    skill = {p.pk: 0.0 for p in players}
    for _ in range(hands):
        state = hand_record(
            game=game, user=owner, hand_input=next_hand(rng, config, state, skill)
        ).state
    client = Client()
    client.force_login(owner)
    return game, owner, client


def _lines(html: str) -> list[tuple[str, str, str]]:
    """(place, name, score with its unit) of each final line, top to bottom."""
    found = []
    for item in re.findall(r'<li class="final-line[^"]*">(.*?)</li>', html, re.S):
        text = [re.sub(r"<[^>]+>", " ", part) for part in re.findall(
            r'<span class="final-(?:place|name|score)">(.*?)</span>\s*(?=<span class="final-|$)',
            item.strip(), re.S)]  # fmt: skip
        found.append(tuple(" ".join(t.split()) for t in text))
    return found  # type: ignore[return-value]


def test_a_finished_game_shows_its_final_standings_winner_first() -> None:
    game, owner, client = _played("dirt", ("Ana", "Bo", "Cy"), 3)
    game_close(game=game, user=owner)
    html = client.get(reverse("game_display", args=[game.pk])).content.decode()
    assert "No hands yet" not in html
    assert "Final standings after 3 hands" in html
    lines = _lines(html)
    assert len(lines) == 3
    winner = html.split('class="final-winner">', 1)[1].split("</span>", 2)[1]
    assert lines[0][0] == "1st"
    assert lines[0][1] in winner
    assert all(score.endswith(" pts") for _, _, score in lines)
    totals = [int(score.split()[0].replace("\u2212", "-")) for _, _, score in lines]
    assert totals == sorted(totals)  # Dirt: the lowest total wins


def test_a_tie_shares_its_place_and_the_scores_are_in_the_games_own_terms() -> None:
    game, owner, client = _played("screw-your-neighbour", ("Ana", "Bo", "Cy"), 1)
    game_close(game=game, user=owner)
    lines = _lines(client.get(reverse("game_display", args=[game.pk])).content.decode())
    assert [place for place, _, _ in lines] == ["1st", "2nd tied", "2nd tied"]
    assert [score for _, _, score in lines] == ["1 hand win", "0 hand wins", "0 hand wins"]


def test_the_live_answer_brings_the_end_to_a_display_of_the_game_in_play() -> None:
    game, owner, client = _played("dirt", ("Ana", "Bo", "Cy"), 2)
    shown = client.get(reverse("game_display", args=[game.pk])).content.decode()
    assert "final-line" not in shown
    assert 'class="board-line' in shown
    version = Game.objects.get(pk=game.pk).version
    game_close(game=game, user=owner)
    live = client.get(reverse("game_display_live", args=[game.pk]), {"v": version})
    html = live.content.decode()
    assert live.status_code == 200
    assert 'id="display-board" class="display-board display-final"' in html
    assert len(_lines(html)) == 3
    assert "No hands yet" not in html


def test_before_the_first_hand_the_display_says_so() -> None:
    game, _owner, client = _played("dirt", ("Ana", "Bo", "Cy"), 0)
    html = client.get(reverse("game_display", args=[game.pk])).content.decode()
    assert "No hands yet" in html
    assert "final-line" not in html
