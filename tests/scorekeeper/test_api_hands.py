"""Hands over the API: every worked example of the scoring spec played through the REST
API, idempotent retries, corrections, undo, and bad input that writes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scorekeeper.models import Game, Hand, HandRevision, IdempotencyRecord, Player
from tests.scorekeeper.factories import make_game, make_players

GAMES = "/api/v1/games/"


@pytest.fixture
def four(user: User) -> list[Player]:
    return make_players("P1", "P2", "P3", "P4", created_by=user)


def start(api: APIClient, ruleset: str, players: list[Player], **extra: Any) -> dict[str, Any]:
    response = api.post(
        GAMES, {"ruleset": ruleset, "players": [p.pk for p in players], **extra}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def record(
    api: APIClient, game: dict[str, Any] | Game, body: Any, *, expect: int = 201, **headers: str
) -> Any:
    game_id = game.pk if isinstance(game, Game) else game["id"]
    response = api.post(f"{GAMES}{game_id}/hands/", body, format="json", headers=headers)
    assert response.status_code == expect, response.content
    return response.json()


def sheet(api: APIClient, game: dict[str, Any] | Game) -> dict[str, Any]:
    game_id = game.pk if isinstance(game, Game) else game["id"]
    response = api.get(f"{GAMES}{game_id}/")
    assert response.status_code == 200
    return response.json()


def points_of(hand: dict[str, Any]) -> dict[int, int]:
    return {row["player"]: row["points"] for row in hand["points"]}


def scores_of(game: dict[str, Any]) -> dict[int, int]:
    return {row["player"]: row["score"] for row in game["standings"]}


def counted(winner: Player, **points: int) -> dict[str, Any]:
    """A shedding hand given as counted points: counted(p1, **{str(p2.pk): 10, ...})."""
    return {
        "winner": winner.pk,
        "results": [{"player": int(pid), "points": n} for pid, n in points.items()],
    }


# -- Dirt ------------------------------------------------------------------------------


def test_dirt_baby_game_with_the_worked_examples(api: APIClient, four: list[Player]) -> None:
    p1, p2, p3, p4 = four
    game = start(api, "dirt", four, variant="baby", options={"ten_points": 1})

    first = record(api, game, counted(p2, **{str(p1.pk): 5, str(p3.pk): 10, str(p4.pk): 1}))
    assert first["dirt_rank"] == "6"
    assert first["dealer"] == p1.pk

    hand2 = record(
        api,
        game,
        {
            "winner": p1.pk,
            "results": [
                {"player": p2.pk, "cards": ["JK", "4H", "4S", "KD"]},
                {"player": p3.pk, "cards": ["AS", "7C", "10D", "3H"]},
                {"player": p4.pk, "cards": "9S 2C JD"},
            ],
        },
    )
    assert hand2["number"] == 2
    assert hand2["dealer"] == p2.pk
    assert hand2["dirt_rank"] == "4"
    assert points_of(hand2) == {p1.pk: 0, p2.pk: 101, p3.pk: 26, p4.pk: 12}
    assert hand2["input"]["results"][2] == {"player": p4.pk, "cards": ["9S", "2C", "JD"]}
    assert hand2["revision"] == 1

    for winner in (p3, p4, p1):
        record(api, game, counted(winner, **{str(p.pk): 1 for p in four if p != winner}))
    in_progress = sheet(api, game)
    assert in_progress["next_hand"] == {
        "number": 6,
        "dealer": p2.pk,
        "dirt_rank": "7",
        "hands_left": 1,
    }

    hand6 = record(
        api,
        game,
        {
            "winner": p1.pk,
            "results": [
                {"player": p2.pk, "cards": ["7H", "7D", "6S"]},
                {"player": p3.pk, "points": 1},
                {"player": p4.pk, "points": 40},
            ],
        },
    )
    assert hand6["dirt_rank"] == "7"
    assert points_of(hand6)[p2.pk] == 56

    final = sheet(api, game)
    assert final["status"] == "finished"
    assert final["next_hand"] is None
    assert len(final["hands"]) == 6
    assert scores_of(final) == {p1.pk: 7, p2.pk: 101 + 56 + 3, p3.pk: 39, p4.pk: 55}
    assert [row["player"] for row in final["standings"]] == [p1.pk, p3.pk, p4.pk, p2.pk]
    assert final["winners"] == [p1.pk]
    record(api, game, counted(p1, **{str(p.pk): 1 for p in four[1:]}), expect=409)


def test_dirt_ten_points_option(api: APIClient, four: list[Player]) -> None:
    p1, p2, p3, p4 = four
    game = start(api, "dirt", four, options={"ten_points": 10})
    record(api, game, counted(p2, **{str(p1.pk): 1, str(p3.pk): 1, str(p4.pk): 1}))
    hand2 = record(
        api,
        game,
        {
            "winner": p1.pk,
            "results": [
                {"player": p2.pk, "cards": ["JK", "4H", "4S", "KD"]},
                {"player": p3.pk, "cards": ["AS", "7C", "10D", "3H"]},
                {"player": p4.pk, "cards": ["9S", "2C", "JD"]},
            ],
        },
    )
    assert points_of(hand2)[p3.pk] == 35


def test_partner_dirt(api: APIClient, four: list[Player]) -> None:
    p1, p2, p3, p4 = four
    game = start(api, "dirt", four, teams=[[p1.pk, p3.pk], [p2.pk, p4.pk]])
    # P4 is P2's partner: entered at 0, as the team's points do not count this hand.
    record(api, game, counted(p2, **{str(p1.pk): 1, str(p3.pk): 1, str(p4.pk): 0}))
    hand2 = record(
        api,
        game,
        {
            "winner": p1.pk,
            "results": [
                {"player": p2.pk, "cards": ["JK", "4H", "4S", "KD"]},
                {"player": p3.pk, "cards": ["AS", "7C", "10D", "3H"]},
                {"player": p4.pk, "cards": ["9S", "2C", "JD"]},
            ],
        },
    )
    assert hand2["team_points"] == [{"team": 0, "points": 0}, {"team": 1, "points": 113}]
    game_now = sheet(api, game)
    assert game_now["standings"] == [
        {"team": 0, "players": [p1.pk, p3.pk], "names": ["P1", "P3"], "score": 2, "rank": 1},
        {"team": 1, "players": [p2.pk, p4.pk], "names": ["P2", "P4"], "score": 113, "rank": 2},
    ]
    for _ in range(4):
        record(api, game, counted(p3, **{str(p1.pk): 1, str(p2.pk): 1, str(p4.pk): 1}))
    final = sheet(api, game)
    assert final["status"] == "finished"
    assert final["winners"] == [p1.pk, p3.pk]


# -- Screw Your Neighbour -----------------------------------------------------------------


def test_screw_your_neighbour_to_three_wins(api: APIClient, four: list[Player]) -> None:
    a, b, c = four[:3]
    game = start(api, "screw-your-neighbour", [a, b, c])
    assert game["options"] == {
        "target_wins": 3,
        "joker_switch": "no",
        "two_joker_pickup": 4,
        "queen_two_spades": "no",
    }
    for number, winner in enumerate((a, b, a, c), start=1):
        hand = record(api, game, {"winner": winner.pk})
        assert hand["number"] == number
        assert hand["dealer"] == [a, b, c][(number - 1) % 3].pk
    assert sheet(api, game)["next_hand"] == {"number": 5, "dealer": b.pk}
    last = record(api, game, {"winner": a.pk})
    assert last["totals"] == [
        {"player": a.pk, "score": 3},
        {"player": b.pk, "score": 1},
        {"player": c.pk, "score": 1},
    ]
    final = sheet(api, game)
    assert final["status"] == "finished"
    assert final["ended_by"] == "target"
    assert final["winners"] == [a.pk]
    assert [(r["player"], r["rank"]) for r in final["standings"]] == [
        (a.pk, 1),
        (b.pk, 2),
        (c.pk, 2),
    ]
    response = api.post(f"{GAMES}{game['id']}/hands/", {"winner": b.pk}, format="json")
    assert response.status_code == 409
    assert response.json() == {"detail": "This game is over: no more hands can be recorded."}
    assert Hand.objects.count() == 5


# -- D$%n You! ---------------------------------------------------------------------------


def damn_hand(winner: Player, rows: list[tuple[Player, int, int]]) -> dict[str, Any]:
    return {
        "winner": winner.pk,
        "results": [
            {"player": p.pk, "passes": passes, "cards_left": left} for p, passes, left in rows
        ],
    }


def test_damn_you_worked_example_and_whole_game(api: APIClient, four: list[Player]) -> None:
    a, b, c, d = four
    game = start(api, "damn-you", four)
    assert game["next_hand"]["short"] == [a.pk, d.pk]

    hand1 = record(api, game, damn_hand(b, [(a, 2, 5), (b, 0, 0), (c, 1, 3), (d, 3, 7)]))
    assert hand1["totals"] == [
        {"player": a.pk, "score": 11},
        {"player": b.pk, "score": 46},
        {"player": c.pk, "score": 15},
        {"player": d.pk, "score": 8},
    ]
    assert hand1["chips"] == [
        {"player": a.pk, "paid": 9, "received": 0},
        {"player": b.pk, "paid": 1, "received": 27},
        {"player": c.pk, "paid": 5, "received": 0},
        {"player": d.pk, "paid": 12, "received": 0},
    ]
    assert points_of(hand1) == {a.pk: -9, b.pk: 26, c.pk: -5, d.pk: -12}
    after1 = sheet(api, game)
    assert after1["pot"] == 0
    assert scores_of(after1) == {a.pk: 11, b.pk: 46, c.pk: 15, d.pk: 8}
    # Dealer B deals from C: C and D get 14, A and B (the dealer) are short.
    assert after1["next_hand"]["dealer"] == b.pk
    assert after1["next_hand"]["short"] == [a.pk, b.pk]

    record(api, game, damn_hand(c, [(a, 0, 1), (b, 0, 1), (c, 0, 0), (d, 0, 1)]))
    record(api, game, damn_hand(d, [(a, 0, 1), (b, 0, 1), (c, 0, 1), (d, 0, 0)]))
    record(api, game, damn_hand(b, [(a, 0, 2), (b, 0, 0), (c, 0, 1), (d, 0, 1)]))
    final = sheet(api, game)
    for hand in final["hands"]:
        assert sum(row["score"] for row in hand["totals"]) == 80
    assert scores_of(final) == {a.pk: 3, b.pk: 49, c.pk: 17, d.pk: 11}
    assert final["status"] == "finished"
    assert final["next_hand"] is None
    assert final["winners"] == [b.pk]
    record(api, game, damn_hand(a, [(a, 0, 0), (b, 0, 1), (c, 0, 1), (d, 0, 1)]), expect=409)


# -- Dirty UNO -------------------------------------------------------------------------


def test_dirty_uno_480_to_585_ends_the_game(api: APIClient, four: list[Player]) -> None:
    a, b, c = four[:3]
    game = start(api, "dirty-uno", [a, b, c])
    record(api, game, counted(a, **{str(b.pk): 479, str(c.pk): 1}))
    hand = record(
        api,
        game,
        {
            "winner": a.pk,
            "results": [
                {"player": b.pk, "cards": ["R5", "G7"]},
                {"player": c.pk, "cards": ["W+4"]},
            ],
        },
    )
    assert points_of(hand) == {a.pk: 105, b.pk: 0, c.pk: 0}
    final = sheet(api, game)
    assert scores_of(final) == {a.pk: 585, b.pk: 0, c.pk: 0}
    assert final["status"] == "finished"
    assert final["winners"] == [a.pk]
    record(api, game, counted(b, **{str(a.pk): 1, str(c.pk): 1}), expect=409)


def test_dirty_uno_exactly_500_goes_back_to_0(api: APIClient, four: list[Player]) -> None:
    a, b = four[:2]
    game = start(api, "dirty-uno", [a, b])
    record(api, game, counted(a, **{str(b.pk): 450}))
    hand = record(api, game, {"winner": a.pk, "results": [{"player": b.pk, "cards": ["W"]}]})
    assert hand["resets"] == [a.pk]
    assert scores_of(sheet(api, game))[a.pk] == 0
    assert sheet(api, game)["status"] == "in_progress"


def test_dirty_uno_penalty_scoring(api: APIClient, four: list[Player]) -> None:
    a, b, c = four[:3]
    game = start(api, "dirty-uno", [a, b, c], options={"scoring": "penalty"})
    record(api, game, counted(b, **{str(a.pk): 470, str(c.pk): 99}))
    record(api, game, counted(a, **{str(b.pk): 300, str(c.pk): 1}))
    record(
        api,
        game,
        {
            "winner": c.pk,
            "results": [
                {"player": a.pk, "cards": ["Y3", "R+2"]},
                {"player": b.pk, "cards": ["W+4", "G4"]},
            ],
        },
    )
    middle = sheet(api, game)
    assert scores_of(middle) == {a.pk: 493, b.pk: 354, c.pk: 100}
    assert middle["status"] == "in_progress"
    record(
        api,
        game,
        {
            "winner": b.pk,
            "results": [{"player": a.pk, "cards": ["G7"]}, {"player": c.pk, "cards": ["R1"]}],
        },
    )
    final = sheet(api, game)
    assert scores_of(final) == {a.pk: 543, b.pk: 354, c.pk: 101}
    assert final["status"] == "finished"
    assert final["winners"] == [c.pk]
    assert final["standings"][0]["player"] == c.pk


# -- Dirty Deals -------------------------------------------------------------------------


def test_dirty_deals_claims(api: APIClient, four: list[Player]) -> None:
    p1, p2, p3, _ = four
    game = start(api, "dirty-deals", four)
    first = record(
        api,
        game,
        {"winner": p1.pk, "suit": "H", "surplus": ["JD", "9C", "QS"], "bower_holder": None},
    )
    assert points_of(first)[p1.pk] == 4
    second = record(
        api, game, {"winner": p2.pk, "suit": "S", "surplus": ["10H"], "bower_holder": p3.pk}
    )
    assert (points_of(second)[p2.pk], points_of(second)[p3.pk]) == (8, 3)
    third = record(
        api,
        game,
        {
            "winner": p1.pk,
            "suit": "C",
            "bower_holder": None,
            "surplus": ["JS", "9H", "10H", "QH", "KH", "AH", "9D", "10D"],
        },
    )
    assert points_of(third)[p1.pk] == 0


def test_dirty_deals_rubber_and_match(api: APIClient, four: list[Player]) -> None:
    a, b, c, d = four
    game = start(api, "dirty-deals", four)
    # A 7 and C 3 (the bower JD), then B 6 and D 3 (the bower JC).
    record(api, game, {"winner": a.pk, "suit": "H", "surplus_count": 2, "bower_holder": c.pk})
    record(api, game, {"winner": b.pk, "suit": "S", "surplus_count": 3, "bower_holder": d.pk})
    tie = record(
        api,
        game,
        {
            "winner": a.pk,
            "suit": "H",
            "bower_holder": b.pk,
            "surplus": ["9C", "10C", "QC", "KC", "AC", "9S", "10S"],
        },
    )
    assert points_of(tie) == {a.pk: 2, b.pk: 3, c.pk: 0, d.pk: 0}
    tied = sheet(api, game)
    assert scores_of(tied) == {a.pk: 9, b.pk: 9, c.pk: 3, d.pk: 3}
    assert tied["rubber"] == 1
    assert tied["status"] == "in_progress"

    won = record(
        api,
        game,
        {
            "winner": a.pk,
            "suit": "H",
            "surplus": ["9C", "10C", "QC", "KC", "AC", "9S"],
            "bower_holder": c.pk,
        },
    )
    assert won["totals"][0] == {"player": a.pk, "score": 12}
    assert won["rubber_won_by"] == a.pk
    second_rubber = sheet(api, game)
    assert second_rubber["rubber"] == 2
    assert scores_of(second_rubber) == {a.pk: 0, b.pk: 0, c.pk: 0, d.pk: 0}
    assert second_rubber["standings"][0] == {
        "player": a.pk,
        "name": "P1",
        "score": 0,
        "rank": 1,
        "rubbers": 1,
    }
    assert second_rubber["next_hand"]["rubber"] == 2

    record(api, game, {"winner": a.pk, "suit": "D", "surplus": [], "bower_holder": b.pk})
    final = sheet(api, game)
    assert final["status"] == "finished"
    assert final["winners"] == [a.pk]
    assert final["next_hand"] is None


# -- idempotency -------------------------------------------------------------------------


def test_idempotency_key_replays_the_first_response(
    api: APIClient, user: User, four: list[Player]
) -> None:
    a, b, c = four[:3]
    game = make_game(user, "screw-your-neighbour", [a, b, c])
    url = f"{GAMES}{game.pk}/hands/"
    first = api.post(url, {"winner": a.pk}, format="json", headers={"Idempotency-Key": "k-1"})
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first

    again = api.post(url, {"winner": a.pk}, format="json", headers={"Idempotency-Key": "k-1"})
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(game=game).count() == 1
    assert HandRevision.objects.count() == 1

    other_key = api.post(url, {"winner": b.pk}, format="json", headers={"Idempotency-Key": "k-2"})
    assert other_key.json()["number"] == 2

    other_game = make_game(user, "screw-your-neighbour", [a, b, c])
    elsewhere = api.post(
        f"{GAMES}{other_game.pk}/hands/",
        {"winner": c.pk},
        format="json",
        headers={"Idempotency-Key": "k-1"},
    )
    assert elsewhere.status_code == 201
    assert elsewhere.json()["winner"] == c.pk
    assert Hand.objects.count() == 3


def test_a_refused_request_does_not_use_up_its_key(
    api: APIClient, user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    url = f"{GAMES}{game.pk}/hands/"
    bad = api.post(url, {"winner": 9999}, format="json", headers={"Idempotency-Key": "k"})
    assert bad.status_code == 400
    good = api.post(url, {"winner": four[0].pk}, format="json", headers={"Idempotency-Key": "k"})
    assert good.status_code == 201
    assert Hand.objects.count() == 1


def test_replay_after_the_game_ended_still_answers_the_first_response(
    api: APIClient, user: User, four: list[Player]
) -> None:
    a, b, c = four[:3]
    game = make_game(user, "screw-your-neighbour", [a, b, c], options={"target_wins": 1})
    url = f"{GAMES}{game.pk}/hands/"
    first = api.post(url, {"winner": a.pk}, format="json", headers={"Idempotency-Key": "x"})
    retry = api.post(url, {"winner": a.pk}, format="json", headers={"Idempotency-Key": "x"})
    assert (first.status_code, retry.status_code) == (201, 201)
    assert retry.json() == first.json()


def test_a_key_reused_with_another_body_is_refused(
    api: APIClient, user: User, four: list[Player]
) -> None:
    a, b, c = four[:3]
    game = make_game(user, "screw-your-neighbour", [a, b, c])
    url = f"{GAMES}{game.pk}/hands/"
    key = {"Idempotency-Key": "k-1"}
    assert api.post(url, {"winner": a.pk}, format="json", headers=key).status_code == 201

    other = api.post(url, {"winner": b.pk}, format="json", headers=key)
    assert other.status_code == 422
    assert "different body" in other.json()["detail"]
    invalid = api.post(url, {"winner": "nobody"}, format="json", headers=key)
    assert invalid.status_code == 422
    assert Hand.objects.get(game=game).input["winner"] == a.pk

    # The same body, whatever the key order and spacing, is the same request.
    raw = '{ "winner" : ' + str(a.pk) + " }"
    same = api.generic("POST", url, raw, content_type="application/json", headers=key)
    assert same.status_code == 201
    assert same["Idempotent-Replayed"] == "true"


def test_a_retry_after_its_hand_was_undone_records_nothing(
    api: APIClient, user: User, four: list[Player]
) -> None:
    """Replaying "201, hand 1" would report a hand the table took back; recording the
    body again would bring it back unasked. 409 says so; a new key records it."""
    a, b, c = four[:3]
    game = make_game(user, "screw-your-neighbour", [a, b, c])
    url = f"{GAMES}{game.pk}/hands/"
    key = {"Idempotency-Key": "k-1"}
    assert api.post(url, {"winner": a.pk}, format="json", headers=key).status_code == 201
    assert api.delete(f"{url}1/").status_code == 204

    retry = api.post(url, {"winner": a.pk}, format="json", headers=key)
    assert retry.status_code == 409
    assert "was undone" in retry.json()["detail"]
    assert not Hand.objects.filter(game=game).exists()

    fresh = api.post(url, {"winner": a.pk}, format="json", headers={"Idempotency-Key": "k-2"})
    assert fresh.status_code == 201
    # Hand 1 recorded again under another key: the first key still refers to the undone one.
    assert api.post(url, {"winner": a.pk}, format="json", headers=key).status_code == 409


def test_a_corrected_hand_still_replays_its_first_response(
    api: APIClient, user: User, four: list[Player]
) -> None:
    a, b, c = four[:3]
    game = make_game(user, "screw-your-neighbour", [a, b, c])
    url = f"{GAMES}{game.pk}/hands/"
    key = {"Idempotency-Key": "k-1"}
    first = api.post(url, {"winner": a.pk}, format="json", headers=key)
    assert api.put(f"{url}1/", {"winner": b.pk}, format="json").status_code == 200
    retry = api.post(url, {"winner": a.pk}, format="json", headers=key)
    assert (retry.status_code, retry.json()) == (201, first.json())
    assert Hand.objects.filter(game=game).count() == 1


def test_a_game_holds_at_most_a_thousand_hands(
    api: APIClient, user: User, four: list[Player]
) -> None:
    a, b, c = four[:3]
    game = make_game(user, "screw-your-neighbour", [a, b, c], options={"target_wins": 0})
    Hand.objects.bulk_create(
        Hand(game=game, number=n, input={"winner": a.pk}) for n in range(1, 1000)
    )
    url = f"{GAMES}{game.pk}/hands/"
    assert api.post(url, {"winner": b.pk}, format="json").json()["number"] == 1000
    refused = api.post(url, {"winner": b.pk}, format="json")
    assert refused.status_code == 409
    assert "at most 1,000 hands" in refused.json()["detail"]
    assert Hand.objects.filter(game=game).count() == 1000


@pytest.mark.parametrize("key", ["", "   ", "k" * 256, "a\x00b", "clé", "tab\there"])
def test_bad_idempotency_keys(api: APIClient, user: User, four: list[Player], key: str) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    response = api.post(
        f"{GAMES}{game.pk}/hands/",
        {"winner": four[0].pk},
        format="json",
        headers={"Idempotency-Key": key},
    )
    assert response.status_code == 400
    assert list(response.json()) == ["Idempotency-Key"]
    assert not Hand.objects.exists()


# -- bad input writes nothing ----------------------------------------------------------------


def assert_refused(api: APIClient, game: Game, body: Any, field: str, *fragments: str) -> None:
    version = Game.objects.get(pk=game.pk).version
    response = api.post(
        f"{GAMES}{game.pk}/hands/", body, format="json", headers={"Idempotency-Key": "try"}
    )
    assert response.status_code == 400, response.content
    errors = response.json()
    # Several problems are also listed one by one under "errors".
    assert [key for key in errors if key != "errors"] == [field], errors
    for fragment in fragments:
        assert any(fragment in message for message in errors[field]), errors
    assert not Hand.objects.filter(game=game).exists()
    assert not HandRevision.objects.filter(game=game).exists()
    assert not IdempotencyRecord.objects.filter(game=game).exists()
    assert Game.objects.get(pk=game.pk).version == version


def test_shedding_hand_validation(api: APIClient, user: User, four: list[Player]) -> None:
    p1, p2, p3, p4 = four
    dirt = make_game(user, "dirt", four)  # 4 players: 3 decks

    def hand(*rows: dict[str, Any], winner: int = p1.pk) -> dict[str, Any]:
        return {"winner": winner, "results": list(rows)}

    ok2, ok3, ok4 = ({"player": p.pk, "points": 1} for p in (p2, p3, p4))
    assert_refused(
        api,
        dirt,
        hand(
            {"player": p2.pk, "cards": ["AS", "AS"]}, {"player": p3.pk, "cards": ["AS", "AS"]}, ok4
        ),
        "results",
        "AS is entered 4 times",
        "only 3 copies",
    )
    assert_refused(
        api,
        dirt,
        hand({"player": p2.pk, "cards": ["JK"] * 4}, {"player": p3.pk, "cards": ["JK"] * 3}, ok4),
        "results",
        "JK is entered 7 times",
        "only 6 copies",
    )
    assert_refused(
        api,
        dirt,
        hand({"player": p2.pk, "cards": ["ZZ"]}, ok3, ok4),
        "results",
        f"player {p2.pk}",
        "'ZZ' is not a card",
    )
    assert_refused(
        api,
        dirt,
        hand({"player": p1.pk, "cards": ["4H"]}, ok2, ok3, ok4),
        "results",
        f"player {p1.pk} went out",
    )
    assert_refused(api, dirt, hand(ok2, ok3), "results", f"player {p4.pk}: nothing entered")
    assert_refused(
        api,
        dirt,
        hand(ok2, ok3, ok4, {"player": p3.pk, "points": 2}),
        "results",
        f"player {p3.pk} is listed twice",
    )
    assert_refused(
        api, dirt, hand(ok2, ok3, {"player": p4.pk, "points": -5}), "results", "cannot be negative"
    )
    assert_refused(
        api,
        dirt,
        hand(ok2, ok3, {"player": p4.pk, "points": 3, "cards": ["4H"]}),
        "results",
        "either the cards or the points, not both",
    )
    assert_refused(
        api,
        dirt,
        hand(ok2, ok3, {"player": p4.pk}),
        "results",
        "give the cards left in hand or the points",
    )
    assert_refused(
        api,
        dirt,
        hand(ok2, ok3, ok4, {"player": 9999, "points": 1}),
        "results",
        "player 9999 is not in this game",
    )
    assert_refused(
        api, dirt, hand(ok2, ok3, ok4, winner=9999), "winner", "player 9999 is not in this game"
    )
    assert_refused(api, dirt, {"results": [ok2, ok3, ok4]}, "winner", "say who went out")

    uno = make_game(user, "dirty-uno", four[:2])
    assert_refused(
        api,
        uno,
        {"winner": p1.pk, "results": [{"player": p2.pk, "cards": ["AS"]}]},
        "results",
        "'AS' is not an UNO card",
    )
    assert_refused(
        api,
        uno,
        {"winner": p1.pk, "results": [{"player": p2.pk, "cards": ["G0", "G0"]}]},
        "results",
        "G0 is entered 2 times",
    )


@pytest.mark.parametrize(
    ("body", "field", "fragment"),
    [
        ([{"winner": 1}], "non_field_errors", "a hand must be a JSON object"),
        ("winner", "non_field_errors", "a hand must be a JSON object"),
        ({"winner": "P1", "results": []}, "winner", "is not a player id"),
        ({"winner": [1], "results": []}, "winner", "is not a player id"),
        ({"winner": "__p1__", "results": "P2 JK"}, "results", "must be a list"),
        ({"winner": "__p1__", "results": {"player": 2}}, "results", "must be a list"),
        ({"winner": "__p1__", "results": [5]}, "results", "must be an object"),
        (
            {"winner": "__p1__", "results": [{"player": "__p2__", "cards": 5}]},
            "results",
            "cards must be a list",
        ),
        (
            {"winner": "__p1__", "results": [{"player": "__p2__", "points": [3]}]},
            "results",
            "must be a whole number",
        ),
    ],
)
def test_wrong_shapes(
    api: APIClient, user: User, four: list[Player], body: Any, field: str, fragment: str
) -> None:
    game = make_game(user, "dirt", four[:3])

    def fill(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fill(v) for v in value]
        return (
            {"__p1__": four[0].pk, "__p2__": four[1].pk}.get(value, value)
            if isinstance(value, str)
            else value
        )

    assert_refused(api, game, fill(body), field, fragment)


def test_malformed_json_writes_nothing(api: APIClient, user: User, four: list[Player]) -> None:
    game = make_game(user, "dirt", four[:3])
    response = api.post(
        f"{GAMES}{game.pk}/hands/", '{"winner": 1, "results": [', content_type="application/json"
    )
    assert response.status_code == 400
    assert "JSON parse error" in response.json()["detail"]
    assert not Hand.objects.exists()


def test_damn_you_validation(api: APIClient, user: User, four: list[Player]) -> None:
    a, b, c, d = four
    game = make_game(user, "damn-you", four)
    rows = [(a, 0, 3), (b, 0, 0), (c, 0, 2)]
    assert_refused(
        api, game, damn_hand(b, [*rows, (d, -1, 4)]), "results", "passes cannot be negative"
    )
    assert_refused(
        api, game, damn_hand(b, [*rows, (d, 0, -4)]), "results", "cards left cannot be negative"
    )
    assert_refused(api, game, damn_hand(b, rows), "results", f"player {d.pk}: nothing entered")
    assert_refused(
        api,
        game,
        damn_hand(b, [(a, 0, 3), (b, 0, 2), (c, 0, 2), (d, 0, 1)]),
        "results",
        f"player {b.pk} went out, so has 0 cards left",
    )
    assert_refused(
        api,
        game,
        damn_hand(b, [*rows, (d, 0, 1), (d, 0, 1)]),
        "results",
        f"player {d.pk} is listed twice",
    )
    assert_refused(api, game, damn_hand(b, [*rows, (d, 0, 14)]), "results", "was dealt 13 cards")


def test_dirty_deals_validation(api: APIClient, user: User, four: list[Player]) -> None:
    a, b, *_ = four
    game = make_game(user, "dirty-deals", four)
    assert_refused(
        api,
        game,
        {"winner": a.pk, "suit": "H", "surplus": ["2C"]},
        "surplus",
        "2C is not in the 24-card deck",
    )
    assert_refused(
        api,
        game,
        {"winner": a.pk, "suit": "H", "surplus": ["9C", "9C"]},
        "surplus",
        "9C is entered 2 times",
    )
    assert_refused(
        api,
        game,
        {"winner": a.pk, "suit": "H", "surplus": ["9H"]},
        "surplus",
        "9H is one of the six hearts claimed",
    )
    assert_refused(
        api,
        game,
        {"winner": a.pk, "suit": "H", "surplus": ["JD"], "bower_holder": b.pk},
        "bower_holder",
        "is one card",
    )
    assert_refused(api, game, {"winner": a.pk, "suit": "X"}, "suit", "is not a suit")
    assert_refused(
        api,
        game,
        {"winner": a.pk, "suit": "H", "surplus_count": -1},
        "surplus_count",
        "cannot be negative",
    )


# -- corrections and undo --------------------------------------------------------------------


def test_correction_keeps_history_and_recomputes_what_follows(
    api: APIClient, user: User, four: list[Player]
) -> None:
    p1, p2, p3, p4 = four
    game = make_game(user, "dirt", four)
    for _ in range(3):
        record(api, game, counted(p1, **{str(p2.pk): 10, str(p3.pk): 20, str(p4.pk): 30}))
    version = sheet(api, game)["version"]

    corrected = api.put(
        f"{GAMES}{game.pk}/hands/2/",
        {
            "winner": p2.pk,
            "results": [
                {"player": p1.pk, "cards": ["JK"]},
                {"player": p3.pk, "points": 1},
                {"player": p4.pk, "points": 5},
            ],
        },
        format="json",
    )
    assert corrected.status_code == 200
    hand2 = corrected.json()
    assert hand2["number"] == 2
    assert hand2["revision"] == 2
    assert points_of(hand2) == {p1.pk: 50, p2.pk: 0, p3.pk: 1, p4.pk: 5}

    after = sheet(api, game)
    assert after["version"] == version + 1
    assert after["hands"][1]["revision"] == 2
    assert after["hands"][2]["totals"] == [
        {"player": p1.pk, "score": 50},
        {"player": p2.pk, "score": 20},
        {"player": p3.pk, "score": 41},
        {"player": p4.pk, "score": 65},
    ]
    assert scores_of(after) == {p1.pk: 50, p2.pk: 20, p3.pk: 41, p4.pk: 65}

    detail = api.get(f"{GAMES}{game.pk}/hands/2/").json()
    assert [(h["revision"], h["action"], h["username"]) for h in detail["history"]] == [
        (1, "recorded", "ana"),
        (2, "corrected", "ana"),
    ]
    assert detail["history"][0]["input"]["winner"] == p1.pk
    assert detail["history"][1]["input"]["winner"] == p2.pk
    assert detail["input"]["winner"] == p2.pk

    # The same input again changes nothing.
    api.put(f"{GAMES}{game.pk}/hands/2/", hand2["input"], format="json")
    assert sheet(api, game)["version"] == version + 1
    assert HandRevision.objects.filter(number=2).count() == 2


def test_bad_correction_writes_nothing(api: APIClient, user: User, four: list[Player]) -> None:
    p1, p2, p3, p4 = four
    game = make_game(user, "dirt", four)
    record(api, game, counted(p1, **{str(p2.pk): 10, str(p3.pk): 20, str(p4.pk): 30}))
    before = sheet(api, game)
    response = api.put(
        f"{GAMES}{game.pk}/hands/1/",
        {"winner": p1.pk, "results": [{"player": p2.pk, "points": -3}]},
        format="json",
    )
    assert response.status_code == 400
    assert "cannot be negative" in response.json()["results"][0]
    assert sheet(api, game) == before
    assert (
        api.put(f"{GAMES}{game.pk}/hands/2/", {"winner": p1.pk}, format="json").status_code == 404
    )
    assert api.get(f"{GAMES}{game.pk}/hands/2/").status_code == 404


def test_correction_that_would_end_the_game_early_is_a_conflict(
    api: APIClient, user: User, four: list[Player]
) -> None:
    a, b, c = four[:3]
    game = make_game(user, "screw-your-neighbour", [a, b, c], options={"target_wins": 2})
    for winner in (a, b, b):
        record(api, game, {"winner": winner.pk})
    response = api.put(f"{GAMES}{game.pk}/hands/2/", {"winner": a.pk}, format="json")
    assert response.status_code == 409
    assert "ends after hand 2" in response.json()["detail"]
    assert Hand.objects.get(number=2).input == {"winner": b.pk}


def test_correcting_a_finished_game_can_change_its_winner(
    api: APIClient, user: User, four: list[Player]
) -> None:
    a, b, c = four[:3]
    game = make_game(user, "screw-your-neighbour", [a, b, c], options={"target_wins": 1})
    record(api, game, {"winner": a.pk})
    assert api.put(f"{GAMES}{game.pk}/hands/1/", {"winner": c.pk}, format="json").status_code == 200
    final = sheet(api, game)
    assert final["winners"] == [c.pk]
    assert Game.objects.get().seats.get(player=c).won is True


def test_undo_the_last_hand_only(api: APIClient, user: User, four: list[Player]) -> None:
    a, b, c = four[:3]
    game = make_game(user, "screw-your-neighbour", [a, b, c], options={"target_wins": 2})
    for winner in (a, b, a):
        record(api, game, {"winner": winner.pk})
    assert sheet(api, game)["status"] == "finished"

    earlier = api.delete(f"{GAMES}{game.pk}/hands/2/")
    assert earlier.status_code == 409
    assert "Only the last hand (3) can be undone" in earlier.json()["detail"]
    assert api.delete(f"{GAMES}{game.pk}/hands/7/").status_code == 404

    assert api.delete(f"{GAMES}{game.pk}/hands/3/").status_code == 204
    after = sheet(api, game)
    assert after["status"] == "in_progress"
    assert after["winners"] == []
    assert len(after["hands"]) == 2
    assert after["next_hand"] == {"number": 3, "dealer": c.pk}
    assert HandRevision.objects.filter(number=3, action="undone").count() == 1

    redo = record(api, game, {"winner": b.pk})
    assert redo["number"] == 3
    history = api.get(f"{GAMES}{game.pk}/hands/3/").json()["history"]
    assert [h["action"] for h in history] == ["recorded", "undone", "recorded"]
    assert sheet(api, game)["winners"] == [b.pk]


def test_hands_list(api: APIClient, user: User, four: list[Player]) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    record(api, game, {"winner": four[1].pk})
    hands = api.get(f"{GAMES}{game.pk}/hands/").json()
    assert [(h["number"], h["winner"], h["revision"]) for h in hands] == [(1, four[1].pk, 1)]
