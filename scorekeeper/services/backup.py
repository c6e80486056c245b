"""A league in and out of the install: a CSV of results and a complete JSON backup.

The JSON export holds everything the league is made of: its players, members and games,
every hand's input as the table reported it and the full correction history of each hand.
Accounts are referenced by username only (never passwords or e-mail addresses). The
results it also carries (each seat's score, place and win, the game's status) are
derived: an import ignores them and lets the engine compute them again, so a file can
never smuggle in a score its hands do not add up to.

Importing the JSON creates a *new* league owned by the importing user, in one
transaction: the whole file is checked first (format, references, and every game's hands
through the engine), and any problem is reported as a :class:`games.RuleError` naming the
place in the file, with nothing written. Exporting the imported league gives the same
file again, ids aside.

Who the usernames in a file resolve to is a question of trust. A file is only a claim,
so for an ordinary user the only account it can name is the user's own (their player is
reused, their hands stay theirs); other usernames are dropped. A *trusted* import (the
``import_league`` command run by the server's administrator, or a superuser) resolves
every username to the account of that name, so a restored league keeps who recorded
what; with ``create_users`` the accounts a file names that do not exist yet are created,
without a usable password (set one with ``manage.py changepassword``).
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from games import GameConfig, GameState, RuleError, Ruleset, get_ruleset
from scorekeeper.models import (
    Game,
    GameStatus,
    Hand,
    HandAction,
    HandRevision,
    League,
    Membership,
    Player,
    Seat,
)
from scorekeeper.selectors.games import seat_results
from scorekeeper.services import stats

#: What the ``format`` field of an export says, and the version of its layout.
FORMAT = "scorekeeper.league"
FORMAT_VERSION = 1

#: The columns of the CSV export: one row per player per game.
CSV_COLUMNS = (
    "game_id",
    "date",
    "ruleset",
    "variant",
    "player_id",
    "player_name",
    "seat",
    "team",
    "score",
    "place",
    "won",
    "status",
)

#: The largest backup the pages and the API take (a league of several thousand games fits
#: comfortably; bigger ones go through ``manage.py import_league``).
MAX_IMPORT_BYTES = 20 * 1024 * 1024

#: Keys of a (normalised) hand input that hold a player id, at any depth.
PLAYER_KEYS = frozenset({"winner", "bower_holder", "player"})

_NAME_LIMITS = {"league": 80, "player": 60}


# -- export ---------------------------------------------------------------------------


def _when(value: datetime | None) -> str | None:
    """A timestamp as ISO 8601 in UTC (microseconds kept, so a round trip is exact)."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat()


def export_filename(league: League, extension: str) -> str:
    """``thursday-card-club-2025-06-12.json``: the league, and the day of the export."""
    stem = slugify(league.name) or f"league-{league.pk}"
    return f"{stem}-{timezone.localdate().isoformat()}.{extension}"


def attachment(filename: str) -> str:
    """A ``Content-Disposition`` header value that downloads as ``filename``."""
    return content_disposition_header(True, filename) or "attachment"


def league_players(league: League) -> QuerySet[Player]:
    """Every player of a league: its members, and anyone seated at one of its games."""
    members = Membership.objects.filter(league=league).values("player_id")
    seated = Seat.objects.filter(game__league=league).values("player_id")
    return Player.objects.filter(Q(pk__in=members) | Q(pk__in=seated))


#: Games read per round trip to the database while exporting: memory stays bounded
#: however big the league.
EXPORT_CHUNK = 500


def _export_head(league: League) -> dict[str, Any]:
    """Everything but the games: the league, its players, members and the usernames
    the export mentions."""
    players = list(
        league_players(league).order_by("id").values("id", "name", "user__username", "created_at")
    )
    members = list(
        Membership.objects.filter(league=league).order_by("id").values("player_id", "joined_at")
    )
    owner_name = league.owner.get_username()
    games = Game.objects.filter(league=league)
    usernames = {owner_name}
    usernames.update(p["user__username"] for p in players if p["user__username"])
    for names in (
        games.values_list("owner__username", flat=True),
        Hand.objects.filter(game__in=games, created_by__isnull=False).values_list(
            "created_by__username", flat=True
        ),
        HandRevision.objects.filter(game__in=games, user__isnull=False).values_list(
            "user__username", flat=True
        ),
    ):
        usernames.update(names.order_by().distinct())
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": _when(timezone.now()),
        "league": {
            "id": league.pk,
            "name": league.name,
            "owner": owner_name,
            "created_at": _when(league.created_at),
        },
        "users": sorted(usernames),
        "players": [
            {
                "id": p["id"],
                "name": p["name"],
                "user": p["user__username"],
                "created_at": _when(p["created_at"]),
            }
            for p in players
        ],
        "members": [
            {"player": m["player_id"], "joined_at": _when(m["joined_at"])} for m in members
        ],
    }


def _export_games(league: League) -> Iterator[dict[str, Any]]:
    """The league's games in the order they were started, each with its seats, hands
    (by number) and revisions (in the order they were made), read a chunk at a time."""
    ids = list(
        Game.objects.filter(league=league).order_by("created_at", "id").values_list("id", flat=True)
    )
    for start in range(0, len(ids), EXPORT_CHUNK):
        chunk = ids[start : start + EXPORT_CHUNK]
        seats_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for seat in (
            Seat.objects.filter(game_id__in=chunk)
            .order_by("game_id", "position")
            .values("game_id", "player_id", "position", "team", "score", "place", "won")
        ):
            seats_of[seat["game_id"]].append(
                {
                    "player": seat["player_id"],
                    "position": seat["position"],
                    "team": seat["team"],
                    "score": seat["score"],
                    "place": seat["place"],
                    "won": seat["won"],
                }
            )
        hands_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for hand in (
            Hand.objects.filter(game_id__in=chunk)
            .order_by("game_id", "number")
            .values("game_id", "number", "input", "revision", "created_by__username", "created_at")
        ):
            hands_of[hand["game_id"]].append(
                {
                    "number": hand["number"],
                    "input": hand["input"],
                    "revision": hand["revision"],
                    "created_by": hand["created_by__username"],
                    "created_at": _when(hand["created_at"]),
                }
            )
        revisions_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for rev in (
            HandRevision.objects.filter(game_id__in=chunk)
            .order_by("game_id", "created_at", "id")
            .values(
                "game_id", "number", "revision", "action", "input", "user__username", "created_at"
            )
        ):
            revisions_of[rev["game_id"]].append(
                {
                    "number": rev["number"],
                    "revision": rev["revision"],
                    "action": rev["action"],
                    "input": rev["input"],
                    "user": rev["user__username"],
                    "created_at": _when(rev["created_at"]),
                }
            )
        games = Game.objects.filter(pk__in=chunk).order_by("created_at", "id")
        for g in games.values(
            "id", "ruleset", "variant", "options", "teams", "first_dealer_id", "closed",
            "owner__username", "created_at", "finished_at", "status",
        ):  # fmt: skip
            yield {
                "id": g["id"],
                "ruleset": g["ruleset"],
                "variant": g["variant"],
                "options": g["options"],
                "teams": g["teams"],
                "first_dealer": g["first_dealer_id"],
                "closed": g["closed"],
                "owner": g["owner__username"],
                "created_at": _when(g["created_at"]),
                "finished_at": _when(g["finished_at"]),
                "status": g["status"],
                "seats": seats_of[g["id"]],
                "hands": hands_of[g["id"]],
                "revisions": revisions_of[g["id"]],
            }


@contextmanager
def _snapshot() -> Iterator[None]:
    """One consistent view of the league while an export reads it chunk by chunk: a
    repeatable-read transaction on PostgreSQL (reads never block writers there). SQLite
    exports as it goes: a transaction there would hold the write lock."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def league_export_json(league: League) -> dict[str, Any]:
    """The whole league as a JSON-ready dict (see the module docstring). For a big
    league, :func:`league_export_json_text` writes the same JSON in bounded memory."""
    with _snapshot():
        return {**_export_head(league), "games": list(_export_games(league))}


def league_export_json_text(league: League, *, indent: int | None = None) -> Iterator[str]:
    """The JSON export as pieces of text, a game at a time, to stream to a response or a
    file; ``json.loads`` of the joined pieces equals :func:`league_export_json`."""
    with _snapshot():
        head = json.dumps(_export_head(league), indent=indent, ensure_ascii=False)
        yield head[:-1].rstrip() + ',\n"games": ['
        for index, game in enumerate(_export_games(league)):
            yield ("," if index else "") + "\n" + json.dumps(game, ensure_ascii=False)
        yield "\n]}\n"


class _Echo:
    """A file-like object whose ``write`` hands the text back, for streaming CSV."""

    def write(self, value: str) -> str:
        return value


def _spreadsheet_safe(text: str) -> str:
    # A name such as "=HYPERLINK(…)" would run as a formula when the CSV is opened in a
    # spreadsheet; a leading apostrophe makes it plain text again.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def league_csv_rows(league: League) -> Iterator[list[Any]]:
    """The rows of the CSV export (no header): one per player per game, games in the
    order they were started, seats clockwise. ``date`` is the game's start in the
    install's time zone; ``seat`` and ``team`` count from 0 as in the API; ``place`` is
    empty while a game is in progress."""
    seats = (
        Seat.objects.filter(game__league=league)
        .order_by("game__created_at", "game_id", "position")
        .values_list(
            "game_id",
            "game__created_at",
            "game__ruleset",
            "game__variant",
            "player_id",
            "player__name",
            "position",
            "team",
            "score",
            "place",
            "won",
            "game__status",
        )
    )
    for (
        game_id,
        created_at,
        ruleset,
        variant,
        player_id,
        name,
        position,
        team,
        score,
        place,
        won,
        status,
    ) in seats.iterator(chunk_size=2000):
        yield [
            game_id,
            timezone.localtime(created_at).date().isoformat(),
            ruleset,
            variant,
            player_id,
            _spreadsheet_safe(name),
            position,
            "" if team is None else team,
            score,
            "" if place is None else place,
            "true" if won else "false",
            status,
        ]


def league_export_csv(league: League) -> Iterator[str]:
    """The CSV export as lines of text (header first), ready to stream."""
    writer = csv.writer(_Echo())
    yield writer.writerow(CSV_COLUMNS)
    for row in league_csv_rows(league):
        yield writer.writerow(row)


# -- import: checking the file --------------------------------------------------------


@dataclass
class _PlayerIn:
    id: int
    name: str
    user: str | None
    created_at: datetime | None


@dataclass
class _RevisionIn:
    number: int
    revision: int
    action: str
    input: dict[str, Any]
    user: str | None
    created_at: datetime | None


@dataclass
class _HandIn:
    number: int
    input: dict[str, Any]
    revision: int
    created_by: str | None
    created_at: datetime | None


@dataclass
class _GameIn:
    where: str
    ruleset: str
    variant: str
    options: dict[str, Any]
    teams: list[list[int]] | None
    first_dealer: int
    players: list[int]
    closed: bool
    owner: str | None
    created_at: datetime | None
    finished_at: datetime | None
    hands: list[_HandIn]
    revisions: list[_RevisionIn]
    state: GameState


@dataclass
class _LeagueIn:
    name: str
    created_at: datetime | None
    players: list[_PlayerIn]
    members: list[tuple[int, datetime | None]]
    games: list[_GameIn]


def _fail(field: str, where: str, message: str) -> RuleError:
    return RuleError(f"{where}: {message}" if where else message, field)


def _obj(value: object, field: str, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(field, where, "must be a JSON object")
    return value


def _list(value: object, field: str, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(field, where, "must be a list")
    return value


def _int(value: object, field: str, where: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(field, where, f"must be a whole number (got {value!r})")
    if value < minimum:
        raise _fail(field, where, f"must be at least {minimum} (got {value})")
    return value


def _text(value: object, field: str, where: str, *, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(field, where, "a name is required")
    cleaned = " ".join(value.split())
    if len(cleaned) > limit:
        raise _fail(field, where, f"a name can have at most {limit} characters")
    return cleaned


def _username(value: object, field: str, where: str) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 150:
        raise _fail(field, where, f"must be a username or null (got {value!r})")
    return value


def _timestamp(value: object, field: str, where: str) -> datetime | None:
    """An ISO 8601 date-time; one without a time zone is taken as UTC."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise _fail(field, where, f"must be an ISO 8601 date-time (got {value!r})")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise _fail(field, where, f"{value!r} is not an ISO 8601 date-time") from None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def remap_player_ids(
    value: Any, ids: Mapping[int, int], *, field: str = "games", where: str = ""
) -> Any:
    """A hand input with every player id (``winner``, ``bower_holder``, ``player``)
    replaced through ``ids``; an id missing from ``ids`` is an error."""
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key in PLAYER_KEYS and isinstance(item, int) and not isinstance(item, bool):
                if item not in ids:
                    raise _fail(field, where, f"player {item} is not a player of this game")
                out[key] = ids[item]
            else:
                out[key] = remap_player_ids(item, ids, field=field, where=where)
        return out
    if isinstance(value, list):
        return [remap_player_ids(item, ids, field=field, where=where) for item in value]
    return value


def _check_header(data: object) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise RuleError("the file must hold a JSON object (a league export)", "format")
    if data.get("format") != FORMAT:
        raise RuleError(
            f"this is not a scorekeeper league export (its 'format' should be '{FORMAT}')",
            "format",
        )
    version = data.get("version")
    if version != FORMAT_VERSION:
        if isinstance(version, int) and not isinstance(version, bool) and version > 1:
            raise RuleError(
                f"this export has format version {version}, newer than this install "
                f"reads ({FORMAT_VERSION}): update scorekeeper to import it",
                "version",
            )
        raise RuleError(
            f"unknown format version {version!r} (expected {FORMAT_VERSION})", "version"
        )
    return data


def _check_players(raw: object) -> list[_PlayerIn]:
    players: list[_PlayerIn] = []
    seen: set[int] = set()
    linked: set[str] = set()
    for index, item in enumerate(_list(raw, "players", "players")):
        where = f"players[{index}]"
        entry = _obj(item, "players", where)
        pid = _int(entry.get("id"), "players", f"{where}.id", minimum=1)
        if pid in seen:
            raise _fail("players", where, f"player id {pid} appears twice")
        seen.add(pid)
        user = _username(entry.get("user"), "players", f"{where}.user")
        if user is not None:
            if user in linked:
                raise _fail("players", where, f"two players are linked to the account {user!r}")
            linked.add(user)
        players.append(
            _PlayerIn(
                id=pid,
                name=_text(
                    entry.get("name"), "players", f"{where}.name", limit=_NAME_LIMITS["player"]
                ),
                user=user,
                created_at=_timestamp(entry.get("created_at"), "players", f"{where}.created_at"),
            )
        )
    return players


def _check_members(raw: object, known: set[int]) -> list[tuple[int, datetime | None]]:
    members: list[tuple[int, datetime | None]] = []
    seen: set[int] = set()
    for index, item in enumerate(_list(raw if raw is not None else [], "members", "members")):
        where = f"members[{index}]"
        entry = _obj(item, "members", where)
        pid = _int(entry.get("player"), "members", f"{where}.player", minimum=1)
        if pid not in known:
            raise _fail("members", where, f"player {pid} is not in the file's players")
        if pid in seen:
            raise _fail("members", where, f"player {pid} is a member twice")
        seen.add(pid)
        members.append((pid, _timestamp(entry.get("joined_at"), "members", f"{where}.joined_at")))
    return members


def _check_hands(raw: object, where: str) -> list[_HandIn]:
    hands: list[_HandIn] = []
    for index, item in enumerate(_list(raw if raw is not None else [], "games", f"{where}.hands")):
        at = f"{where}.hands[{index}]"
        entry = _obj(item, "games", at)
        number = _int(entry.get("number"), "games", f"{at}.number", minimum=1)
        if number != index + 1:
            raise _fail(
                "games",
                at,
                f"hands must be numbered 1, 2, 3… in order (found "
                f"hand {number} in place {index + 1})",
            )
        hand_input = entry.get("input")
        if not isinstance(hand_input, Mapping):
            raise _fail("games", f"{at}.input", "must be a JSON object (the hand's input)")
        hands.append(
            _HandIn(
                number=number,
                input=dict(hand_input),
                revision=_int(entry.get("revision", 1), "games", f"{at}.revision", minimum=1),
                created_by=_username(entry.get("created_by"), "games", f"{at}.created_by"),
                created_at=_timestamp(entry.get("created_at"), "games", f"{at}.created_at"),
            )
        )
    return hands


def _check_revisions(raw: object, where: str) -> list[_RevisionIn]:
    actions = set(HandAction.values)
    revisions: list[_RevisionIn] = []
    for index, item in enumerate(
        _list(raw if raw is not None else [], "games", f"{where}.revisions")
    ):
        at = f"{where}.revisions[{index}]"
        entry = _obj(item, "games", at)
        action = entry.get("action")
        if action not in actions:
            raise _fail(
                "games",
                f"{at}.action",
                f"must be one of {', '.join(sorted(actions))} (got {action!r})",
            )
        rev_input = entry.get("input")
        if not isinstance(rev_input, Mapping):
            raise _fail("games", f"{at}.input", "must be a JSON object (a hand's input)")
        revisions.append(
            _RevisionIn(
                number=_int(entry.get("number"), "games", f"{at}.number", minimum=1),
                revision=_int(entry.get("revision"), "games", f"{at}.revision", minimum=1),
                action=str(action),
                input=dict(rev_input),
                user=_username(entry.get("user"), "games", f"{at}.user"),
                created_at=_timestamp(entry.get("created_at"), "games", f"{at}.created_at"),
            )
        )
    return revisions


def _hand_error(
    rules: Ruleset,
    config: GameConfig,
    inputs: Sequence[dict[str, Any]],
    where: str,
    error: RuleError,
) -> RuleError:
    """Point at the hand that breaks the rules: the first one whose prefix the engine
    rejects (an error path only, so replaying prefixes is affordable)."""
    for count in range(1, len(inputs) + 1):
        try:
            rules.play(config, inputs[:count])
        except RuleError as exc:
            return _fail("games", f"{where}.hands[{count - 1}] (hand {count})", exc.message)
    # Every hand is fine on its own: the game cannot be ended by hand as it stands.
    return _fail("games", f"{where}.closed", error.message)


def _check_game(index: int, raw: object, known: set[int]) -> _GameIn:
    entry = _obj(raw, "games", f"games[{index}]")
    file_id = entry.get("id")
    where = f"games[{index}]" + (f" (game {file_id})" if isinstance(file_id, int) else "")
    try:
        rules = get_ruleset(str(entry.get("ruleset")))
    except RuleError as exc:
        raise _fail("games", f"{where}.ruleset", exc.message) from None
    seats = []
    for s_index, item in enumerate(_list(entry.get("seats"), "games", f"{where}.seats")):
        at = f"{where}.seats[{s_index}]"
        seat = _obj(item, "games", at)
        pid = _int(seat.get("player"), "games", f"{at}.player", minimum=1)
        if pid not in known:
            raise _fail("games", at, f"player {pid} is not in the file's players")
        seats.append((_int(seat.get("position", s_index), "games", f"{at}.position"), pid))
    seats.sort()
    if [pos for pos, _ in seats] != list(range(len(seats))):
        raise _fail("games", f"{where}.seats", "seat positions must be 0, 1, 2… once each")
    players = [pid for _, pid in seats]
    variant = entry.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise _fail("games", f"{where}.variant", f"must be text (got {variant!r})")
    options = entry.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise _fail("games", f"{where}.options", "must be a JSON object")
    teams = entry.get("teams")
    first_dealer = entry.get("first_dealer")
    closed = entry.get("closed", False)
    if not isinstance(closed, bool):
        raise _fail("games", f"{where}.closed", f"must be true or false (got {closed!r})")
    try:
        config = rules.configure(
            players=players,
            variant=variant or None,
            options=options,
            teams=teams,
            first_dealer=first_dealer,
        )
    except RuleError as exc:
        raise _fail("games", f"{where}.{exc.field}", exc.message) from None
    hands = _check_hands(entry.get("hands"), where)
    inputs = [h.input for h in hands]
    try:
        state = rules.play(config, inputs, closed=closed)
    except RuleError as exc:
        raise _hand_error(rules, config, inputs, where, exc) from None
    for hand, outcome in zip(hands, state.hands, strict=True):
        hand.input = dict(outcome.input)
    revisions = _check_revisions(entry.get("revisions"), where)
    for rev_index, rev in enumerate(revisions):
        # Checked only for its player ids: an old revision was valid when it was made.
        remap_player_ids(
            rev.input,
            {p: p for p in players},
            field="games",
            where=f"{where}.revisions[{rev_index}].input",
        )
    assert config.first_dealer is not None
    return _GameIn(
        where=where,
        ruleset=rules.slug,
        variant=config.variant or "",
        options=dict(config.options),
        teams=[list(t) for t in config.teams] if config.teams else None,
        first_dealer=config.first_dealer,
        players=players,
        closed=closed,
        owner=_username(entry.get("owner"), "games", f"{where}.owner"),
        created_at=_timestamp(entry.get("created_at"), "games", f"{where}.created_at"),
        finished_at=_timestamp(entry.get("finished_at"), "games", f"{where}.finished_at"),
        hands=hands,
        revisions=revisions,
        state=state,
    )


def league_import_check(data: object) -> _LeagueIn:
    """Check a whole export without writing anything; :class:`RuleError` at the first
    problem, its ``field`` the top-level key concerned and its message the place in the
    file (``games[3] (game 120).hands[1]: …``)."""
    doc = _check_header(data)
    league = _obj(doc.get("league"), "league", "league")
    name = _text(league.get("name"), "league", "league.name", limit=_NAME_LIMITS["league"])
    players = _check_players(doc.get("players"))
    known = {p.id for p in players}
    members = _check_members(doc.get("members"), known)
    games = [
        _check_game(index, raw, known)
        for index, raw in enumerate(_list(doc.get("games", []), "games", "games"))
    ]
    return _LeagueIn(
        name=name,
        created_at=_timestamp(league.get("created_at"), "league", "league.created_at"),
        players=players,
        members=members,
        games=games,
    )


# -- import: writing ------------------------------------------------------------------


class _Accounts:
    """Resolves the usernames of a file to accounts of this install (see the module
    docstring for who may resolve what)."""

    def __init__(self, owner: User, *, trusted: bool, create_users: bool) -> None:
        self.owner = owner
        self.trusted = trusted
        self.create_users = create_users
        self.created: list[str] = []
        self._cache: dict[str, User | None] = {owner.get_username(): owner}

    def get(self, username: str | None) -> User | None:
        if username is None:
            return None
        if username not in self._cache:
            self._cache[username] = self._resolve(username) if self.trusted else None
        return self._cache[username]

    def _resolve(self, username: str) -> User | None:
        found = User.objects.filter(username=username).first()
        if found is None and self.create_users:
            found = User.objects.create_user(username, password=None)
            self.created.append(username)
        return found


@dataclass(frozen=True)
class ImportResult:
    league: League
    players_created: int
    players_reused: int
    games: int
    hands: int
    users_created: tuple[str, ...]


def league_import_json(
    data: object, *, owner: User, trusted: bool = False, create_users: bool = False
) -> League:
    """Create a new league owned by ``owner`` from a :func:`league_export_json` file.
    See :func:`league_import` for the details."""
    return league_import(data, owner=owner, trusted=trusted, create_users=create_users).league


def league_import(
    data: object, *, owner: User, trusted: bool = False, create_users: bool = False
) -> ImportResult:
    """Import a league export in one transaction; :class:`RuleError` (nothing written)
    if anything in the file is off.

    Players, the league, its members, games, hands and revisions are recreated with the
    file's timestamps; player ids inside the hands are translated to the new ids. The
    results are then computed again by the engine and the league's statistics rebuilt.
    ``trusted``/``create_users``: see the module docstring."""
    checked = league_import_check(data)
    now = timezone.now()
    with transaction.atomic():
        accounts = _Accounts(owner, trusted=trusted, create_users=create_users)
        ids, reused = _write_players(checked.players, accounts, now)
        league = League.objects.create(
            name=checked.name, owner=owner, created_at=checked.created_at or now
        )
        member_times = dict(checked.members)
        # Everyone seated at a game is a member, as game_create makes them.
        for game in checked.games:
            for pid in game.players:
                member_times.setdefault(pid, game.created_at or now)
        Membership.objects.bulk_create(
            Membership(league=league, player_id=ids[pid], joined_at=joined or now)
            for pid, joined in member_times.items()
        )
        hands = _write_games(league, checked.games, ids, accounts, now)
        stats.league_stats_rebuild(league)
    return ImportResult(
        league=league,
        players_created=len(ids) - reused,
        players_reused=reused,
        games=len(checked.games),
        hands=hands,
        users_created=tuple(accounts.created),
    )


def _write_players(
    players: Sequence[_PlayerIn], accounts: _Accounts, now: datetime
) -> tuple[dict[int, int], int]:
    """Create the file's players; a player linked to an account that already has a
    player is that player. Returns file id -> new id, and how many were reused."""
    ids: dict[int, int] = {}
    reused = 0
    to_create: list[tuple[int, Player]] = []
    for p in players:
        user = accounts.get(p.user)
        existing = Player.objects.filter(user=user).first() if user is not None else None
        if existing is not None:
            ids[p.id] = existing.pk
            reused += 1
            continue
        to_create.append(
            (
                p.id,
                Player(
                    name=p.name,
                    user=user,
                    created_by=accounts.owner,
                    created_at=p.created_at or now,
                ),
            )
        )
    created = Player.objects.bulk_create([player for _, player in to_create])
    for (file_id, _), player in zip(to_create, created, strict=True):
        ids[file_id] = player.pk
    return ids, reused


def _write_games(
    league: League,
    games: Sequence[_GameIn],
    ids: Mapping[int, int],
    accounts: _Accounts,
    now: datetime,
) -> int:
    """Create the games with their seats, hands and revisions, and store what the engine
    computed from them (status, hand count, each seat's score, place and win)."""
    rows = []
    for g in games:
        state = g.state
        finished = state.finished
        rows.append(
            Game(
                ruleset=g.ruleset,
                variant=g.variant,
                options=g.options,
                teams=[[ids[p] for p in team] for team in g.teams] if g.teams else None,
                first_dealer_id=ids[g.first_dealer],
                league=league,
                owner=accounts.get(g.owner) or accounts.owner,
                closed=g.closed,
                created_at=g.created_at or now,
                status=GameStatus.FINISHED if finished else GameStatus.IN_PROGRESS,
                finished_at=(g.finished_at or g.created_at or now) if finished else None,
                hand_count=len(state.hands),
                version=1,
            )
        )
    created = Game.objects.bulk_create(rows)
    seats: list[Seat] = []
    hands: list[Hand] = []
    revisions: list[HandRevision] = []
    for g, game in zip(games, created, strict=True):
        state = g.state
        results = seat_results(state)
        config = state.config
        for position, pid in enumerate(g.players):
            seats.append(
                Seat(
                    game=game,
                    player_id=ids[pid],
                    position=position,
                    team=config.team_of(pid),
                    score=results[pid].score,
                    place=results[pid].place,
                    won=results[pid].won,
                )
            )
        for hand in g.hands:
            hands.append(
                Hand(
                    game=game,
                    number=hand.number,
                    input=remap_player_ids(hand.input, ids, where=g.where),
                    revision=hand.revision,
                    created_by=accounts.get(hand.created_by),
                    created_at=hand.created_at or game.created_at,
                )
            )
        for rev in g.revisions:
            revisions.append(
                HandRevision(
                    game=game,
                    number=rev.number,
                    revision=rev.revision,
                    action=rev.action,
                    input=remap_player_ids(rev.input, ids, where=g.where),
                    user=accounts.get(rev.user),
                    created_at=rev.created_at or game.created_at,
                )
            )
    Seat.objects.bulk_create(seats, batch_size=2000)
    Hand.objects.bulk_create(hands, batch_size=2000)
    HandRevision.objects.bulk_create(revisions, batch_size=2000)
    return len(hands)
