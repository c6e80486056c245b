"""D$%n You!'s "who paid the last chip?" over the API and on the score sheet.

The document: "In the unlikely event that only one player has chips, the game ends
immediately and they win (this can happen in the middle of a hand)." Passes are paid one
at a time in turn, so passes that leave nobody holding chips were last paid by the
winner: the hand names that player (``last_chip``), required only then.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from games.base import Ruleset
from games.damn_you import DamnYou
from scorekeeper.models import Game, Hand, Player, Seat
from scorekeeper.services.backup import league_export_json, league_import_json
from scorekeeper.services.games import hand_record
from scorekeeper.services.player_admin import player_merge
from tests.scorekeeper.factories import make_game, make_league, make_players
from tests.scorekeeper.ratings.derived import snapshot
from tests.scorekeeper.test_backup import canonical, empty_the_install
from tests.scorekeeper.test_web_entry_checks import beside
from tests.scorekeeper.test_web_games import post_hand

GAMES = "/api/v1/games/"


@pytest.fixture
def three(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", created_by=user)


def hand(winner: Player, rows: list[tuple[Player, int, int]], **extra: Any) -> dict[str, Any]:
    return {
        "winner": winner.pk,
        "results": [{"player": p.pk, "passes": n, "cards_left": k} for p, n, k in rows],
        **extra,
    }


def spec_game(user: User, players: list[Player]) -> Game:
    """The spec's example after hand 1: A holds 0, B 13, C 2 (5 chips each)."""
    a, b, c = players
    game = make_game(user, "damn-you", players, options={"starting_chips": 5})
    hand_record(game=game, user=user, hand_input=hand(b, [(a, 0, 8), (b, 0, 0), (c, 1, 1)]))
    return game


def post(api: APIClient, game: Game, body: Any) -> Any:
    return api.post(f"{GAMES}{game.pk}/hands/", body, format="json")


def test_api_b_wins_and_the_pot_is_not_awarded(
    api: APIClient, user: User, three: list[Player]
) -> None:
    # Spec: "A 0 / B 13 / C 2; in hand 2 A goes out, B has 5 cards left and C 3: C pays
    # his last 2 chips, only B holds chips, B wins and the pot is not awarded".
    a, b, c = three
    game = spec_game(user, three)
    response = post(api, game, hand(a, [(a, 0, 0), (b, 0, 5), (c, 0, 3)]))
    assert response.status_code == 201, response.content
    state = api.get(f"{GAMES}{game.pk}/").json()
    assert state["status"] == "finished"
    assert state["winners"] == [b.pk]
    assert state["pot"] == 8
    assert {r["player"]: r["score"] for r in state["standings"]} == {a.pk: 0, b.pk: 7, c.pk: 0}


def test_api_last_chip_required_only_when_the_passes_leave_nobody_chips(
    api: APIClient, user: User, three: list[Player]
) -> None:
    a, b, c = three
    game = spec_game(user, three)
    broke = [(a, 0, 0), (b, 20, 5), (c, 5, 3)]
    response = post(api, game, hand(a, broke))
    assert response.status_code == 400
    assert "say who paid the last chip" in " ".join(response.json()["last_chip"])
    response = post(api, game, hand(a, [(a, 0, 0), (b, 0, 5), (c, 0, 3)], last_chip=c.pk))
    assert response.status_code == 400
    assert "asked only when the passes leave nobody holding chips" in (
        " ".join(response.json()["last_chip"])
    )
    assert Hand.objects.filter(game=game).count() == 1
    response = post(api, game, hand(a, broke, last_chip=c.pk))
    assert response.status_code == 201, response.content
    state = api.get(f"{GAMES}{game.pk}/").json()
    assert state["winners"] == [c.pk]
    assert state["hands"][1]["input"]["last_chip"] == c.pk


def test_sheet_asks_who_paid_the_last_chip_only_when_it_matters(
    client: Client, user: User, three: list[Player]
) -> None:
    client.force_login(user)
    a, b, c = three
    game = spec_game(user, three)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Who paid the last chip?" in page
    assert 'id="last-chip" hidden' in page
    entry = {
        "winner": str(a.pk),
        f"passes_{b.pk}": "20",
        f"cards_left_{b.pk}": "5",
        f"passes_{c.pk}": "5",
        f"cards_left_{c.pk}": "3",
    }
    response = post_hand(client, game, entry)
    assert response.status_code == 422
    html = response.content.decode()
    assert 'id="last-chip" hidden' not in html
    assert "say who paid the last chip" in beside(html, "problems-last_chip")
    response = post_hand(client, game, {**entry, "last_chip": str(b.pk)})
    assert response.status_code in (200, 302, 303), response.content
    game.refresh_from_db()
    assert Hand.objects.get(game=game, number=2).input["last_chip"] == b.pk
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "The passes took every chip; Bo paid the last: the game ends here" in page


# -- hands stored before the sheet asked who paid the last chip ----------------------


def legacy_hand(players: list[Player]) -> dict[str, Any]:
    """Hand 2 of the spec's example with passes that leave nobody holding chips (B pays
    his 12 after the ante, C his 1) and, as every hand stored before the question was
    asked, no ``last_chip``."""
    a, b, c = players
    return hand(a, [(a, 0, 0), (b, 20, 5), (c, 5, 3)])


def legacy_game(
    user: User, players: list[Player], monkeypatch: pytest.MonkeyPatch, league: Any = None
) -> Game:
    """The spec's example (5 chips each, A 0 / B 13 / C 2 after hand 1) with hand 2
    recorded as the sheet recorded it before it asked who paid the last chip: the entry
    check of today is left out for that one write, the rest of the services as ever."""
    a, b, c = players
    game = make_game(user, "damn-you", players, options={"starting_chips": 5}, league=league)
    hand_record(game=game, user=user, hand_input=hand(b, [(a, 0, 8), (b, 0, 0), (c, 1, 1)]))
    with monkeypatch.context() as before:
        before.setattr(DamnYou, "check_entry", Ruleset.check_entry)
        hand_record(game=game, user=user, hand_input=legacy_hand(players))
    stored = Hand.objects.get(game=game, number=2)
    assert "last_chip" not in stored.input
    return game


def scores(state: dict[str, Any]) -> dict[int, int]:
    return {r["player"]: r["score"] for r in state["standings"]}


def test_a_stored_hand_without_the_last_payer_reads_as_it_was_entered(
    api: APIClient, user: User, three: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    # House reading: the player who went out (A) took the pot and, holding every chip,
    # won at once, as the sheet scored it when the hand was entered.
    a, b, c = three
    game = legacy_game(user, three, monkeypatch)
    response = api.get(f"{GAMES}{game.pk}/")
    assert response.status_code == 200
    state = response.json()
    assert state["status"] == "finished"
    assert state["winners"] == [a.pk]
    assert scores(state) == {a.pk: 15, b.pk: 0, c.pk: 0}
    assert state["pot"] == 0
    assert "last_chip" not in state["hands"][1]["input"]
    page = client_page(user, game)
    assert "Only one player holds chips: the game ends here" in page


def client_page(user: User, game: Game) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return str(response.content.decode())


def test_correcting_an_earlier_hand_replays_the_stored_one(
    api: APIClient, user: User, three: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hand 1 corrected: C did not pass (C 3, B 12 after it). Hand 2, stored without the
    # last payer, replays as entered: its passes still leave nobody holding chips and A,
    # who went out, takes all 15.
    a, b, c = three
    game = legacy_game(user, three, monkeypatch)
    url = f"{GAMES}{game.pk}/hands/1/"
    corrected = hand(b, [(a, 0, 8), (b, 0, 0), (c, 0, 1)])
    response = api.put(url, corrected, format="json")
    assert response.status_code == 200, response.content
    state = api.get(f"{GAMES}{game.pk}/").json()
    assert state["status"] == "finished"
    assert state["winners"] == [a.pk]
    assert scores(state) == {a.pk: 15, b.pk: 0, c.pk: 0}
    assert [h["number"] for h in state["hands"]] == [1, 2]
    assert state["hands"][0]["input"]["results"][2]["passes"] == 0
    # The totals after each hand add up with the hand's points, hand by hand.
    totals = {p.pk: 5 for p in three}
    for shown in state["hands"]:
        for row in shown["points"]:
            totals[row["player"]] += row["points"]
    assert totals == scores(state)


def test_the_stored_hand_itself_must_name_the_last_payer_once_corrected(
    api: APIClient, user: User, three: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, c = three
    game = legacy_game(user, three, monkeypatch)
    url = f"{GAMES}{game.pk}/hands/2/"
    stored = Hand.objects.get(game=game, number=2).input
    # Sent again as it stands: nothing changes, nothing is refused.
    response = api.put(url, legacy_hand(three), format="json")
    assert response.status_code == 200, response.content
    assert Hand.objects.get(game=game, number=2).revision == 1
    # Changed, it is a new entry: the passes leave nobody holding chips, so say who
    # paid the last one (the API's 400 naming the field), and nothing is written.
    changed = hand(a, [(a, 0, 0), (b, 19, 5), (c, 5, 3)])
    response = api.put(url, changed, format="json")
    assert response.status_code == 400
    assert "say who paid the last chip" in " ".join(response.json()["last_chip"])
    kept = Hand.objects.get(game=game, number=2)
    assert (kept.input, kept.revision) == (stored, 1)
    response = api.put(url, {**changed, "last_chip": c.pk}, format="json")
    assert response.status_code == 200, response.content
    state = api.get(f"{GAMES}{game.pk}/").json()
    assert state["winners"] == [c.pk]
    assert scores(state) == {a.pk: 0, b.pk: 0, c.pk: 0}
    assert state["pot"] == 15


def test_a_new_hand_without_the_last_payer_is_still_refused(
    api: APIClient, user: User, three: list[Player]
) -> None:
    a, b, c = three
    game = spec_game(user, three)
    response = post(api, game, legacy_hand(three))
    assert response.status_code == 400
    assert "say who paid the last chip" in " ".join(response.json()["last_chip"])
    assert Hand.objects.filter(game=game).count() == 1
    client = Client()
    client.force_login(user)
    preview = client.post(
        f"/games/{game.pk}/hands/preview/",
        {
            "winner": str(a.pk),
            f"passes_{b.pk}": "20",
            f"cards_left_{b.pk}": "5",
            f"passes_{c.pk}": "5",
            f"cards_left_{c.pk}": "3",
        },
    )
    assert preview.status_code == 200
    assert "say who paid the last chip" in preview.content.decode()


def test_rebuild_derived_replays_a_stored_game(
    user: User, three: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, c = three
    league = make_league(user, members=three)
    game = legacy_game(user, three, monkeypatch, league=league)
    seats = sorted(Seat.objects.filter(game=game).values_list("player_id", "score", "won"))
    assert seats == sorted([(a.pk, 15, True), (b.pk, 0, False), (c.pk, 0, False)])
    standings = snapshot(league)
    assert standings[("damn-you", a.pk)][1] == 1  # one win
    Seat.objects.filter(game=game).update(score=0, place=None, won=False)
    Game.objects.filter(pk=game.pk).update(status="in_progress", hand_count=0)
    Hand.objects.filter(game=game).update(derived={})
    out = io.StringIO()
    call_command("rebuild_derived", stdout=out, stderr=out)
    assert "0 could not be replayed" in out.getvalue()
    assert sorted(Seat.objects.filter(game=game).values_list("player_id", "score", "won")) == seats
    game.refresh_from_db()
    assert game.status == "finished"
    assert game.hand_count == 2
    assert snapshot(league) == standings


def test_an_older_export_with_such_a_hand_imports_with_no_differences(
    user: User, three: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    league = make_league(user, members=three)
    legacy_game(user, three, monkeypatch, league=league)
    before = league_export_json(league)
    (stored,) = before["games"]
    assert "last_chip" not in stored["hands"][1]["input"]
    empty_the_install()
    owner = User.objects.create_user("ana")

    imported = league_import_json(json.loads(json.dumps(before)), owner=owner)

    assert canonical(league_export_json(imported)) == canonical(before)  # 0 differences
    (game,) = Game.objects.filter(league=imported)
    winners = [s.player.name for s in game.seats.all() if s.won]
    assert winners == ["Ana"]


def test_merging_a_player_of_such_a_game_replays_it(
    user: User, three: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, c = three
    game = legacy_game(user, three, monkeypatch, league=make_league(user, members=three))
    cyrus = make_players("Cyrus", created_by=user)[0]
    player_merge(user=user, source=c, into=cyrus)
    input_2 = Hand.objects.get(game=game, number=2).input
    assert {r["player"] for r in input_2["results"]} == {a.pk, b.pk, cyrus.pk}
    assert sorted(Seat.objects.filter(game=game).values_list("player_id", "score")) == sorted(
        [(a.pk, 15), (b.pk, 0), (cyrus.pk, 0)]
    )
