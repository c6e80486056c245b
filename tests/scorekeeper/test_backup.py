"""A league's export and import: the JSON backup reproduces the league exactly in an
empty install, the CSV has one row per player per game, a bad file is refused with the
place of the problem and nothing written, and only the league's people may download it."""

from __future__ import annotations

import copy
import csv
import html
import io
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from games import RuleError
from scorekeeper.api import backup as api_backup
from scorekeeper.models import (
    Game,
    Guest,
    Hand,
    HandRevision,
    IdempotencyRecord,
    League,
    LeagueImport,
    Membership,
    Player,
    PlayerStanding,
    RatingPoint,
    Seat,
)
from scorekeeper.selectors.games import game_config, game_state
from scorekeeper.selectors.leagues import standings_for_league
from scorekeeper.services import backup
from scorekeeper.services.backup import (
    CSV_COLUMNS,
    league_export_csv,
    league_export_json,
    league_export_json_text,
    league_import,
    league_import_json,
    remap_player_ids,
)
from scorekeeper.services.games import (
    game_close,
    game_create,
    hand_record,
    hand_replace,
    hand_undo,
)
from scorekeeper.services.invites import invite_create
from scorekeeper.simulate import next_hand

pytestmark = pytest.mark.django_db

MODELS = (User, Player, League, Membership, Game, Seat, Hand, HandRevision)


def counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in MODELS}


def record(game: Game, user: User | None, hand: dict[str, Any]) -> None:
    hand_record(game=game, user=user, hand_input=hand)


def play(game: Game, user: User | None, rng: random.Random, *, hands: int | None = None) -> None:
    """Go on with a game through the services, simulated hands, to its end or until it
    has ``hands`` hands."""
    fresh = Game.objects.prefetch_related("seats", "hands").get(pk=game.pk)
    config = game_config(fresh)
    state = game_state(fresh)
    # A service's state holds only the last hands: count by the last hand's number.
    while not state.finished and (
        hands is None or (state.hands[-1].number if state.hands else 0) < hands
    ):
        state = hand_record(
            game=game, user=user, hand_input=next_hand(rng, config, state, {})
        ).state


@pytest.fixture
def league(user: User, other_user: User) -> League:
    """Ana's league: five players (Ana and Bo with accounts), games of all five rulesets
    (partner play, a game ended by hand, one in progress), corrections and an undo."""
    rng = random.Random(7)
    ana = Player.objects.create(name="Ana", user=user, created_by=user)
    bo = Player.objects.create(name="Bo", user=other_user, created_by=user)
    cy, di, ed = (Player.objects.create(name=n, created_by=user) for n in ("Cy", "Di", "Ed"))
    league = League.objects.create(name="Thursday table", owner=user)
    for p in (ana, bo, cy, di, ed):
        Membership.objects.create(league=league, player=p)
    # Bo corrects a finished game below: an admin of the league may.
    Membership.objects.filter(player=bo).update(role="admin")
    four = [ana.pk, bo.pk, cy.pk, di.pk]

    dirt = game_create(
        owner=user,
        ruleset="dirt",
        players=four,
        variant="tiny-baby-down",
        teams=[[ana.pk, cy.pk], [bo.pk, di.pk]],
        first_dealer=bo.pk,
        league=league,
        options={"ten_points": 10},
    )
    play(dirt, user, rng)
    # Bo corrects hand 2: Cy was holding points, not cards.
    hand_replace(
        game=dirt,
        number=2,
        user=other_user,
        hand_input={
            "winner": ana.pk,
            "results": [
                {"player": bo.pk, "cards": ["JK", "4H"]},
                {"player": cy.pk, "points": 12},
                {"player": di.pk, "cards": ["AS"]},
            ],
        },
    )

    uno = game_create(
        owner=other_user,
        ruleset="dirty-uno",
        players=[bo.pk, cy.pk, ed.pk],
        options={"scoring": "penalty"},
        league=league,
    )
    play(uno, other_user, rng, hands=2)
    play(uno, user, rng, hands=3)
    hand_undo(game=uno, number=3, user=user)
    play(uno, other_user, rng)

    syn = game_create(
        owner=user,
        ruleset="screw-your-neighbour",
        players=[ed.pk, ana.pk, di.pk],
        options={"target_wins": 0},
        league=league,
    )
    for winner in (ed, ana, ana, di):
        record(syn, None, {"winner": winner.pk})
    game_close(game=syn, user=user)

    deals = game_create(owner=user, ruleset="dirty-deals", players=four, league=league)
    play(deals, user, rng)
    damn = game_create(
        owner=user,
        ruleset="damn-you",
        players=[ana.pk, bo.pk, cy.pk, ed.pk],
        league=league,
        options={"starting_chips": 15},
    )
    play(damn, user, rng, hands=2)
    # A game outside the league is not part of its export.
    game_create(owner=user, ruleset="screw-your-neighbour", players=four)
    return league


def canonical(export: dict[str, Any]) -> dict[str, Any]:
    """The export with ids replaced by their order in the file: two installs give the
    same league different ids."""
    data = copy.deepcopy(export)
    data.pop("exported_at")
    data["league"].pop("id")
    players = {p["id"]: index for index, p in enumerate(data["players"])}
    for p in data["players"]:
        p["id"] = players[p["id"]]
    for m in data["members"]:
        m["player"] = players[m["player"]]
    for index, game in enumerate(data["games"]):
        game["id"] = index
        game["first_dealer"] = players[game["first_dealer"]]
        if game["teams"]:
            game["teams"] = [[players[p] for p in team] for team in game["teams"]]
        for seat in game["seats"]:
            seat["player"] = players[seat["player"]]
        for entry in (*game["hands"], *game["revisions"]):
            entry["input"] = remap_player_ids(entry["input"], players)
    return data


def named_standings(league: League) -> dict[str, list[tuple[str, int, int, float]]]:
    return {
        scope or "all": [
            (r["name"], r["games"], r["wins"], r["rating"])
            for r in standings_for_league(league, scope or None)
        ]
        for scope in ("", "dirt", "dirty-uno", "screw-your-neighbour", "dirty-deals")
    }


def empty_the_install() -> None:
    for model in (
        RatingPoint,
        PlayerStanding,
        IdempotencyRecord,
        HandRevision,
        Hand,
        Seat,
        Game,
        Membership,
        League,
        Player,
        User,
    ):
        model.objects.all().delete()


# -- the round trip -----------------------------------------------------------------


def test_export_holds_every_hand_and_its_history(league: League) -> None:
    data = league_export_json(league)
    assert data["format"] == "scorekeeper.league"
    assert data["version"] == 1
    assert [p["name"] for p in data["players"]] == ["Ana", "Bo", "Cy", "Di", "Ed"]
    assert {p["name"]: p["user"] for p in data["players"]} == {
        "Ana": "ana",
        "Bo": "bo",
        "Cy": None,
        "Di": None,
        "Ed": None,
    }
    assert data["users"] == ["ana", "bo"]
    games = data["games"]
    assert [g["ruleset"] for g in games] == [
        "dirt",
        "dirty-uno",
        "screw-your-neighbour",
        "dirty-deals",
        "damn-you",
    ]
    dirt = games[0]
    assert dirt["options"] == {"ten_points": 10, "decks": 3, "stuck_draw": "one"}
    assert len(dirt["teams"]) == 2
    assert dirt["hands"][1]["revision"] == 2
    actions = [(r["number"], r["action"], r["user"]) for r in dirt["revisions"]]
    assert actions == [
        (1, "recorded", "ana"),
        (2, "recorded", "ana"),
        (3, "recorded", "ana"),
        (2, "corrected", "bo"),
    ]
    # The correction's input is the hand's input now; the first entry is kept before it.
    assert dirt["revisions"][3]["input"] == dirt["hands"][1]["input"]
    assert dirt["revisions"][1]["input"] != dirt["hands"][1]["input"]
    uno = games[1]
    assert [r["action"] for r in uno["revisions"] if r["number"] == 3][:2] == [
        "recorded",
        "undone",
    ]
    assert games[2]["closed"] is True
    assert games[4]["status"] == "in_progress"
    assert [s["place"] for s in games[4]["seats"]] == [None] * 4


def test_streamed_export_is_the_same_json(league: League, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backup.export, "EXPORT_CHUNK", 2)  # several chunks
    whole = league_export_json(league)
    for indent in (None, 1):
        text = "".join(league_export_json_text(league, indent=indent))
        streamed_data = json.loads(text)
        assert streamed_data.pop("exported_at")
        assert streamed_data == {k: v for k, v in whole.items() if k != "exported_at"}


def test_import_into_an_empty_install_reproduces_the_league(league: League) -> None:
    before = league_export_json(league)
    standings = named_standings(league)
    points = RatingPoint.objects.filter(league=league).count()
    empty_the_install()
    owner = User.objects.create_user("ana")

    imported = league_import_json(
        json.loads(json.dumps(before)), owner=owner, trusted=True, create_users=True
    )

    after = league_export_json(imported)
    assert canonical(after) == canonical(before)
    assert named_standings(imported) == standings
    # The sheet's "corrected" mark comes back from the history: Dirt's hand 2 only.
    marks = {g.ruleset: g.corrected_hands for g in Game.objects.filter(league=imported)}
    assert marks["dirt"] == [2]
    assert [n for slug, n in marks.items() if slug != "dirt"] == [[]] * 4
    assert RatingPoint.objects.filter(league=imported).count() == points
    # Accounts the file names are recreated, without a password anyone could use.
    bo = User.objects.get(username="bo")
    assert not bo.has_usable_password()
    assert Player.objects.get(user=bo).name == "Bo"


def test_colours_and_hidden_players_survive_the_round_trip(league: League) -> None:
    ana, bo = (Player.objects.get(name=name, memberships__league=league) for name in ("Ana", "Bo"))
    Player.objects.filter(pk=ana.pk).update(colour=7)
    Player.objects.filter(pk=bo.pk).update(hidden=True)
    before = league_export_json(league)
    by_name = {p["name"]: p for p in before["players"]}
    assert (by_name["Ana"]["colour"], by_name["Ana"]["hidden"]) == (7, False)
    assert (by_name["Bo"]["colour"], by_name["Bo"]["hidden"]) == (None, True)
    empty_the_install()
    owner = User.objects.create_user("ana")
    imported = league_import_json(before, owner=owner, trusted=True, create_users=True)
    players = {p.name: p for p in Player.objects.filter(memberships__league=imported)}
    assert (players["Ana"].colour, players["Ana"].hidden) == (7, False)
    assert (players["Bo"].colour, players["Bo"].hidden) == (None, True)
    # An export from before colours and hiding imports as it did.
    for entry in before["players"]:
        del entry["colour"], entry["hidden"]
    empty_the_install()
    owner = User.objects.create_user("ana")
    imported = league_import_json(before, owner=owner, trusted=True, create_users=True)
    assert not Player.objects.filter(memberships__league=imported, hidden=True).exists()
    assert not Player.objects.filter(memberships__league=imported, colour__isnull=False).exists()


def test_guests_in_the_history_survive_the_round_trip(league: League) -> None:
    game = Game.objects.filter(league=league).order_by("created_at", "id").first()
    assert game is not None
    link = invite_create(game=game, user=league.owner, role="score")
    maya = Guest.objects.create(invite=link, name="Maya")
    first, second = HandRevision.objects.filter(game=game).order_by("created_at", "id")[:2]
    HandRevision.objects.filter(pk__in=[first.pk, second.pk]).update(guest=maya, user=None)
    before = league_export_json(league)
    revisions = before["games"][0]["revisions"]
    assert [r["guest"] for r in revisions[:3]] == ["Maya", "Maya", None]
    empty_the_install()
    owner = User.objects.create_user("ana")
    imported = league_import_json(before, owner=owner, trusted=True, create_users=True)
    again = league_export_json(imported)
    assert [r["guest"] for r in again["games"][0]["revisions"]] == [r["guest"] for r in revisions]
    # One guest, on a link made for the import that lets nobody in.
    guest = Guest.objects.get(invite__game__league=imported)
    assert guest.name == "Maya"
    assert guest.invite.revoked_at is not None
    assert HandRevision.objects.filter(guest=guest).count() == 2


def test_import_command_round_trip(league: League, tmp_path: Any) -> None:
    path_ = tmp_path / "league.json"
    call_command("export_league", str(league.pk), "-o", str(path_), stderr=io.StringIO())
    before = json.loads(path_.read_text(encoding="utf-8"))
    empty_the_install()
    User.objects.create_superuser("ana", "ana@example.com", "pw-long-enough-42")
    out = io.StringIO()
    call_command("import_league", str(path_), "--owner", "ana", stdout=out)
    assert "5 games" in out.getvalue()
    assert "Created accounts without a password: bo" in out.getvalue()
    imported = League.objects.get()
    assert canonical(league_export_json(imported)) == canonical(before)


def test_import_by_a_user_links_only_their_own_account(league: League, other_user: User) -> None:
    """A file is only a claim: Bo's import reuses Bo's player, and names nobody else."""
    data = league_export_json(league)
    bo_player = Player.objects.get(user=other_user)
    players_before = Player.objects.count()

    result = league_import(data, owner=other_user)

    imported = result.league
    assert imported.owner == other_user
    assert result.players_reused == 1
    assert Player.objects.count() == players_before + 4
    assert Membership.objects.filter(league=imported, player=bo_player).exists()
    assert not Player.objects.filter(memberships__league=imported, user__username="ana").exists()
    games = Game.objects.filter(league=imported)
    assert set(games.values_list("owner__username", flat=True)) == {"bo"}
    assert set(
        Hand.objects.filter(game__league=imported).values_list("created_by__username", flat=True)
    ) <= {"bo", None}

    # The results are the engine's, the same as the original league's.
    def results(lg: League) -> list[tuple[int, int, bool]]:
        seats = Seat.objects.filter(game__league=lg).order_by("game__created_at", "position")
        return list(seats.values_list("score", "place", "won"))

    assert results(imported) == results(league)


def test_import_ignores_results_written_in_the_file(league: League, user: User) -> None:
    data = league_export_json(league)
    for seat in data["games"][0]["seats"]:
        seat["score"], seat["place"], seat["won"] = 999, 1, True
    data["games"][0]["status"] = "in_progress"
    imported = league_import_json(data, owner=user)
    dirt = Game.objects.filter(league=imported, ruleset="dirt").get()
    assert dirt.status == "finished"
    assert sorted(dirt.seats.values_list("won", flat=True)) == [False, False, True, True]


# -- CSV ------------------------------------------------------------------------------


def csv_rows(league: League) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO("".join(league_export_csv(league)))))


def test_csv_has_one_row_per_player_per_game(league: League) -> None:
    text = "".join(league_export_csv(league))
    assert text.splitlines()[0] == ",".join(CSV_COLUMNS)
    rows = csv_rows(league)
    assert len(rows) == Seat.objects.filter(game__league=league).count() == 4 + 3 + 3 + 4 + 4
    dirt = [r for r in rows if r["ruleset"] == "dirt"]
    assert [r["player_name"] for r in dirt] == ["Ana", "Bo", "Cy", "Di"]
    assert [r["team"] for r in dirt] == ["0", "1", "0", "1"]
    assert [r["seat"] for r in dirt] == ["0", "1", "2", "3"]
    assert {r["variant"] for r in dirt} == {"tiny-baby-down"}
    game = Game.objects.get(league=league, ruleset="dirt")
    for row, seat in zip(dirt, game.seats.order_by("position"), strict=True):
        assert row["game_id"] == str(game.pk)
        assert row["date"] == game.created_at.date().isoformat()
        assert row["score"] == str(seat.score)
        assert row["place"] == str(seat.place)
        assert row["won"] == ("true" if seat.won else "false")
        assert row["status"] == "finished"
    in_progress = [r for r in rows if r["ruleset"] == "damn-you"]
    assert {(r["place"], r["won"], r["status"]) for r in in_progress} == {
        ("", "false", "in_progress")
    }


def test_csv_names_cannot_run_as_spreadsheet_formulas(league: League) -> None:
    Player.objects.filter(name="Ed").update(name="=HYPERLINK(1)")
    names = {r["player_name"] for r in csv_rows(league)}
    assert "'=HYPERLINK(1)" in names
    assert "=HYPERLINK(1)" not in names


def test_export_command_writes_csv_to_stdout(league: League) -> None:
    out = io.StringIO()
    call_command("export_league", str(league.pk), "--format", "csv", stdout=out)
    assert out.getvalue().splitlines()[0].startswith("game_id,date,ruleset")
    with pytest.raises(CommandError, match="no league 9999"):
        call_command("export_league", "9999")


# -- bad files --------------------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], Any]


def _set(path: str, value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        target: Any = data
        keys = path.split(".")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = keys[-1]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
        return data

    return mutate


def _duplicate_player(data: dict[str, Any]) -> Any:
    data["players"][1]["id"] = data["players"][0]["id"]
    return data


def _card_not_in_deck(data: dict[str, Any]) -> Any:
    results = data["games"][0]["hands"][1]["input"]["results"]
    next(r for r in results if "cards" in r)["cards"] = ["JK", "1Z"]
    return data


def _winner_holds_cards(data: dict[str, Any]) -> Any:
    hand = data["games"][3]["hands"][0]["input"]
    hand["winner"] = hand["bower_holder"] = data["games"][3]["seats"][0]["player"]
    return data


def _hand_after_the_end(data: dict[str, Any]) -> Any:
    hands = data["games"][0]["hands"]
    hands.append({**hands[-1], "number": len(hands) + 1})
    return data


def _stranger_in_a_hand(data: dict[str, Any]) -> Any:
    data["games"][1]["hands"][0]["input"]["winner"] = data["players"][0]["id"]  # Ana, not seated
    return data


def _stranger_in_a_revision(data: dict[str, Any]) -> Any:
    data["games"][0]["revisions"][0]["input"]["winner"] = 424242
    return data


BAD_FILES: list[tuple[str, Mutation, str, str]] = [
    ("a list", lambda d: [d], "format", "JSON object"),
    ("another format", _set("format", "something.else"), "format", "not a scorekeeper"),
    ("a newer version", _set("version", 2), "version", "newer than this install"),
    ("no players list", _set("players", {}), "players", "players: must be a list"),
    ("a nameless player", _set("players.0.name", " "), "players", "players[0].name"),
    ("a player twice", _duplicate_player, "players", "player id"),
    ("a colour off the palette", _set("players.0.colour", 11), "players", "players[0].colour"),
    ("a colour by name", _set("players.0.colour", "red"), "players", "players[0].colour"),
    ("hidden as a word", _set("players.0.hidden", "yes"), "players", "players[0].hidden"),
    (
        "a guest named by a control character",
        _set("games.0.revisions.0.guest", "\x07"),
        "games",
        "games[0].revisions[0].guest",
    ),
    ("a guest's long name", _set("games.0.revisions.0.guest", "M" * 41), "games", "guest"),
    ("a bad date", _set("games.0.created_at", "last Thursday"), "games", "ISO 8601"),
    ("an unknown game", _set("games.0.ruleset", "poker"), "games", "'poker' is not a game"),
    ("an unknown seat", _set("games.0.seats.0.player", 9999), "games", "player 9999 is not"),
    ("a bad option", _set("games.1.options", {"scoring": "golf"}), "games", "scoring"),
    ("a card not in the deck", _card_not_in_deck, "games", "hands[1] (hand 2)"),
    ("a claimant holding the bower", _winner_holds_cards, "games", "bower"),
    ("a hand after the end", _hand_after_the_end, "games", "over"),
    ("a player who is not seated", _stranger_in_a_hand, "games", "not in this game"),
    ("a stranger in the history", _stranger_in_a_revision, "games", "revisions[0].input"),
    ("a bad action", _set("games.0.revisions.0.action", "erased"), "games", "action"),
    ("hands out of order", _set("games.0.hands.0.number", 2), "games", "numbered 1, 2, 3"),
]


@pytest.mark.parametrize(
    ("mutate", "field", "words"),
    [pytest.param(m, f, w, id=name) for name, m, f, w in BAD_FILES],
)
def test_a_bad_file_is_refused_and_nothing_is_written(
    league: League, user: User, mutate: Mutation, field: str, words: str
) -> None:
    bad = mutate(league_export_json(league))
    before = counts()
    with pytest.raises(RuleError) as caught:
        league_import_json(bad, owner=user, trusted=True, create_users=True)
    assert caught.value.field == field
    assert words in caught.value.message
    assert counts() == before


def test_import_command_reports_bad_files(tmp_path: Any, user: User) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "scorekeeper.league", "version": 1,', encoding="utf-8")
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_league", str(broken), "--owner", "ana")
    with pytest.raises(CommandError, match="no user 'nobody'"):
        call_command("import_league", str(broken), "--owner", "nobody")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_league", str(tmp_path / "missing.json"), "--owner", "ana")
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"format": "x"}', encoding="utf-8")
    with pytest.raises(CommandError, match="Nothing was imported: this is not a scorekeeper"):
        call_command("import_league", str(wrong), "--owner", "ana")


# -- the pages --------------------------------------------------------------------------


@pytest.fixture
def ana_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def bo_client(other_user: User) -> Client:
    client = Client()
    client.force_login(other_user)
    return client


def test_owner_downloads_json_and_csv(league: League, ana_client: Client) -> None:
    response = ana_client.get(f"/leagues/{league.pk}/export.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="thursday-table-')
    assert json.loads(streamed(response))["league"]["name"] == "Thursday table"
    response = ana_client.get(f"/leagues/{league.pk}/export.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].endswith('.csv"')
    text = streamed(response)
    assert len(text.splitlines()) == 1 + 18


def test_a_member_downloads_too(league: League, bo_client: Client) -> None:
    assert bo_client.get(f"/leagues/{league.pk}/export.json").status_code == 200


def test_strangers_get_404_and_visitors_sign_in(league: League, db: None) -> None:
    stranger = User.objects.create_user("cy")
    client = Client()
    client.force_login(stranger)
    assert client.get(f"/leagues/{league.pk}/export.json").status_code == 404
    assert client.get(f"/leagues/{league.pk}/export.csv").status_code == 404
    assert client.get("/leagues/424242/export.json").status_code == 404
    anonymous = Client().get(f"/leagues/{league.pk}/export.json")
    assert anonymous.status_code == 302
    assert "/accounts/login/" in anonymous["Location"]


def streamed(response: Any) -> str:
    return b"".join(response.streaming_content).decode()


def upload(data: Any, name: str = "league.json") -> SimpleUploadedFile:
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    return SimpleUploadedFile(name, body, content_type="application/json")


def test_import_page_creates_a_league(league: League, bo_client: Client) -> None:
    """The upload leads to the import's page, which (the worker done: tasks run at once
    here) names the new league and links to it."""
    page = bo_client.get("/leagues/import/")
    assert page.status_code == 200
    assert b'enctype="multipart/form-data"' in page.content
    response = bo_client.post("/leagues/import/", {"file": upload(league_export_json(league))})
    imported = League.objects.exclude(pk=league.pk).get()
    assert imported.owner.username == "bo"
    assert response.status_code == 302
    assert response["Location"].startswith("/leagues/imports/")
    done = html.unescape(bo_client.get(response["Location"]).content.decode())
    assert "Imported “Thursday table”: 5 games." in done
    assert f'href="/leagues/{imported.pk}/"' in done
    assert "hx-trigger" not in done  # over: nothing more to ask
    assert "http-equiv" not in done
    assert Game.objects.filter(league=imported).count() == 5


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"format": ', "not valid JSON (line 1, column 12"),
        (
            json.dumps(
                {
                    "format": "scorekeeper.league",
                    "version": 1,
                    "league": {"name": "X"},
                    "players": [],
                    "games": [{"ruleset": "dirt", "seats": []}],
                }
            ).encode(),
            "cannot be imported: games[0].players: a game needs players",
        ),
    ],
)
def test_import_page_explains_a_bad_file(bo_client: Client, body: bytes, message: str) -> None:
    before = counts()
    response = bo_client.post("/leagues/import/", {"file": upload(body)})
    assert response.status_code == 302
    page = bo_client.get(response["Location"])
    assert message in html.unescape(page.content.decode())
    assert "Nothing was saved." in page.content.decode()
    assert counts() == before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"\xff\xfe\x00garbage", "not a text file"),
        (b"[1, 2]", "does not hold a JSON object"),
        (b"", "The submitted file is empty."),
    ],
)
def test_import_page_refuses_what_is_no_json_object_at_once(
    bo_client: Client, body: bytes, message: str
) -> None:
    before = counts()
    response = bo_client.post("/leagues/import/", {"file": upload(body)})
    assert response.status_code == 200
    assert message in html.unescape(response.content.decode())
    assert counts() == before
    assert not LeagueImport.objects.exists()


def test_import_page_needs_a_file(bo_client: Client) -> None:
    response = bo_client.post("/leagues/import/", {})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()


# -- the API ----------------------------------------------------------------------------


def test_api_export_json_and_csv(league: League, api: APIClient) -> None:
    response = api.get(f"/api/v1/leagues/{league.pk}/export/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert json.loads(streamed(response))["format"] == "scorekeeper.league"
    response = api.get(f"/api/v1/leagues/{league.pk}/export/?format=json")
    assert json.loads(streamed(response))["version"] == 1
    response = api.get(f"/api/v1/leagues/{league.pk}/export/?format=csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = streamed(response)
    assert text.startswith("game_id,date,ruleset,variant,player_id")
    response = api.get(f"/api/v1/leagues/{league.pk}/export/?format=xml")
    assert response.status_code == 400
    assert response.json() == {"format": ["format must be json or csv (got 'xml')"]}


def test_api_export_is_for_the_league_only(league: League, anon_api: APIClient) -> None:
    stranger = APIClient()
    stranger.force_authenticate(User.objects.create_user("cy"))
    assert stranger.get(f"/api/v1/leagues/{league.pk}/export/").status_code == 404
    assert stranger.get(f"/api/v1/leagues/{league.pk}/export/?format=csv").status_code == 404
    assert anon_api.get(f"/api/v1/leagues/{league.pk}/export/").status_code in (401, 403)


def test_api_import(league: League, other_user: User) -> None:
    """202 and the import, which says where it is read; done at once here (tasks run at
    once in the tests), it names the new league."""
    client = APIClient()
    client.force_authenticate(other_user)
    response = client.post("/api/v1/leagues/import/", league_export_json(league), format="json")
    assert response.status_code == 202
    body = response.json()
    url = f"http://testserver/api/v1/leagues/imports/{body['id']}/"
    assert response["Location"] == body["url"] == url
    assert type(response["Location"]) is str  # as WSGI (PEP 3333) has headers
    assert body["status"] == "done"
    assert body["progress"] == {"games_checked": 5, "games": 5}
    assert body["error"] is None
    imported = League.objects.get(pk=body["league"])
    assert (imported.name, imported.owner) == ("Thursday table", other_user)
    assert client.get(url).json() == body


def test_api_import_refuses_a_bad_file(league: League, api: APIClient) -> None:
    data = league_export_json(league)
    _card_not_in_deck(data)
    before = counts()
    response = api.post("/api/v1/leagues/import/", data, format="json")
    assert response.status_code == 202
    body = response.json()
    assert (body["status"], body["league"]) == ("failed", None)
    assert body["error"].startswith("games[0] (game ")
    assert "hands[1] (hand 2)" in body["error"]
    assert "1Z" in body["error"]
    assert api.get(body["url"]).json()["error"] == body["error"]
    assert counts() == before
    response = api.post("/api/v1/leagues/import/", "not json", content_type="application/json")
    assert response.status_code == 400
    assert "does not hold a JSON object" in response.json()["file"][0]


def test_api_import_refuses_an_oversized_file(
    league: League, api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api_backup, "MAX_IMPORT_BYTES", 1000)
    before = counts()
    response = api.post("/api/v1/leagues/import/", league_export_json(league), format="json")
    assert response.status_code == 413
    assert "manage.py import_league" in response.json()["detail"]
    assert counts() == before
