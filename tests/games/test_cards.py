from __future__ import annotations

import pytest

from games.base import CardError
from games.cards import (
    FrenchCard,
    UnoCard,
    check_copies,
    french_deck,
    french_rank,
    parse_french,
    parse_uno,
    uno_deck,
    uno_value,
)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("AS", "AS"),
        ("as", "AS"),
        ("10H", "10H"),
        ("10h", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("T♥", "10H"),
        ("t♡", "10H"),
        ("Q♦", "QD"),
        ("k♣", "KC"),
        ("2♠", "2S"),
        (" 7 c ", "7C"),
        # Suit first, as people read a card off the table.
        ("H10", "10H"),
        ("♥Q", "QH"),
        ("sa", "AS"),
        ("dT", "10D"),
        ("JK", "JK"),
        ("jk", "JK"),
        ("Joker", "JK"),
        ("🃏", "JK"),
    ],
)
def test_parse_french_is_forgiving(text: str, code: str) -> None:
    assert parse_french(text).code == code


def test_french_card_parts() -> None:
    assert parse_french("t♥") == FrenchCard("10", "H")
    assert parse_french("10H").label == "10♥"
    assert parse_french("JK").is_joker
    assert parse_french("JK").label == "Joker"
    assert str(parse_french("qd")) == "QD"


@pytest.mark.parametrize("bad", ["1H", "11S", "ZZ", "A", "", "AX", "QQ", "10", "H"])
def test_parse_french_names_the_bad_code(bad: str) -> None:
    with pytest.raises(CardError) as err:
        parse_french(bad)
    assert f"'{bad}'" in err.value.message
    assert err.value.field == "cards"


def test_parse_french_rejects_non_text() -> None:
    with pytest.raises(CardError) as err:
        parse_french(10)
    assert "10" in err.value.message


@pytest.mark.parametrize(
    ("text", "rank"),
    [("4", "4"), ("10", "10"), ("T", "10"), ("t", "10"), ("a", "A"), ("k", "K"), (" q ", "Q")],
)
def test_a_rank_alone_is_a_card_without_a_suit_where_suits_are_optional(
    text: str, rank: str
) -> None:
    card = parse_french(text, suit_optional=True)
    assert card == FrenchCard(rank, None)
    assert card.rank_only
    assert not card.is_joker
    assert card.code == rank
    assert card.label == rank
    # Its code reads back as the same card: what is stored is what was reported.
    assert parse_french(card.code, suit_optional=True) == card


def test_suit_optional_still_reads_full_codes_and_jokers() -> None:
    assert parse_french("4h", suit_optional=True) == FrenchCard("4", "H")
    assert parse_french("♥Q", suit_optional=True).code == "QH"
    assert not parse_french("4H", suit_optional=True).rank_only
    joker = parse_french("joker", suit_optional=True)
    assert joker.is_joker
    assert not joker.rank_only
    assert joker.code == "JK"


@pytest.mark.parametrize("bad", ["1", "11", "Z", "", "H", "S", "1H", "AX"])
def test_suit_optional_still_names_a_bad_code(bad: str) -> None:
    with pytest.raises(CardError) as err:
        parse_french(bad, suit_optional=True)
    assert f"'{bad}'" in err.value.message


def test_a_rank_alone_needs_suit_optional() -> None:
    # Dirty Deals scores by suit: there a bare rank stays an error.
    with pytest.raises(CardError) as err:
        parse_french("4")
    assert "'4' is not a card" in err.value.message
    assert "rank alone" not in err.value.message


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("G7", "G7"),
        ("g7", "G7"),
        ("r0", "R0"),
        ("BS", "BS"),
        ("bs", "BS"),
        ("RR", "RR"),
        ("Y+2", "Y+2"),
        ("y+2", "Y+2"),
        (" y + 2 ", "Y+2"),
        ("W", "W"),
        ("w", "W"),
        ("W+4", "W+4"),
        ("w+4", "W+4"),
        ("wd4", "W+4"),
        ("+4", "W+4"),
        ("wild", "W"),
        ("rskip", "RS"),
        ("B reverse", "BR"),
        ("gd2", "G+2"),
        ("Gdraw2", "G+2"),
    ],
)
def test_parse_uno_is_forgiving(text: str, code: str) -> None:
    assert parse_uno(text).code == code


def test_uno_card_parts() -> None:
    assert parse_uno("W") == UnoCard(None, "W")
    assert parse_uno("W+4").is_wild
    assert parse_uno("Y+2").points_key == "draw"
    assert parse_uno("BS").points_key == "action"
    assert parse_uno("G7").points_key == "7"
    assert parse_uno("Y+2").label == "Yellow Draw Two"
    assert parse_uno("W+4").label == "Wild Draw Four"


@pytest.mark.parametrize("bad", ["X9", "R10", "G", "", "P+2", "B+3", "W+2", "7G"])
def test_parse_uno_names_the_bad_code(bad: str) -> None:
    with pytest.raises(CardError) as err:
        parse_uno(bad)
    assert f"'{bad}'" in err.value.message


def test_parse_uno_rejects_non_text() -> None:
    with pytest.raises(CardError):
        parse_uno(None)


@pytest.mark.parametrize(
    ("text", "value", "label"),
    [
        ("7", "7", "7 (any colour)"),
        ("0", "0", "0 (any colour)"),
        ("S", "S", "Skip (any colour)"),
        ("skip", "S", "Skip (any colour)"),
        ("R", "R", "Reverse (any colour)"),
        ("reverse", "R", "Reverse (any colour)"),
        ("+2", "+2", "Draw Two (any colour)"),
        ("d2", "+2", "Draw Two (any colour)"),
    ],
)
def test_a_value_alone_is_an_uno_card_without_a_colour(text: str, value: str, label: str) -> None:
    card = parse_uno(text, colour_optional=True)
    assert card == UnoCard(None, value)
    assert card.value_only
    assert not card.is_wild
    assert card.code == value
    assert card.label == label
    assert parse_uno(card.code, colour_optional=True) == card


def test_colour_optional_keeps_colour_codes_and_wilds() -> None:
    # A bare R is a Reverse; a colour letter before a value is still the colour.
    assert parse_uno("RR", colour_optional=True) == UnoCard("R", "R")
    assert parse_uno("R7", colour_optional=True) == UnoCard("R", "7")
    assert parse_uno("rs", colour_optional=True) == UnoCard("R", "S")
    assert parse_uno("G+2", colour_optional=True) == UnoCard("G", "+2")
    for text in ("W", "W+4", "+4", "wild"):
        card = parse_uno(text, colour_optional=True)
        assert card.is_wild
        assert not card.value_only
    assert parse_uno("W+4", colour_optional=True).code == "W+4"


def test_points_keys_of_cards_without_a_colour() -> None:
    keys = {c: parse_uno(c, colour_optional=True).points_key for c in ("7", "S", "R", "+2", "W")}
    assert keys == {"7": "7", "S": "action", "R": "action", "+2": "draw", "W": "W"}


@pytest.mark.parametrize("bad", ["X9", "R10", "G", "B", "Y", "", "10", "+3", "W+2", "7G"])
def test_colour_optional_still_names_a_bad_code(bad: str) -> None:
    with pytest.raises(CardError) as err:
        parse_uno(bad, colour_optional=True)
    assert f"'{bad}'" in err.value.message


def test_a_value_alone_needs_colour_optional() -> None:
    for text in ("7", "R", "S", "+2"):
        with pytest.raises(CardError):
            parse_uno(text)


def test_decks() -> None:
    one = french_deck()
    assert sum(one.values()) == 54
    assert one["AS"] == 1
    assert one["JK"] == 2
    three = french_deck(3, jokers_per_deck=2)
    assert three["7H"] == 3
    assert three["JK"] == 6
    short = french_deck(1, jokers_per_deck=0, ranks=("9", "10", "J", "Q", "K", "A"))
    assert sum(short.values()) == 24
    assert "2S" not in short
    uno = uno_deck()
    assert sum(uno.values()) == 108
    assert uno["R0"] == 1
    assert uno["R7"] == 2
    assert uno["G+2"] == 2
    assert uno["W"] == 4
    assert uno["W+4"] == 4


def test_check_copies_accepts_what_the_deck_holds() -> None:
    check_copies(["AS", "AS", "JK", "JK", "JK", "JK"], french_deck(2))
    check_copies([], french_deck(1))


def test_check_copies_names_the_card() -> None:
    with pytest.raises(CardError) as err:
        check_copies(
            ["AS", "KD", "AS", "AS", "AS"], french_deck(3), field="results", deck_name="3 decks"
        )
    assert err.value.message == "AS is entered 4 times, but 3 decks hold only 3 copies"
    assert err.value.field == "results"
    with pytest.raises(CardError) as err:
        check_copies(["JK"] * 7, french_deck(3))
    assert "JK is entered 7 times" in err.value.message
    with pytest.raises(CardError) as err:
        check_copies(["R0", "R0"], uno_deck(), deck_name="the UNO deck")
    assert "only 1 copy" in err.value.message


def test_check_copies_rejects_cards_not_in_the_deck() -> None:
    with pytest.raises(CardError) as err:
        check_copies(["2S"], french_deck(1, ranks=("9", "A")), deck_name="the short deck")
    assert err.value.message == "2S is not in the short deck"


def test_rank_of_a_code() -> None:
    assert [french_rank(c) for c in ("10H", "10", "T", "AS", "JK")] == ["10", "10", "10", "A", "JK"]
    assert [uno_value(c) for c in ("G7", "7", "RR", "R", "Y+2", "W+4")] == [
        "7",
        "7",
        "R",
        "R",
        "+2",
        "W+4",
    ]


def test_check_copies_counts_a_rank_alone_against_every_suit() -> None:
    three = french_deck(3)
    check_copies(["4"] * 12, three, rank_of=french_rank)
    check_copies(["4"] * 9 + ["4S", "4S", "4S"], three, rank_of=french_rank)
    with pytest.raises(CardError) as err:
        check_copies(["4"] * 13, three, deck_name="3 decks", rank_of=french_rank)
    assert err.value.message == "4 is entered 13 times, but 3 decks hold only 12 fours"
    with pytest.raises(CardError) as err:
        check_copies(
            ["4H", "4"] + ["4"] * 9 + ["4S", "4H"],
            three,
            field="results",
            deck_name="3 decks",
            rank_of=french_rank,
        )
    assert err.value.message == (
        "4 is entered 13 times (4H ×2, 4 ×10, 4S), but 3 decks hold only 12 fours"
    )
    assert err.value.field == "results"


def test_check_copies_still_limits_each_full_code_beside_a_rank_alone() -> None:
    with pytest.raises(CardError) as err:
        check_copies(["4", "4S", "4S", "4S", "4S"], french_deck(3), rank_of=french_rank)
    assert "4S is entered 4 times" in err.value.message


def test_check_copies_of_uno_values_alone() -> None:
    uno = uno_deck()
    check_copies(["0", "0", "R0", "G0"], uno, rank_of=uno_value)
    check_copies(["R"] * 8, uno, rank_of=uno_value)
    with pytest.raises(CardError) as err:
        check_copies(["0"] * 5, uno, deck_name="the UNO deck", rank_of=uno_value)
    assert err.value.message == "0 is entered 5 times, but the UNO deck holds only 4 zeros"
    with pytest.raises(CardError) as err:
        check_copies(["+2"] * 7 + ["B+2", "Y+2"], uno, deck_name="the UNO deck", rank_of=uno_value)
    assert err.value.message == (
        "+2 is entered 9 times (+2 ×7, B+2, Y+2), but the UNO deck holds only 8 Draw Twos"
    )


def test_check_copies_takes_a_rank_alone_only_with_rank_of() -> None:
    with pytest.raises(CardError) as err:
        check_copies(["4"], french_deck(1), deck_name="the deck")
    assert err.value.message == "4 is not in the deck"
    with pytest.raises(CardError) as err:
        check_copies(["2"], french_deck(1, ranks=("9", "A")), rank_of=french_rank)
    assert err.value.message == "2 is not in the deck"
