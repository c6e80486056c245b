"""The scoreboard above the grid: places in order, the leader first, and what each
player needs in the words of each game's rules."""

from __future__ import annotations

from typing import Any

from games import get_ruleset
from scorekeeper.web.scoreboard import Scoreboard, build_scoreboard
from scorekeeper.web.sheet import columns_for

NAMES = {1: "Ana", 2: "Bo", 3: "Cy", 4: "Di"}


def board(
    ruleset: str,
    hands: list[dict[str, Any]],
    *,
    options: dict[str, Any] | None = None,
    teams: list[list[int]] | None = None,
    players: int = 4,
) -> Scoreboard | None:
    rules = get_ruleset(ruleset)
    ids = list(NAMES)[:players]
    config = rules.configure(players=ids, options=options, teams=teams)
    state = rules.play(config, hands)
    return build_scoreboard(state, columns_for(state, NAMES))


def lines(scoreboard: Scoreboard | None) -> list[tuple[str, str, str, str]]:
    assert scoreboard is not None
    return [(x.place, x.label, x.score, x.need) for x in scoreboard.lines]


def points(winner: int, **by_player: int) -> dict[str, Any]:
    ids = {v: k for k, v in NAMES.items()}
    return {
        "winner": winner,
        "results": [{"player": ids[name], "points": n} for name, n in by_player.items()],
    }


def test_no_board_before_the_first_hand_or_after_the_last() -> None:
    assert board("dirt", []) is None
    finished = [{"winner": 1}, {"winner": 1}, {"winner": 1}]
    assert board("screw-your-neighbour", finished) is None


def test_dirt_lowest_total_first_with_the_gaps_and_hands_left() -> None:
    result = board("dirt", [points(3, Ana=12, Bo=30, Di=5), points(4, Ana=1, Bo=2, Cy=4)])
    assert lines(result) == [
        ("1st", "Cy", "4", "leads by 1"),
        ("2nd", "Di", "5", "1 behind"),
        ("3rd", "Ana", "13", "9 behind"),
        ("4th", "Bo", "32", "28 behind"),
    ]
    assert result is not None
    assert result.title == "After hand 2 of 6 · 4 hands left"
    assert result.goal == "lowest total wins"
    assert [x.leader for x in result.lines] == [True, False, False, False]


def test_a_shared_lead_is_level_at_the_top() -> None:
    result = board("dirt", [points(1, Bo=3, Cy=7, Di=9), points(2, Ana=3, Cy=1, Di=2)])
    assert lines(result) == [
        ("1st", "Ana", "3", "level at the top"),
        ("1st", "Bo", "3", "level at the top"),
        ("3rd", "Cy", "8", "5 behind"),
        ("4th", "Di", "11", "8 behind"),
    ]


def test_partner_dirt_ranks_the_teams() -> None:
    result = board("dirt", [points(1, Bo=10, Cy=4, Di=2)], teams=[[1, 3], [2, 4]])
    assert lines(result) == [
        ("1st", "Ana & Cy", "0", "leads by 12"),
        ("2nd", "Bo & Di", "12", "12 behind"),
    ]


def test_screw_your_neighbour_counts_the_wins_still_needed() -> None:
    result = board("screw-your-neighbour", [{"winner": 2}, {"winner": 2}, {"winner": 4}])
    assert lines(result) == [
        ("1st", "Bo", "2", "needs 1 more win"),
        ("2nd", "Di", "1", "needs 2 more wins"),
        ("3rd", "Ana", "0", "needs 3 more wins"),
        ("3rd", "Cy", "0", "needs 3 more wins"),
    ]
    assert result is not None
    assert [x.unit for x in result.lines] == ["wins", "win", "wins", "wins"]
    open_ended = board("screw-your-neighbour", [{"winner": 2}], options={"target_wins": 0})
    assert lines(open_ended)[0] == ("1st", "Bo", "1", "leads by 1")


def test_damn_you_counts_chips() -> None:
    # The spec's worked example: A 11, B 46, C 15, D 8.
    hand = {
        "winner": 2,
        "results": [
            {"player": 1, "passes": 2, "cards_left": 5},
            {"player": 2, "passes": 0, "cards_left": 0},
            {"player": 3, "passes": 1, "cards_left": 3},
            {"player": 4, "passes": 3, "cards_left": 7},
        ],
    }
    result = board("damn-you", [hand])
    assert lines(result) == [
        ("1st", "Bo", "46", "leads by 31 chips"),
        ("2nd", "Cy", "15", "31 chips behind"),
        ("3rd", "Ana", "11", "35 chips behind"),
        ("4th", "Di", "8", "38 chips behind"),
    ]
    assert result is not None
    assert result.title == "After hand 1 of 4 · 3 hands left"


def test_dirty_uno_standard_says_what_passes_500() -> None:
    result = board("dirty-uno", [points(1, Bo=400, Cy=50)], players=3)
    assert lines(result) == [
        ("1st", "Ana", "450", "needs 51 to pass 500"),
        ("2nd", "Bo", "0", "needs 501 to pass 500"),
        ("2nd", "Cy", "0", "needs 501 to pass 500"),
    ]


def test_dirty_uno_penalty_lowest_first_and_the_distance_to_500() -> None:
    hands = [points(3, Ana=470, Bo=300)]
    result = board("dirty-uno", hands, options={"scoring": "penalty"}, players=3)
    assert lines(result) == [
        ("1st", "Cy", "0", "leads by 300 · 501 from passing 500"),
        ("2nd", "Bo", "300", "300 behind · 201 from passing 500"),
        ("3rd", "Ana", "470", "470 behind · 31 from passing 500"),
    ]


def test_dirty_deals_ranks_rubbers_then_points() -> None:
    # Bo's clean claim (9) wins the first rubber; Cy claims hearts with a surplus card.
    hands = [
        {"winner": 2, "suit": "S", "surplus": [], "bower_holder": 1},
        {"winner": 3, "suit": "H", "surplus": ["9C"], "bower_holder": 1},
    ]
    result = board("dirty-deals", hands)
    assert lines(result) == [
        ("1st", "Bo", "0", "needs 9 more for the rubber · one more rubber wins the match"),
        ("2nd", "Cy", "8", "needs 1 more for the rubber"),
        ("3rd", "Ana", "3", "needs 6 more for the rubber"),
        ("4th", "Di", "0", "needs 9 more for the rubber"),
    ]
    assert result is not None
    assert [x.rubbers for x in result.lines][:2] == [[True, False], [False, False]]
    assert result.title == "After hand 2 · rubber 2"


def test_the_sheet_shows_the_board_by_place(client: Any, django_user_model: Any) -> None:
    from scorekeeper.models import Player
    from scorekeeper.services.games import game_create, hand_record

    owner = django_user_model.objects.create_user("ana", password="pw-pw-pw-42")
    client.force_login(owner)
    ids = [Player.objects.create(name=n, created_by=owner).pk for n in ("Ana", "Bo", "Cy")]
    game = game_create(owner=owner, ruleset="dirt", players=ids)
    hand_record(
        game=game,
        user=owner,
        hand_input={
            "winner": ids[2],
            "results": [{"player": ids[0], "points": 9}, {"player": ids[1], "points": 4}],
        },
    )
    html = client.get(f"/games/{game.pk}/").content.decode()
    board_html = html[html.index('class="scoreboard"') : html.index('id="grid-heading"')]
    assert board_html.index("Cy") < board_html.index("Bo") < board_html.index("Ana")
    assert "leads by 4" in board_html
