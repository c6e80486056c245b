"""Pages in German and Spanish hold no English the catalogs translate: a sentence of the
catalog shown as its English msgid on a German page is a word that missed its
``gettext`` on the way (an engine constant shown as it is, a view's label, a kit's
card). Every game's sheet (in play, with hands, and finished), its display, the game
lists, the new-game picker and form, the home page, the rules, the players, the
account and the league with each game's standings."""

from __future__ import annotations

import html
import random
import re
from functools import cache
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from games import RULESETS, get_ruleset
from scorekeeper.errors import UnlikelyHand
from scorekeeper.models import Game
from scorekeeper.selectors.games import game_state
from scorekeeper.services.games import game_close, hand_record
from tests.scorekeeper.factories import make_game, make_league, make_players

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.BASE_DIR) / "locale"
#: Sentences short enough to be a name or a word both languages share are not looked
#: for ("Standard", "Robber"…); placeholders cannot be.
SHORTEST = 14


@cache
def english_of(language: str) -> tuple[str, ...]:
    """The catalog's English sentences that ``language`` says otherwise."""
    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    return tuple(
        e.msgid
        for e in po
        if e.msgstr
        and e.msgstr != e.msgid
        and len(e.msgid) >= SHORTEST
        and not re.search(r"%|\{|<|\n", e.msgid)
    )


@cache
def english_labels(language: str) -> frozenset[str]:
    """The catalog's English words of any length that ``language`` says otherwise (not
    only in capitals): a button or heading that is exactly one of them missed its
    translation."""
    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    return frozenset(
        e.msgid
        for e in po
        if e.msgstr
        and e.msgstr.casefold() != e.msgid.casefold()
        and len(e.msgid) >= 4
        and not re.search(r"%|\{|<|\n", e.msgid)
    )


LABELS = re.compile(r"(?s)<(a|button|summary|th|label|h[1-4]|option|legend|dt)\b[^>]*>(.*?)</\1>")


def labels(page: str) -> set[str]:
    """The words of the page's buttons, links, headings and labels, each whole."""
    return {
        " ".join(html.unescape(re.sub(r"(?s)<[^>]+>", " ", inner)).split())
        for _tag, inner in LABELS.findall(page)
    }


def visible_text(page: str) -> str:
    """The page's words as a reader meets them: no scripts, styles, tags or
    attributes; one space between words."""
    body = re.sub(r"(?s)<(script|style|noscript)\b.*?</\1>", " ", page)
    body = re.sub(r"(?s)<[^>]+>", " ", body)
    return " ".join(html.unescape(body).split())


def play(game: Game, user: User, hands: int, seed: int) -> None:
    rng = random.Random(seed)
    rules = get_ruleset(game.ruleset)
    for _ in range(hands):
        state = game_state(Game.objects.get(pk=game.pk))
        if state.next_hand is None:
            return
        hand = rules.random_hand(rng, state.config, state, {})
        try:
            hand_record(game=Game.objects.get(pk=game.pk), user=user, hand_input=hand)
        except UnlikelyHand:
            continue


@pytest.fixture
def games(user: User) -> list[Game]:
    """A game of every kind with a few hands, one of each finished."""
    players = make_players("Ana", "Bo", "Cy", "Di", created_by=user)
    league = make_league(user, "Thursdays", players)
    made = []
    for n, slug in enumerate(RULESETS):
        options = {"name": "Canasta"} if slug == "custom" else None
        for finished in (False, True):
            game = make_game(user, slug, players, options=options, league=league)
            play(game, user, 3, seed=n)
            if finished and not game_state(Game.objects.get(pk=game.pk)).finished:
                game_close(game=Game.objects.get(pk=game.pk), user=user)
            made.append(game)
    return made


@pytest.mark.parametrize("language", ["de", "es"])
def test_no_page_shows_english_its_language_has(
    user: User, games: list[Game], language: str
) -> None:
    phone = Client(headers={"accept-language": language})
    phone.force_login(user)
    league = games[0].league_id
    paths = ["/", "/games/", "/games/new/", "/leagues/", f"/leagues/{league}/", "/players/"]
    paths += ["/accounts/", "/rules/", "/games/?status=finished"]
    paths += [f"/games/new/?ruleset={slug}" for slug in RULESETS]
    paths += [f"/rules/{slug}/" for slug in RULESETS]
    paths += [f"/leagues/{league}/?standings={slug}" for slug in RULESETS]
    for game in games:
        paths += [f"/games/{game.pk}/", f"/games/{game.pk}/display/"]
    english = english_of(language)
    leaks = {}
    for path in paths:
        response = phone.get(path)
        assert response.status_code == 200, path
        page = response.content.decode()
        text = visible_text(page)
        found = [sentence for sentence in english if sentence in text]
        found += sorted(labels(page) & english_labels(language))
        if found:
            leaks[path] = found
    assert not leaks, f"English on {language} pages: {leaks}"
