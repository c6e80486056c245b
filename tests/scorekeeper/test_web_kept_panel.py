"""The entry panel of a new hand, kept between requests (``scorekeeper.web.kept_panel``),
is the panel rendered afresh: the same page character for character, with this
request's own CSRF token and idempotency key."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Game
from scorekeeper.selectors.games import game_state, game_with_related
from scorekeeper.services.games import hand_record
from scorekeeper.simulate import next_hand
from scorekeeper.web import kept_panel
from tests.scorekeeper.factories import make_game, make_players

pytestmark = pytest.mark.django_db

RULESETS = ["dirt", "dirty-uno", "damn-you", "dirty-deals", "screw-your-neighbour"]
CSRF = re.compile(
    r'(name="csrfmiddlewaretoken" value=")[A-Za-z0-9]+(")|("X-CSRFToken": ")[A-Za-z0-9]+(")'
)
KEY = re.compile(r'name="idempotency_key" value="([0-9a-f]+)"')


def _same(page: str) -> str:
    """The page without what must differ between two requests."""
    page = CSRF.sub(lambda m: (m.group(1) or m.group(3)) + "…" + (m.group(2) or m.group(4)), page)
    return KEY.sub('name="idempotency_key" value="…"', page)


@pytest.fixture
def client(user: User) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _play(game: Game, hands: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(hands):
        loaded = game_with_related(Game.objects.filter(pk=game.pk)).get()
        state = game_state(loaded)
        if state.finished or state.next_hand is None:
            return
        hand_record(
            game=loaded, user=loaded.owner, hand_input=next_hand(rng, state.config, state, {})
        )


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("hands", [0, 3])
def test_a_kept_panel_is_the_panel_rendered_afresh(
    user: User, client: Client, monkeypatch: pytest.MonkeyPatch, ruleset: str, hands: int
) -> None:
    players = make_players("Ann", "Bo <b>&", 'Cy "q"', "Di'", created_by=user)
    game = make_game(user, ruleset, players)
    _play(game, hands, seed=hands)
    url = f"/games/{game.pk}/"
    kept_panel._kept.clear()
    first = client.get(url).content.decode()
    second = client.get(url).content.decode()  # from what the first one kept
    assert kept_panel._kept, "a blank new-hand panel is kept"
    monkeypatch.setattr(kept_panel, "keepable", lambda panel, context: False)
    monkeypatch.setattr(
        kept_panel, "render_kept_by", lambda nodelist, context, *_: nodelist.render(context)
    )
    fresh = client.get(url).content.decode()
    assert 'name="idempotency_key"' in fresh
    assert _same(first) == _same(fresh)
    assert _same(second) == _same(fresh)
    # Every page its own key and token, never the kept one's.
    keys = [KEY.search(p).group(1) for p in (first, second, fresh)]  # type: ignore[union-attr]
    assert len(set(keys)) == 3
    assert kept_panel._CSRF_MARK not in second
    assert kept_panel._KEY_MARK not in second


def test_the_live_answer_keeps_its_out_of_band_panel_apart(user: User, client: Client) -> None:
    players = make_players("Ann", "Bo", "Cy", created_by=user)
    game = make_game(user, "dirt", players)
    kept_panel._kept.clear()
    page = client.get(f"/games/{game.pk}/").content.decode()
    live = client.get(
        f"/games/{game.pk}/live/?v=0&hand=0", headers={"HX-Request": "true"}
    ).content.decode()
    assert '<section id="entry" class="entry-panel" aria-labelledby' in page
    assert '<section id="entry" class="entry-panel" hx-swap-oob="true"' in live


def test_a_renamed_player_is_not_shown_by_the_old_kept_panel(user: User, client: Client) -> None:
    players = make_players("Ann", "Bo", "Cy", created_by=user)
    game = make_game(user, "dirt", players)
    kept_panel._kept.clear()
    assert "Bo" in client.get(f"/games/{game.pk}/").content.decode()
    players[1].name = "Beatrix"
    players[1].save()
    page = client.get(f"/games/{game.pk}/").content.decode()
    entry = page[page.index('<section id="entry"') : page.index('<section id="sheet-actions"')]
    assert "Beatrix" in entry
    assert ">Bo<" not in entry


def test_a_kept_card_pad_is_the_pad_made_afresh_and_read_only() -> None:
    import json

    from scorekeeper.web.kept_pad import KeptPad
    from scorekeeper.web.sheet_panel import _make_pad

    for key in [("dirt", 1, 3, "4", ""), ("dirt", 10, 2, "7", ""), ("dirty-uno", 0, 0, "", "x")]:
        kept = kept_panel_pad(key)
        assert isinstance(kept, KeptPad)
        assert kept_panel_pad(key) is kept
        fresh = _make_pad(*key)
        assert kept == fresh
        assert json.dumps(kept) == json.dumps(fresh)
        with pytest.raises(TypeError):
            kept["kind"] = "other"
        assert repr(kept) == f"KeptPad{key!r}"


def kept_panel_pad(key: tuple[object, ...]) -> object:
    from scorekeeper.web.kept_pad import kept_pad
    from scorekeeper.web.sheet_panel import _make_pad

    return kept_pad(key, _make_pad)


@pytest.mark.parametrize("watcher", [False, True])
def test_a_closed_game_and_a_watcher_get_the_parts_rendered_afresh(
    user: User, other_user: User, monkeypatch: pytest.MonkeyPatch, watcher: bool
) -> None:
    from scorekeeper.services.games import game_close
    from tests.scorekeeper.factories import make_league

    players = make_players("Ann", "Bo", "Cy", created_by=user)
    league = make_league(user, "Thursday <table>", members=players)
    game = make_game(user, "dirt", players, league=league)
    _play(game, 2, seed=5)
    game_close(game=Game.objects.get(pk=game.pk), user=user)
    client = Client()
    client.force_login(user)
    if watcher:
        from scorekeeper.models import Membership

        other = make_players("Ed", created_by=other_user)[0]
        other.user = other_user
        other.save()
        Membership.objects.create(league=league, player=other)
        client.force_login(other_user)
    url = f"/games/{game.pk}/"
    kept_panel._kept.clear()
    first = client.get(url).content.decode()
    second = client.get(url).content.decode()
    monkeypatch.setattr(
        kept_panel, "render_kept_by", lambda nodelist, context, *_: nodelist.render(context)
    )
    fresh = client.get(url).content.decode()
    assert "Thursday &lt;table&gt;" in fresh
    assert _same(first) == _same(fresh)
    assert _same(second) == _same(fresh)
