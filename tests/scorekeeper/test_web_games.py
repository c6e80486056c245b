"""The score-sheet pages: starting a game, entering, correcting and undoing hands through
plain form posts (and htmx), watching a sheet, and who may see or change it."""

from __future__ import annotations

import html as htmllib
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Game, Hand, Player
from scorekeeper.services.games import game_close, hand_record
from tests.scorekeeper.factories import make_game, make_league, make_player, make_players

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ana_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def four(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", "Di", created_by=user)


def text(response: Any) -> str:
    """The page's visible text, squeezed, for asserting what a user reads."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return htmllib.unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


def sheet_url(game: Game) -> str:
    return f"/games/{game.pk}/"


def post_hand(client: Client, game: Game, data: dict[str, Any], **extra: Any) -> Any:
    fresh = Game.objects.get(pk=game.pk)
    body = {"number": str(fresh.hand_count + 1), **data}
    return client.post(f"/games/{game.pk}/hands/", body, **extra)


def grid_totals(response: Any) -> list[str]:
    html = response.content.decode()
    row = re.search(r'<tr class="total">(.*?)</tr>', html, flags=re.S)
    assert row is not None
    return re.findall(r"<td>([^<]*)</td>", row.group(1))


# -- access -----------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/games/", "/games/new/", "/games/1/", "/games/1/live/"])
def test_pages_need_a_signed_in_user(client: Client, db: None, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_a_stranger_cannot_see_a_sheet(
    client: Client, user: User, other_user: User, four: list[Player]
) -> None:
    game = make_game(user, "dirt", four)
    client.force_login(other_user)
    assert client.get(sheet_url(game)).status_code == 404
    assert client.get(f"/games/{game.pk}/live/?v=0&hand=1").status_code == 404
    assert post_hand(client, game, {"winner": four[0].pk}).status_code == 404


def test_a_seated_player_watches_but_cannot_change(
    client: Client, user: User, other_user: User
) -> None:
    bo = make_player("Bo", user=other_user, created_by=user)
    players = [make_player("Ana", created_by=user), bo, make_player("Cy", created_by=user)]
    game = make_game(user, "screw-your-neighbour", players)
    client.force_login(other_user)
    page = client.get(sheet_url(game))
    assert page.status_code == 200
    assert 'id="entry-heading"' not in page.content.decode()
    assert "You are watching this sheet" in text(page)
    refused = post_hand(client, game, {"winner": bo.pk})
    assert refused.status_code == 403
    assert Hand.objects.filter(game=game).count() == 0


def test_a_league_member_keeps_the_sheet(client: Client, user: User, other_user: User) -> None:
    bo = make_player("Bo", user=other_user)
    players = [make_player("Ana", created_by=user), bo, make_player("Cy", created_by=user)]
    league = make_league(user, members=[bo])
    game = make_game(user, "screw-your-neighbour", players, league=league.pk)
    client.force_login(other_user)
    response = post_hand(client, game, {"winner": bo.pk})
    assert response.status_code == 302
    assert Hand.objects.filter(game=game).count() == 1


# -- new game ---------------------------------------------------------------------------


def test_new_game_starts_by_choosing_the_game(ana_client: Client) -> None:
    page = text(ana_client.get("/games/new/"))
    for name in (
        "Dirt on Your Neighbor",
        "Screw Your Neighbour",
        "D$%n You!",
        "Dirty UNO",
        "Dirty Deals",
    ):
        assert name in page


def test_new_game_form_explains_variants_and_defaults(ana_client: Client, user: User) -> None:
    make_player("Ana", user=user)
    page = ana_client.get("/games/new/?ruleset=dirt")
    assert page.status_code == 200
    body = text(page)
    assert "Baby Dirt default" in body
    assert "6 hands · Dirt ranks 6 4 2 3 5 7" in body
    assert "Points for a 10" in body
    assert "1 (default)" in body
    assert "Automatic (by number of players)" in body
    assert "Play in teams (Partner Dirt)" in body
    # The user's own player sits in the first seat to begin with.
    html = page.content.decode()
    assert re.search(r'<option value="\d+" selected>Ana</option>', html)


def test_start_a_game_with_picked_and_typed_players(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    ana, bo = four[0], four[1]
    league = make_league(user)
    response = ana_client.post(
        "/games/new/",
        {
            "ruleset": "dirt",
            "seat_count": "4",
            "variant": "tiny-baby-up",
            "seat-0-player": str(ana.pk),
            "seat-1-name": "Zed",
            "seat-2-player": str(bo.pk),
            "seat-3-name": "  Yara  ",
            "first_dealer": "2",
            "option-ten_points": "10",
            "option-decks": "",
            "league": str(league.pk),
        },
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert response["Location"] == sheet_url(game)
    seats = [s.player.name for s in game.seats.order_by("position")]
    assert seats == ["Ana", "Zed", "Bo", "Yara"]
    assert game.first_dealer == bo
    assert game.variant == "tiny-baby-up"
    assert game.options == {"ten_points": 10, "decks": 3, "stuck_draw": "one"}
    assert game.league == league
    assert Player.objects.get(name="Zed").created_by == user


def test_a_typed_name_the_user_knows_is_that_player(ana_client: Client, four: list[Player]) -> None:
    response = ana_client.post(
        "/games/new/",
        {
            "ruleset": "screw-your-neighbour",
            "seat_count": "3",
            "seat-0-name": "bo",
            "seat-1-name": "Cy",
            "seat-2-name": "Newcomer",
            "first_dealer": "0",
            "option-target_wins": "3",
        },
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert [s.player_id for s in game.seats.order_by("position")][:2] == [four[1].pk, four[2].pk]
    assert Player.objects.filter(name__iexact="bo").count() == 1


def test_partner_dirt_teams_from_the_seats(ana_client: Client, four: list[Player]) -> None:
    a, b, c, d = four
    response = ana_client.post(
        "/games/new/",
        {
            "ruleset": "dirt",
            "seat_count": "4",
            "partners": "1",
            "variant": "baby",
            **{f"seat-{i}-player": str(p.pk) for i, p in enumerate(four)},
            "seat-0-team": "1",
            "seat-1-team": "2",
            "seat-2-team": "1",
            "seat-3-team": "2",
            "first_dealer": "0",
        },
    )
    assert response.status_code == 302
    assert Game.objects.get().teams == [[a.pk, c.pk], [b.pk, d.pk]]


def test_a_refused_set_up_says_why_and_creates_nobody(ana_client: Client, db: None) -> None:
    response = ana_client.post(
        "/games/new/",
        {
            "ruleset": "dirty-deals",
            "seat_count": "4",
            "seat-0-name": "Ana",
            "seat-1-name": "Bo",
            "seat-2-name": "Cy",
            "first_dealer": "0",
        },
    )
    assert response.status_code == 422
    assert "Not started. Dirty Deals is for exactly 4 players, not 3" in text(response)
    assert Game.objects.count() == 0
    assert Player.objects.count() == 0
    # What was typed is still there.
    assert 'value="Cy"' in response.content.decode()


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (
            {"seat-0-player": "PICK", "seat-0-name": "Also typed"},
            "Seat 1: pick a player or type a new name, not both",
        ),
        ({"seat-0-player": "999999"}, "Seat 1: pick a player from the list"),
        ({}, "Seat the players: pick them or type their names"),
    ],
)
def test_seat_mistakes_are_named(
    ana_client: Client, four: list[Player], seats: dict[str, str], message: str
) -> None:
    data = {k: (str(four[0].pk) if v == "PICK" else v) for k, v in seats.items()}
    response = ana_client.post(
        "/games/new/",
        {
            "ruleset": "dirt",
            "seat_count": "4",
            "first_dealer": "0",
            **data,
        },
    )
    assert response.status_code == 422
    assert message in text(response)


def test_unequal_teams_are_refused(ana_client: Client, four: list[Player]) -> None:
    response = ana_client.post(
        "/games/new/",
        {
            "ruleset": "dirt",
            "seat_count": "4",
            "partners": "1",
            **{f"seat-{i}-player": str(p.pk) for i, p in enumerate(four)},
            "seat-0-team": "1",
            "seat-1-team": "1",
            "seat-2-team": "1",
            "seat-3-team": "2",
            "first_dealer": "0",
        },
    )
    assert response.status_code == 422
    assert "Not started. Teams must all be the same size" in text(response)


def test_add_a_seat_keeps_what_was_typed(ana_client: Client, db: None) -> None:
    response = ana_client.post(
        "/games/new/",
        {
            "ruleset": "dirt",
            "seat_count": "4",
            "seat-0-name": "Ana",
            "add_seat": "1",
            "first_dealer": "0",
        },
        **HTMX,
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert 'name="seat-4-name"' in html
    assert 'value="Ana"' in html
    assert Game.objects.count() == 0


def test_play_again_copies_the_table(ana_client: Client, user: User, four: list[Player]) -> None:
    game = make_game(user, "dirt", four, variant="tiny-baby-down", first_dealer=four[1].pk)
    page = ana_client.get(f"/games/new/?ruleset=dirt&from={game.pk}").content.decode()
    for i, p in enumerate(four):
        assert re.search(
            rf'name="seat-{i}-player".*?<option value="{p.pk}" selected>', page, flags=re.S
        )
    assert 'value="tiny-baby-down" checked' in page
    # The deal moves on one seat.
    assert 'name="first_dealer" value="2" checked' in page


# -- the sheet --------------------------------------------------------------------------


def dirt_game(user: User, four: list[Player], **kwargs: Any) -> Game:
    game = make_game(user, "dirt", four, **kwargs)
    a, b, c, d = four
    hand_record(
        game=game,
        user=user,
        hand_input={
            "winner": b.pk,
            "results": [
                {"player": a.pk, "points": 5},
                {"player": c.pk, "points": 6},
                {"player": d.pk, "points": 7},
            ],
        },
    )
    return game


def test_the_sheet_shows_the_hand_in_play(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = dirt_game(user, four)
    response = ana_client.get(sheet_url(game))
    page = text(response)
    assert "Hand 2 of 6" in page
    assert "Dealer: Bo" in page
    assert "Dirt rank 4" in page
    # The entry's callout and the pad's marked keys are the presenter's.
    assert "Dirt rank: 4 — every 4 left in hand scores 25" in page
    assert '"marked_as": "dirt rank"' in response.content.decode()
    assert "Enter hand 2 · dealer Bo" in page
    assert "Who went out?" in page


def test_dirt_worked_example_through_the_form(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = dirt_game(user, four)
    a, b, c, d = four
    response = post_hand(
        ana_client,
        game,
        {
            "winner": str(a.pk),
            f"cards_{b.pk}": "JK 4H 4S KD",
            f"cards_{c.pk}": "AS 7C 10D 3H",
            f"cards_{d.pk}": "9S 2C JD",
            "idempotency_key": "k1",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == sheet_url(game)
    page = ana_client.get(sheet_url(game))
    assert "Hand 2 saved: Ana 0, Bo 101, Cy 26, Di 12." in text(page)
    assert grid_totals(page) == ["5", "101", "32", "19"]
    stored = Hand.objects.get(game=game, number=2).input
    assert stored["results"][0] == {"player": b.pk, "cards": ["JK", "4H", "4S", "KD"]}


def test_a_counted_total_instead_of_cards(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = dirt_game(user, four)
    a, b, c, d = four
    response = post_hand(
        ana_client,
        game,
        {
            "winner": str(c.pk),
            f"points_{a.pk}": "40",
            f"points_{b.pk}": "1",
            f"cards_{d.pk}": "JK",
        },
    )
    assert response.status_code == 302
    assert grid_totals(ana_client.get(sheet_url(game))) == ["45", "1", "6", "57"]


def test_partner_dirt_sheet_is_by_team(ana_client: Client, user: User, four: list[Player]) -> None:
    a, b, c, d = four
    game = dirt_game(user, four, teams=[[a.pk, c.pk], [b.pk, d.pk]])
    post_hand(
        ana_client,
        game,
        {
            "winner": str(a.pk),
            f"cards_{b.pk}": "JK 4H 4S KD",
            f"cards_{c.pk}": "AS 7C 10D 3H",
            f"cards_{d.pk}": "9S 2C JD",
        },
    )
    page = ana_client.get(sheet_url(game))
    assert "Ana &amp; Cy" in page.content.decode()
    # Hand 1: Bo went out, so team Bo+Di scored 0 and Ana+Cy 11; hand 2 is the spec's.
    assert grid_totals(page) == ["11", "113"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Say who went out"),
        ({"winner": "A", "cards_B": "JK ZZ"}, "Bo: 'ZZ' is not a card"),
        (
            {"winner": "A", "cards_B": "JK", "points_B": "3"},
            "Bo: give either the cards or the points, not both",
        ),
        (
            {"winner": "A", "cards_B": "AS AS AS AS", "cards_C": "2S", "cards_D": "3S"},
            "AS is entered 4 times, but 3 decks with jokers hold only 3 copies",
        ),
        (
            {"winner": "A", "cards_B": "JK", "cards_C": "JK"},
            "Di: nothing entered: give the cards left in hand or the points",
        ),
        (
            {"winner": "A", "cards_A": "KD", "cards_B": "JK", "cards_C": "2S", "cards_D": "3S"},
            "Ana went out, so holds no cards and scores nothing",
        ),
        (
            {"winner": "A", "points_B": "-4", "cards_C": "2S", "cards_D": "3S"},
            "Bo: the points cannot be negative",
        ),
    ],
)
def test_bad_input_gets_a_clear_message_and_changes_nothing(
    ana_client: Client, user: User, four: list[Player], data: dict[str, str], message: str
) -> None:
    game = dirt_game(user, four)
    letters = dict(zip("ABCD", four, strict=True))

    def real(value: str) -> str:
        return str(letters[value].pk) if value in letters else value

    body = {}
    for key, value in data.items():
        if key == "winner":
            body[key] = real(value)
        else:
            field, who = key.rsplit("_", 1)
            body[f"{field}_{letters[who].pk}"] = value
    version = Game.objects.get(pk=game.pk).version
    response = post_hand(ana_client, game, body)
    assert response.status_code == 422
    assert message in text(response)
    assert Hand.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == version
    # What was entered is still in the form.
    for key, value in body.items():
        if key != "winner":
            assert f'value="{value}"' in response.content.decode()


def test_an_htmx_save_answers_with_the_tables_live_answer_and_its_own_notice(
    ana_client: Client, user: User, other_user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    before = Game.objects.get(pk=game.pk).version
    response = post_hand(ana_client, game, {"winner": str(four[1].pk)}, **HTMX)
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"  # every part goes out of band
    html = response.content.decode()
    assert "<html" not in html
    assert 'id="sheet-grid" class="sheet-grid" hx-swap-oob="true"' in html
    assert "Enter hand 2" in text(response)
    # What was saved, said last: in place of the notice the other phones get.
    notices = re.findall(r'<div id="sheet-notice".*?</div>', html, flags=re.S)
    assert "saved on another phone" in notices[0]
    assert "Hand 1: Bo won it." in notices[-1]
    assert "another phone" not in notices[-1]
    # The same kept answer as another phone of the owner's kind asking for that hand.
    phone = Client()
    phone.force_login(user)
    answer = phone.get(f"/games/{game.pk}/live/?v={before}&hand=1", **HTMX).content.decode()
    assert html.startswith(answer)


def test_an_htmx_refusal_comes_back_in_the_panel(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    response = post_hand(ana_client, game, {"winner": "999"}, **HTMX)
    assert response.status_code == 422
    assert "<html" not in response.content.decode()
    assert "Not saved. Player 999 is not in this game" in text(response)


def test_a_double_tap_records_one_hand(ana_client: Client, user: User, four: list[Player]) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    body = {"winner": str(four[0].pk), "idempotency_key": "tap-1", "number": "1"}
    first = ana_client.post(f"/games/{game.pk}/hands/", body)
    second = ana_client.post(f"/games/{game.pk}/hands/", body)
    assert first.status_code == second.status_code == 302
    assert Hand.objects.filter(game=game).count() == 1


def test_a_hand_saved_elsewhere_first_is_not_saved_again(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    hand_record(game=game, user=user, hand_input={"winner": four[2].pk})
    response = ana_client.post(
        f"/games/{game.pk}/hands/",
        {
            "winner": str(four[0].pk),
            "number": "1",
            "idempotency_key": "other-phone",
        },
    )
    assert response.status_code == 409
    assert "Not saved: hand 1 was already saved on another phone" in text(response)
    assert Hand.objects.filter(game=game).count() == 1


def test_a_finished_game_takes_no_more_hands(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3], options={"target_wins": 1})
    hand_record(game=game, user=user, hand_input={"winner": four[0].pk})
    response = ana_client.post(f"/games/{game.pk}/hands/", {"winner": str(four[1].pk)})
    assert response.status_code == 409
    assert "This game is over" in text(response)
    assert Hand.objects.filter(game=game).count() == 1


# -- each game's entry --------------------------------------------------------------------


def test_damn_you_worked_example_and_settlement(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "damn-you", four)
    a, b, c, d = four
    page = text(ana_client.get(sheet_url(game)))
    assert "Short (ante 2) Ana, Di" in page
    # One word for one number: the pot while entering is "so far" (ante and passes),
    # the winner's is the "final pot" (cards left in it).
    assert "Pot so far 6" in page
    assert "final pot" not in page
    response = post_hand(
        ana_client,
        game,
        {
            "winner": str(b.pk),
            f"passes_{a.pk}": "2",
            f"passes_{b.pk}": "",
            f"passes_{c.pk}": "1",
            f"passes_{d.pk}": "3",
            f"cards_left_{a.pk}": "5",
            f"cards_left_{c.pk}": "3",
            f"cards_left_{d.pk}": "7",
        },
    )
    assert response.status_code == 302
    page_response = ana_client.get(sheet_url(game))
    assert grid_totals(page_response) == ["11", "46", "15", "8"]
    page = text(page_response)
    assert "Hand 1 settled: Bo took the final pot of 27" in page
    assert "took the pot" not in page
    assert "Ana 9 0 −9 11" in page  # paid (ante 2, passes 2, cards 5), got, net, chips
    assert "Bo 1 27 +26 46" in page


def test_damn_you_cards_left_beyond_the_deal_is_refused(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "damn-you", four)
    a, b, c, d = four
    response = post_hand(
        ana_client,
        game,
        {
            "winner": str(b.pk),
            f"cards_left_{a.pk}": "14",
            f"cards_left_{c.pk}": "3",
            f"cards_left_{d.pk}": "7",
        },
    )
    assert response.status_code == 422
    assert "Ana was dealt 13 cards this hand, so cannot have 14 left" in text(response)


def test_dirty_deals_claim_with_surplus_and_bower(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "dirty-deals", four)
    a, b, c, _d = four
    ana_client.post(
        f"/games/{game.pk}/hands/",
        {
            "winner": str(a.pk),
            "suit": "S",
            "surplus": ["10H"],
            "bower_holder": str(c.pk),
        },
    )
    assert grid_totals(ana_client.get(sheet_url(game))) == ["8", "0", "3", "0"]
    refused = ana_client.post(
        f"/games/{game.pk}/hands/",
        {
            "winner": str(b.pk),
            "suit": "H",
            "surplus": ["JD", "9C"],
            "bower_holder": str(c.pk),
        },
    )
    assert refused.status_code == 422
    assert (
        "The bower JD is one card: it cannot be both in the claimant's surplus and with Cy"
        in text(refused)
    )


def test_dirty_deals_preview_scores_before_saving(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "dirty-deals", four)
    a = four[0]
    response = ana_client.post(
        f"/games/{game.pk}/hands/preview/",
        {
            "winner": str(a.pk),
            "suit": "H",
            "surplus": ["JD", "9C", "QS"],
            "bower_holder": "",
        },
        **HTMX,
    )
    assert response.status_code == 200
    assert "If saved, hand 1 scores: Player Hand Total Ana 4 4" in text(response)
    assert Hand.objects.count() == 0


def test_preview_without_javascript_keeps_the_entry(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "dirty-deals", four)
    response = ana_client.post(
        f"/games/{game.pk}/hands/preview/",
        {
            "winner": str(four[0].pk),
            "suit": "C",
            "surplus": ["JS", "9H", "10H", "QH", "KH", "AH", "9D", "10D"],
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="JS" checked' in html
    assert "If saved, hand 1 scores: Player Hand Total Ana 0 0" in text(response)


def test_dirty_uno_reset_at_500(ana_client: Client, user: User, four: list[Player]) -> None:
    game = make_game(user, "dirty-uno", four[:2])
    a, b = four[:2]
    post_hand(ana_client, game, {"winner": str(a.pk), f"points_{b.pk}": "450"})
    post_hand(ana_client, game, {"winner": str(a.pk), f"cards_{b.pk}": "W"})
    page = ana_client.get(sheet_url(game))
    assert grid_totals(page) == ["0", "0"]
    assert "500 → 0" in text(page)


def test_screw_your_neighbour_to_the_target(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3], options={"target_wins": 2})
    a, b, _c = four[:3]
    for winner in (a, b, a):
        post_hand(ana_client, game, {"winner": str(winner.pk)})
    page = ana_client.get(sheet_url(game))
    body = text(page)
    assert "Game over ★ Ana wins" in body
    assert "1st Ana 2" in body
    assert "2nd Bo 1" in body
    assert "3rd Cy 0" in body
    assert '<svg class="chart-svg"' in page.content.decode()
    assert "Enter hand" not in body


# -- corrections, undo, ending ------------------------------------------------------------


def test_correct_an_earlier_hand(ana_client: Client, user: User, four: list[Player]) -> None:
    game = dirt_game(user, four)
    a, b, c, d = four
    form = ana_client.get(f"/games/{game.pk}/hands/1/")
    assert form.status_code == 200
    assert "Correct hand 1" in text(form)
    assert f'name="points_{a.pk}" value="5"' in form.content.decode()
    response = ana_client.post(
        f"/games/{game.pk}/hands/1/",
        {
            "winner": str(b.pk),
            f"points_{a.pk}": "50",
            f"points_{c.pk}": "6",
            f"points_{d.pk}": "7",
        },
    )
    assert response.status_code == 302
    assert grid_totals(ana_client.get(sheet_url(game))) == ["50", "0", "6", "7"]
    assert Hand.objects.get(game=game, number=1).revision == 2


def test_an_htmx_correction_form_is_just_the_panel(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = dirt_game(user, four)
    response = ana_client.get(f"/games/{game.pk}/hands/1/", **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="entry"')
    assert "Cancel the correction" in text(response)


def test_a_bad_correction_changes_nothing(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = dirt_game(user, four)
    a, b, c, d = four
    response = ana_client.post(
        f"/games/{game.pk}/hands/1/",
        {
            "winner": str(b.pk),
            f"points_{a.pk}": "lots",
            f"points_{c.pk}": "6",
            f"points_{d.pk}": "7",
        },
    )
    assert response.status_code == 422
    assert "Ana: the points must be a whole number (got 'lots')" in text(response)
    assert Hand.objects.get(game=game, number=1).input["results"][0]["points"] == 5


def test_no_such_hand_to_correct(ana_client: Client, user: User, four: list[Player]) -> None:
    game = dirt_game(user, four)
    assert ana_client.get(f"/games/{game.pk}/hands/7/").status_code == 404


def test_undo_the_last_hand_once(ana_client: Client, user: User, four: list[Player]) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    for p in four[:2]:
        hand_record(game=game, user=user, hand_input={"winner": p.pk})
    early = ana_client.post(f"/games/{game.pk}/hands/1/undo/")
    assert early.status_code == 302
    assert Hand.objects.filter(game=game).count() == 2
    assert "Only the last hand (2) can be undone" in text(ana_client.get(sheet_url(game)))
    first = ana_client.post(f"/games/{game.pk}/hands/2/undo/", follow=True)
    assert "Hand 2 undone" in text(first)
    # A second tap on the same button cannot take hand 1 with it.
    again = ana_client.post(f"/games/{game.pk}/hands/2/undo/", follow=True)
    assert "Hand 2 is already gone: nothing undone." in text(again)
    assert Hand.objects.filter(game=game).count() == 1


def test_end_and_reopen_an_open_ended_game(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3], options={"target_wins": 0})
    hand_record(game=game, user=user, hand_input={"winner": four[1].pk})
    ended = ana_client.post(f"/games/{game.pk}/close/", follow=True)
    assert "Game over ★ Bo wins" in text(ended)
    assert "Ended by hand, before its natural end." in text(ended)
    reopened = ana_client.post(f"/games/{game.pk}/reopen/", follow=True)
    assert "Game reopened" in text(reopened)
    assert "Enter hand 2" in text(reopened)


def test_delete_asks_first(ana_client: Client, user: User, four: list[Player]) -> None:
    game = make_game(user, "dirt", four)
    confirm = ana_client.get(f"/games/{game.pk}/delete/")
    assert "Delete this game?" in text(confirm)
    assert Game.objects.filter(pk=game.pk).exists()
    response = ana_client.post(f"/games/{game.pk}/delete/")
    assert response.status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()


# -- watching ---------------------------------------------------------------------------


def test_live_answers_204_while_nothing_changed(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    version = Game.objects.get(pk=game.pk).version
    response = ana_client.get(f"/games/{game.pk}/live/?v={version}&hand=1", **HTMX)
    assert response.status_code == 204


def test_live_sends_the_new_hand_and_a_fresh_panel(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    version = Game.objects.get(pk=game.pk).version
    hand_record(game=game, user=user, hand_input={"winner": four[2].pk})
    response = ana_client.get(f"/games/{game.pk}/live/?v={version}&hand=1", **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert '<section id="sheet-grid" class="sheet-grid" hx-swap-oob="true"' in html
    assert '<section id="entry"' in html
    assert "Enter hand 2" in html
    assert "Hand 1 was saved on another phone. The entry below is for hand 2." in text(response)
    new_version = Game.objects.get(pk=game.pk).version
    assert f"?v={new_version}&amp;hand=2" in html


def test_live_keeps_an_entry_in_progress_after_a_correction(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = dirt_game(user, four)
    version = Game.objects.get(pk=game.pk).version
    a, b, c, d = four
    ana_client.post(
        f"/games/{game.pk}/hands/1/",
        {
            "winner": str(b.pk),
            f"points_{a.pk}": "9",
            f"points_{c.pk}": "6",
            f"points_{d.pk}": "7",
        },
    )
    response = ana_client.get(f"/games/{game.pk}/live/?v={version}&hand=2", **HTMX)
    html = response.content.decode()
    assert 'id="sheet-grid"' in html
    assert 'id="entry"' not in html


def test_live_sends_a_deleted_game_home(ana_client: Client, user: User, four: list[Player]) -> None:
    game = make_game(user, "dirt", four)
    pk = game.pk
    ana_client.post(f"/games/{pk}/delete/")
    response = ana_client.get(f"/games/{pk}/live/?v=1&hand=1", **HTMX)
    assert response["HX-Redirect"] == "/"


def test_the_sheet_runs_under_the_csp(ana_client: Client, user: User, four: list[Player]) -> None:
    game = dirt_game(user, four)
    response = ana_client.get(sheet_url(game))
    html = response.content.decode()
    assert "style=" not in html
    assert " onclick=" not in html
    for tag in re.findall(r"<script[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_closing_a_game_via_service_shows_final_ranking(
    ana_client: Client, user: User, four: list[Player]
) -> None:
    game = dirt_game(user, four)
    game_close(game=game, user=user)
    body = text(ana_client.get(sheet_url(game)))
    assert "Game over ★ Bo wins" in body
    assert "1st Bo 0" in body
    assert "4th Di 7" in body


def test_game_list_filters(ana_client: Client, user: User, four: list[Player]) -> None:
    playing = make_game(user, "dirt", four)
    done = make_game(user, "screw-your-neighbour", four[:3], options={"target_wins": 1})
    hand_record(game=done, user=user, hand_input={"winner": four[0].pk})
    finished = ana_client.get("/games/?status=finished").content.decode()
    assert f"/games/{done.pk}/" in finished
    assert f"/games/{playing.pk}/" not in finished
    everything = ana_client.get("/games/").content.decode()
    assert f"/games/{done.pk}/" in everything
    assert f"/games/{playing.pk}/" in everything
