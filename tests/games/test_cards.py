from __future__ import annotations

import pytest

from games.base import CardError
from games.cards import (
    FrenchCard,
    UnoCard,
    check_copies,
    french_deck,
    parse_french,
    parse_uno,
    uno_deck,
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
    assert err.value.message == "AS is entered 4 times, but 3 decks holds only 3 copies"
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
