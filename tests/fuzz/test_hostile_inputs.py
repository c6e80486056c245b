"""A corpus of hostile values goes through every write endpoint of the API and every
form of the pages: each is refused with a 4xx naming the problem (a form: a 4xx or the
form again with its error), never a 5xx and never saved.

Each test sends one hostile value into every field of one endpoint in turn (a valid
request with that one field replaced) and reports every field that was not refused.
The API's limits (api.md "Limits"): 400 naming the problem, 413 for JSON over 1 MB.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from scorekeeper.models import Game, League, Player
from scorekeeper.services.games import hand_record
from tests.scorekeeper.factories import make_game, make_league, make_players

#: The hostile values, by name: put in place of one field's value. ``NUMERIC`` ones are
#: hostile only where a number (an id, points, a hand number) belongs.
DEEP = 10_000
TEXT_HOSTILE: dict[str, Any] = {
    "nul": "Ana\x00",
    "lone-surrogate": "\ud800",
    "rtl-override": "Ana\u202e",
    "zero-width-only": "\u200b\u200c\u200d",
    "bom": "\ufeff",
    "deep-nesting": "DEEP",  # replaced by 10,000 nested lists
    "3-mb": "x" * 3_000_000,
}
NUMERIC_HOSTILE: dict[str, Any] = {
    "superscript-two": "²",
    "arabic-indic-three": "٣",
    "10**30": 10**30,
    "5000-digits": "9" * 5000,
}
ALL_HOSTILE = {**TEXT_HOSTILE, **NUMERIC_HOSTILE}
#: Values that make the whole request unacceptable, whichever field holds them: sent in
#: one field per request (every body is also tried whole below).
HEAVY = {"deep-nesting", "3-mb"}


def _json_text(value: Any) -> str:
    """JSON text of ``value``, with the deep-nesting marker expanded (``json.dumps``
    itself would hit Python's recursion limit) and lone surrogates as JSON escapes."""
    text = json.dumps(value)  # ensure_ascii: "\ud800" stays a JSON escape
    return text.replace('"DEEP"', "[" * DEEP + "]" * DEEP)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    else:
        yield path, value


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, *rest = path
    if isinstance(value, dict):
        return {k: _replaced(v, tuple(rest), new) if k == head else v for k, v in value.items()}
    return [_replaced(v, tuple(rest), new) if i == head else v for i, v in enumerate(value)]


def _hostile_for(leaf: Any, name: str) -> bool:
    """Whether the value ``name`` must be refused in place of ``leaf``: every value where
    a number belongs; the text ones where text belongs."""
    is_number = isinstance(leaf, int) and not isinstance(leaf, bool)
    return is_number or leaf is None or name in TEXT_HOSTILE


# -- fixtures ------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    """Each test starts with no attempts counted (the token endpoint allows a few a
    minute), so the values reach the code that reads them."""
    cache.clear()
    yield
    cache.clear()


class Table:
    """A signed-in user with four players, a league and a game of each ruleset."""

    def __init__(self, user: User) -> None:
        self.user = user
        self.players: list[Player] = make_players("Ana", "Bo", "Cy", "Di", created_by=user)
        self.league: League = make_league(user, "Hostile league", members=self.players)
        self.games: dict[str, Game] = {}
        for ruleset in HAND_BODIES:
            game = make_game(user, ruleset, self.players, league=self.league.pk)
            hand_record(game=game, user=user, hand_input=self.hand_body(ruleset))
            self.games[ruleset] = game

    @property
    def ids(self) -> list[int]:
        return [p.pk for p in self.players]

    def hand_body(self, ruleset: str) -> dict[str, Any]:
        return HAND_BODIES[ruleset](self.ids)


HAND_BODIES: dict[str, Callable[[list[int]], dict[str, Any]]] = {
    "dirt": lambda p: {
        "winner": p[0],
        "results": [
            {"player": p[1], "cards": ["4H", "JK"]},
            {"player": p[2], "points": 5},
            {"player": p[3], "cards": ["9C"]},
        ],
    },
    "dirty-uno": lambda p: {
        "winner": p[0],
        "results": [
            {"player": p[1], "cards": ["R5", "G7"]},
            {"player": p[2], "points": 5},
            {"player": p[3], "cards": ["W+4"]},
        ],
    },
    "damn-you": lambda p: {
        "winner": p[0],
        "results": [
            {"player": p[0], "passes": 0, "cards_left": 0},
            {"player": p[1], "passes": 1, "cards_left": 3},
            {"player": p[2], "passes": 2, "cards_left": 1},
            {"player": p[3], "passes": 0, "cards_left": 4},
        ],
    },
    "dirty-deals": lambda p: {
        "winner": p[0],
        "suit": "H",
        "surplus": ["9C", "QS"],
        "bower_holder": p[1],
    },
    "screw-your-neighbour": lambda p: {"winner": p[0]},
}


@pytest.fixture
def table(user: User) -> Table:
    return Table(user)


# The clients answer a server error with a 500 (as a browser sees it) instead of raising
# it, so one test reports every field that fails.


@pytest.fixture
def api(table: Table) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(table.user)
    return client


@pytest.fixture
def anon_api() -> APIClient:
    return APIClient(raise_request_exception=False)


@pytest.fixture
def page(table: Table) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(table.user)
    return client


# -- the API ------------------------------------------------------------------------------


def _send(api: APIClient, method: str, url: str, body: Any, **headers: str) -> Any:
    return getattr(api, method)(
        url, data=_json_text(body), content_type="application/json", headers=headers
    )


def _refusals(
    api: APIClient, method: str, url: str, body: dict[str, Any], name: str, value: Any
) -> dict[str, int]:
    """The fields of ``body`` where ``value`` was not refused, with the status."""
    wrong = {}
    for index, (path, leaf) in enumerate(_leaves(body)):
        if not _hostile_for(leaf, name) or (name in HEAVY and index):
            continue
        response = _send(api, method, url, _replaced(body, path, value))
        expected = {413} if name == "3-mb" else set(range(400, 500)) - {413}
        if response.status_code not in expected:
            wrong["/".join(map(str, path))] = response.status_code
    return wrong


def _api_write_requests(table: Table) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """Every write the API takes with a body: (method, url, a valid body)."""
    ids = table.ids
    requests: dict[str, tuple[str, str, dict[str, Any]]] = {
        "players": ("post", "/api/v1/players/", {"name": "Eve"}),
        "leagues": ("post", "/api/v1/leagues/", {"name": "Friday"}),
        "league-members": (
            "post",
            f"/api/v1/leagues/{table.league.pk}/members/",
            {"player": ids[0]},
        ),
        "league-seasons": (
            "post",
            f"/api/v1/leagues/{table.league.pk}/seasons/",
            {"name": "Spring", "start": timezone.localdate().isoformat()},
        ),
        "games": (
            "post",
            "/api/v1/games/",
            {
                "ruleset": "dirt",
                "variant": "baby",
                "options": {"ten_points": 1},
                "players": ids,
                "teams": [[ids[0], ids[2]], [ids[1], ids[3]]],
                "first_dealer": ids[0],
                "league": table.league.pk,
            },
        ),
    }
    for ruleset, game in table.games.items():
        body = table.hand_body(ruleset)
        requests[f"hand-new-{ruleset}"] = ("post", f"/api/v1/games/{game.pk}/hands/", body)
        requests[f"hand-edit-{ruleset}"] = ("put", f"/api/v1/games/{game.pk}/hands/1/", body)
    return requests


API_WRITES = [
    "players",
    "leagues",
    "league-members",
    "league-seasons",
    "games",
    *(f"hand-{kind}-{r}" for kind in ("new", "edit") for r in HAND_BODIES),
]


@pytest.mark.parametrize("name", list(ALL_HOSTILE))
@pytest.mark.parametrize("endpoint", API_WRITES)
def test_api_writes_refuse_hostile_values(
    api: APIClient, table: Table, endpoint: str, name: str
) -> None:
    method, url, body = _api_write_requests(table)[endpoint]
    assert _refusals(api, method, url, body, name, ALL_HOSTILE[name]) == {}


@pytest.mark.parametrize("name", list(TEXT_HOSTILE))
def test_token_endpoint_refuses_hostile_values(
    anon_api: APIClient, table: Table, name: str
) -> None:
    body = {"username": table.user.username, "password": "table-talk-42"}
    value = ALL_HOSTILE[name]
    assert _refusals(anon_api, "post", "/api/v1/auth/token/", body, name, value) == {}


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("deep-nesting", "[" * DEEP + "]" * DEEP, 400),
        ("deep-object", '{"a":' * DEEP + "1" + "}" * DEEP, 400),
        ("3-mb", json.dumps({"name": "x" * 3_000_000}), 413),
        ("bom-then-json", '\ufeff{"name": "Eve"}', 400),
        ("not-utf8", b'{"name": "\xff\xfe"}', 400),
        ("lone-surrogate-key", '{"\\ud800": 1}', 400),
    ],
)
def test_api_bodies_refused_whole(
    api: APIClient, anon_api: APIClient, table: Table, name: str, text: Any, expected: int
) -> None:
    """Whole bodies that are not acceptable JSON, on every endpoint that reads one."""
    game = table.games["screw-your-neighbour"]
    urls = [
        ("post", "/api/v1/players/"),
        ("post", "/api/v1/leagues/"),
        ("post", f"/api/v1/leagues/{table.league.pk}/members/"),
        ("post", "/api/v1/games/"),
        ("post", f"/api/v1/games/{game.pk}/hands/"),
        ("put", f"/api/v1/games/{game.pk}/hands/1/"),
        ("post", "/api/v1/leagues/import/"),
    ]
    wrong = {}
    for method, url in urls:
        response = getattr(api, method)(url, data=text, content_type="application/json")
        if response.status_code != expected and not (
            # An import may be bigger than other bodies (up to 20 MB): it is read, then
            # refused, at once or by the worker.
            url.endswith("/import/") and _import_refused(response)
        ):
            wrong[f"{method} {url}"] = response.status_code
    response = anon_api.post("/api/v1/auth/token/", data=text, content_type="application/json")
    if response.status_code != expected:
        wrong["token"] = response.status_code
    assert wrong == {}


@pytest.mark.parametrize("value", ["", "\x00key", "k\ud800", "é", "²", "k" * 256, "\u202ekey"])
def test_idempotency_keys_outside_printable_ascii_are_refused(
    api: APIClient, table: Table, value: str
) -> None:
    game = table.games["screw-your-neighbour"]
    response = api.post(
        f"/api/v1/games/{game.pk}/hands/",
        data=table.hand_body("screw-your-neighbour"),
        format="json",
        headers={"Idempotency-Key": value},
    )
    assert response.status_code == 400, response.content
    assert "Idempotency-Key" in response.json()


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/games/{big}/",
        "/api/v1/games/{big}/hands/",
        "/api/v1/games/{game}/hands/{big}/",
        "/api/v1/games/{big}/close/",
        "/api/v1/games/{big}/reopen/",
        "/api/v1/players/{big}/",
        "/api/v1/leagues/{big}/",
        "/api/v1/leagues/{big}/members/",
    ],
)
@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_api_ids_beyond_64_bits_are_not_found(
    api: APIClient, table: Table, url: str, method: str
) -> None:
    game = table.games["screw-your-neighbour"]
    response = getattr(api, method)(url.format(big=10**30, game=game.pk), format="json")
    assert response.status_code in {400, 404, 405}, response.content


def _import_refused(response: Any) -> bool:
    """A league import refused: at once (400), or by the background worker (202, the
    import failed; tasks run at once in the tests)."""
    if response.status_code == 202:
        return bool(response.json()["status"] == "failed")
    return response.status_code == 400


def test_league_import_refuses_hostile_values(api: APIClient, table: Table) -> None:
    """Hostile values in every field of a real export (a small league of one game)."""
    small = make_league(table.user, "Small")
    players = make_players("Fay", "Gus", "Hal", created_by=table.user)
    game = make_game(table.user, "screw-your-neighbour", players, league=small.pk)
    hand_record(game=game, user=table.user, hand_input={"winner": players[0].pk})
    response = api.get(f"/api/v1/leagues/{small.pk}/export/")
    export = json.loads(b"".join(response.streaming_content))  # type: ignore[attr-defined]
    wrong = {}
    for index, (path, leaf) in enumerate(_leaves(export)):
        if not isinstance(leaf, int | str) or isinstance(leaf, bool) or path[0] == "format":
            continue
        names = ["nul", "lone-surrogate"] if isinstance(leaf, str) else list(NUMERIC_HOSTILE)
        for name in names + (["deep-nesting"] if index == 1 else []):
            body = _replaced(export, path, ALL_HOSTILE[name])
            response = _send(api, "post", "/api/v1/leagues/import/", body)
            if not _import_refused(response):
                wrong[f"{'/'.join(map(str, path))}={name}"] = response.status_code
    assert wrong == {}


# -- the pages ----------------------------------------------------------------------------


ERROR_MARKS = ('role="alert"', "errorlist", "field-error", "preview-error", "message error")


def _refused(client: Client, response: Any) -> bool:
    """A 4xx, the form again with its error, or (post/redirect/get) the page it goes
    back to with the error as a message."""
    status = response.status_code
    if status == 302:
        response = client.get(response["Location"])
        status = response.status_code
    html = response.content.decode(errors="replace")
    return 400 <= status < 500 or (status == 200 and any(m in html for m in ERROR_MARKS))


#: Fields a form fills itself that only steer it (the hand number the phone expects, the
#: retry key, how many seat rows to show, the default dealer's row): a value the
#: page cannot read is ignored, never a server error.
STEERING = {"number", "edit_number", "idempotency_key", "seat_count", "first_dealer", "ruleset"}
#: Names may be digits of any script ("²", "٣", a long number): a nickname is a nickname.
NAME_FIELDS = {"seat-3-name", "name"}


def _form_value(name: str) -> Any:
    value = ALL_HOSTILE[name]
    if name == "deep-nesting":
        return "[" * DEEP + "]" * DEEP
    if name == "10**30":
        return str(value)
    return value


def _post_form(client: Client, url: str, data: dict[str, Any]) -> Any:
    """A form post; a lone surrogate cannot be encoded, so it goes as the bytes a
    browser bug (or an attacker) would send: UTF-8's encoding of U+D800."""
    encoded = "&".join(f"{key}={_quote(value)}" for key, value in data.items())
    # The preview is an htmx request of the entry panel (the page shows its answer).
    headers = {"HX-Request": "true"} if url.endswith("/preview/") else {}
    return client.post(
        url, data=encoded, content_type="application/x-www-form-urlencoded", headers=headers
    )


def _quote(value: Any) -> str:
    return quote(str(value).encode("utf-8", "surrogatepass"), safe="")


def _form_refusals(
    client: Client, url: str, form: dict[str, Any], name: str, fields: list[str] | None = None
) -> dict[str, int]:
    wrong = {}
    for index, field in enumerate(fields or list(form)):
        if name in HEAVY and index:
            continue
        response = _post_form(client, url, {**form, field: _form_value(name)})
        if field in STEERING or (field in NAME_FIELDS and name in NUMERIC_HOSTILE):
            if response.status_code >= 500:
                wrong[field] = response.status_code
        elif not _refused(client, response):
            wrong[field] = response.status_code
    return wrong


def _hand_form(table: Table, ruleset: str) -> dict[str, Any]:
    a, b, c, d = table.ids
    forms: dict[str, dict[str, Any]] = {
        "dirt": {"winner": a, f"cards_{b}": "4H JK", f"points_{c}": "5", f"cards_{d}": "9C"},
        "dirty-uno": {"winner": a, f"cards_{b}": "R5 G7", f"points_{c}": "5", f"cards_{d}": "W+4"},
        "damn-you": {
            "winner": a,
            **{f"passes_{p}": "1" for p in (a, b, c, d)},
            f"cards_left_{a}": "0",
            f"cards_left_{b}": "3",
            f"cards_left_{c}": "1",
            f"cards_left_{d}": "4",
        },
        "dirty-deals": {"winner": a, "suit": "H", "surplus": "9C", "bower_holder": b},
        "screw-your-neighbour": {"winner": a},
    }
    return forms[ruleset]


@pytest.mark.parametrize("name", list(ALL_HOSTILE))
@pytest.mark.parametrize("ruleset", list(HAND_BODIES))
def test_sheet_forms_refuse_hostile_values(
    page: Client, table: Table, ruleset: str, name: str
) -> None:
    game = table.games[ruleset]
    form = _hand_form(table, ruleset)
    wrong = {}
    for kind, url, extra in [
        ("new", f"/games/{game.pk}/hands/", {"number": "2", "idempotency_key": "k-1"}),
        ("preview", f"/games/{game.pk}/hands/preview/", {"edit_number": "1"}),
        ("edit", f"/games/{game.pk}/hands/1/", {}),
    ]:
        fields = list(form) + list(extra)
        for field, status in _form_refusals(page, url, {**form, **extra}, name, fields).items():
            wrong[f"{kind} {field}"] = status
    assert wrong == {}


@pytest.mark.parametrize("name", list(ALL_HOSTILE))
def test_new_game_form_refuses_hostile_values(page: Client, table: Table, name: str) -> None:
    a, b, c, _ = table.ids
    form = {
        "ruleset": "dirt",
        "variant": "baby",
        "seat_count": "4",
        "seat-0-player": a,
        "seat-1-player": b,
        "seat-2-player": c,
        "seat-3-name": "Newcomer",
        "first_dealer": "0",
        "league": table.league.pk,
    }
    assert _form_refusals(page, "/games/new/", form, name) == {}


@pytest.mark.parametrize("name", list(TEXT_HOSTILE))
def test_league_forms_refuse_hostile_values(page: Client, table: Table, name: str) -> None:
    wrong = _form_refusals(page, "/leagues/", {"name": "Friday"}, name)
    members = f"/leagues/{table.league.pk}/members/"
    wrong |= {
        f"members {k}": v for k, v in _form_refusals(page, members, {"name": "Eve"}, name).items()
    }
    seasons = f"/leagues/{table.league.pk}/seasons/"
    season = {"name": "Spring", "start": timezone.localdate().isoformat()}
    wrong |= {f"seasons {k}": v for k, v in _form_refusals(page, seasons, season, name).items()}
    assert wrong == {}


@pytest.mark.parametrize("name", list(NUMERIC_HOSTILE))
def test_league_member_form_refuses_hostile_ids(page: Client, table: Table, name: str) -> None:
    url = f"/leagues/{table.league.pk}/members/"
    assert _form_refusals(page, url, {"player": table.ids[0]}, name) == {}


@pytest.mark.parametrize("name", list(TEXT_HOSTILE))
def test_account_forms_refuse_hostile_values(table: Table, name: str) -> None:
    client = Client(raise_request_exception=False)
    wrong = _form_refusals(
        client, "/accounts/login/", {"username": "ana", "password": "table-talk-42"}, name
    )
    signup = {
        "username": "newbie",
        "email": "newbie@example.org",
        "password1": "a-Long-pass-42",
        "password2": "a-Long-pass-42",
    }
    wrong |= {
        f"signup {k}": v
        for k, v in _form_refusals(client, "/accounts/signup/", signup, name).items()
    }
    assert wrong == {}


@pytest.mark.parametrize("name", list(TEXT_HOSTILE))
def test_my_account_forms_refuse_hostile_values(table: Table, page: Client, name: str) -> None:
    phrase = "a-Long-pass-42"
    forms: dict[str, dict[str, Any]] = {
        "/accounts/": {"name": "Ana", "email": "ana@example.org"},
        "/accounts/password/": {
            "old_password": "table-talk-42",
            "new_password1": phrase,
            "new_password2": phrase,
        },
        "/accounts/delete/": {"password": "table-talk-42"},
    }
    wrong = {
        f"{url} {k}": v
        for url, form in forms.items()
        for k, v in _form_refusals(page, url, form, name).items()
    }
    reset = {"email": "ana@example.org"}
    wrong |= {
        f"reset {k}": v
        for k, v in _form_refusals(
            Client(raise_request_exception=False), "/accounts/password/reset/", reset, name
        ).items()
    }
    assert wrong == {}


@pytest.mark.parametrize("name", list(ALL_HOSTILE))
def test_searches_and_filters_never_fail(page: Client, table: Table, name: str) -> None:
    """Search boxes and list filters: hostile text finds nothing (200) or is refused."""
    value = _quote(_form_value(name))
    player = table.ids[0]
    urls = [
        f"/rules/search/?q={value}",
        f"/rules/search/?q=wild&ruleset={value}",
        f"/games/?status={value}&page={value}",
        f"/games/new/?ruleset=dirt&league={value}",
        f"/games/new/?ruleset=dirt&from={value}",
        f"/leagues/{table.league.pk}/?player={value}&page={value}&game={value}&standings={value}",
        f"/leagues/{table.league.pk}/head-to-head/?a={value}&b={player}",
        f"/players/{player}/?league={value}&scope={value}&page={value}",
        f"/api/v1/players/?q={value}&page={value}",
        f"/api/v1/rules/?q={value}",
        f"/api/v1/games/?player={value}&league={value}&page={value}",
        f"/api/v1/leagues/{table.league.pk}/games/?player={value}&page={value}",
        f"/api/v1/leagues/{table.league.pk}/head-to-head/?a={value}&b={player}",
        f"/api/v1/players/{player}/ratings/?league={value}",
    ]
    wrong = {}
    for url in urls:
        status = page.get(url).status_code
        if status >= 500 or status < 200:
            wrong[url[:80]] = status
    assert wrong == {}


@pytest.mark.parametrize("name", [*TEXT_HOSTILE, "10**30"])
def test_import_page_refuses_hostile_files(page: Client, table: Table, name: str) -> None:
    value = _form_value(name)
    content = _json_text({"format": "scorekeeper-league", "version": 1, "league": {"name": value}})
    upload = SimpleUploadedFile("club.json", content.encode("utf-8", "surrogatepass"))
    response = page.post("/leagues/import/", {"file": upload})
    assert _refused(page, response), response.status_code
