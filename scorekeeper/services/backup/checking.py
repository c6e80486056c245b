"""What a league backup means, checked before anything is written: its header, players
and members, the references between its players and games, and every game's hands
through the engine. A problem is a :class:`games.RuleError` naming its place in the
file (``games[3].hands[12] (hand 13): …``). The result is the file as plain records
(:class:`LeagueIn`) for :mod:`scorekeeper.services.backup.importing` to write.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games import GameConfig, GameState, RuleError, Ruleset, get_ruleset
from scorekeeper.models import MemberRole
from scorekeeper.services.backup.schema import (
    FORMAT,
    FORMAT_VERSION,
    parse_timestamp,
    schema_error,
)
from scorekeeper.services.backup.seasons import SeasonIn, check_seasons
from scorekeeper.services.players import PLAYER_KEYS


@dataclass
class PlayerIn:
    id: int
    name: str
    user: str | None
    created_at: datetime | None
    colour: int | None = None
    hidden: bool = False


@dataclass
class RevisionIn:
    number: int
    revision: int
    action: str
    input: dict[str, Any]
    user: str | None
    created_at: datetime | None
    guest: str | None = None


@dataclass
class HandIn:
    number: int
    input: dict[str, Any]
    revision: int
    created_by: str | None
    created_at: datetime | None


@dataclass
class GameIn:
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
    hands: list[HandIn]
    revisions: list[RevisionIn]
    state: GameState


@dataclass
class MemberIn:
    player: int
    joined_at: datetime | None
    #: What the member may do in the league; a file without roles: records games.
    role: str = MemberRole.RECORDER


@dataclass
class LeagueIn:
    name: str
    created_at: datetime | None
    players: list[PlayerIn]
    members: list[MemberIn]
    games: list[GameIn]
    #: None: the file has no seasons (written before there were any).
    seasons: list[SeasonIn] | None = None


def _fail(field: str, where: str, message: str) -> RuleError:
    return RuleError(f"{where}: {message}" if where else message, field)


def _when(value: str | None) -> datetime | None:
    """A timestamp the schema has already accepted."""
    return parse_timestamp(value) if value is not None else None


def _name(value: str) -> str:
    return " ".join(value.split())


def _username(value: str | None) -> str | None:
    return value or None


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
    """The file is a league export of a version this install reads (before the schema of
    that version applies)."""
    if not isinstance(data, Mapping):
        raise RuleError(_("the file must hold a JSON object (a league export)"), "format")
    if data.get("format") != FORMAT:
        raise RuleError(
            _("this is not a scorekeeper league export (its 'format' should be '%(format)s')")
            % {"format": FORMAT},
            "format",
        )
    version = data.get("version")
    if version != FORMAT_VERSION or isinstance(version, bool):
        if isinstance(version, int) and not isinstance(version, bool) and version > 1:
            raise RuleError(
                _(
                    "this export has format version %(version)s, newer than this install "
                    "reads (%(supported)s): update scorekeeper to import it"
                )
                % {"version": version, "supported": FORMAT_VERSION},
                "version",
            )
        shown = repr(version) if isinstance(version, int | str | None) else type(version).__name__
        raise RuleError(
            _("unknown format version %(version)s (expected %(supported)s)")
            % {"version": shown[:40], "supported": FORMAT_VERSION},
            "version",
        )
    return data


def _check_players(raw: list[Mapping[str, Any]]) -> list[PlayerIn]:
    players: list[PlayerIn] = []
    seen: set[int] = set()
    linked: set[str] = set()
    for index, entry in enumerate(raw):
        where = f"players[{index}]"
        pid = entry["id"]
        if pid in seen:
            raise _fail("players", where, f"player id {pid} appears twice")
        seen.add(pid)
        user = _username(entry.get("user"))
        if user is not None:
            if user in linked:
                raise _fail("players", where, f"two players are linked to the account {user!r}")
            linked.add(user)
        players.append(
            PlayerIn(
                id=pid,
                name=_name(entry["name"]),
                user=user,
                created_at=_when(entry.get("created_at")),
                colour=entry.get("colour"),
                hidden=bool(entry.get("hidden", False)),
            )
        )
    return players


def _check_members(raw: list[Mapping[str, Any]], known: set[int]) -> list[MemberIn]:
    members: list[MemberIn] = []
    seen: set[int] = set()
    for index, entry in enumerate(raw):
        where = f"members[{index}]"
        pid = entry["player"]
        if pid not in known:
            raise _fail("members", where, f"player {pid} is not in the file's players")
        if pid in seen:
            raise _fail("members", where, f"player {pid} is a member twice")
        seen.add(pid)
        role = entry.get("role", MemberRole.RECORDER)
        members.append(MemberIn(pid, _when(entry.get("joined_at")), role))
    return members


def _check_hands(raw: list[Mapping[str, Any]], where: str) -> list[HandIn]:
    hands: list[HandIn] = []
    for index, entry in enumerate(raw):
        number = entry["number"]
        if number != index + 1:
            raise _fail(
                "games",
                f"{where}.hands[{index}]",
                f"hands must be numbered 1, 2, 3… in order (found "
                f"hand {number} in place {index + 1})",
            )
        hands.append(
            HandIn(
                number=number,
                input=dict(entry["input"]),
                revision=entry.get("revision", 1),
                created_by=_username(entry.get("created_by")),
                created_at=_when(entry.get("created_at")),
            )
        )
    return hands


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


def _check_game(index: int, entry: Mapping[str, Any], known: set[int]) -> GameIn:
    file_id = entry.get("id")
    where = f"games[{index}]" + (f" (game {file_id})" if file_id is not None else "")
    try:
        rules = get_ruleset(entry["ruleset"])
    except RuleError as exc:
        raise _fail("games", f"{where}.ruleset", exc.message) from None
    seats = []
    for s_index, seat in enumerate(entry["seats"]):
        pid = seat["player"]
        if pid not in known:
            raise _fail(
                "games", f"{where}.seats[{s_index}]", f"player {pid} is not in the file's players"
            )
        seats.append((seat.get("position", s_index), pid))
    seats.sort()
    if [pos for pos, _ in seats] != list(range(len(seats))):
        raise _fail("games", f"{where}.seats", "seat positions must be 0, 1, 2… once each")
    players = [pid for _, pid in seats]
    closed = entry.get("closed", False)
    try:
        config = rules.configure(
            players=players,
            variant=entry.get("variant") or None,
            options=entry.get("options"),
            teams=entry.get("teams"),
            first_dealer=entry.get("first_dealer"),
        )
    except RuleError as exc:
        raise _fail("games", f"{where}.{exc.field}", exc.message) from None
    hands = _check_hands(entry.get("hands") or [], where)
    inputs = [h.input for h in hands]
    try:
        state = rules.play(config, inputs, closed=closed)
    except RuleError as exc:
        raise _hand_error(rules, config, inputs, where, exc) from None
    for hand, outcome in zip(hands, state.hands, strict=True):
        hand.input = dict(outcome.input)
    revisions = [
        RevisionIn(
            number=rev["number"],
            revision=rev["revision"],
            action=rev["action"],
            input=dict(rev["input"]),
            user=_username(rev.get("user")),
            created_at=_when(rev.get("created_at")),
            guest=_name(rev["guest"]) if rev.get("guest") else None,
        )
        for rev in entry.get("revisions") or []
    ]
    for rev_index, rev in enumerate(revisions):
        # Checked only for its player ids: an old revision was valid when it was made.
        remap_player_ids(
            rev.input,
            {p: p for p in players},
            field="games",
            where=f"{where}.revisions[{rev_index}].input",
        )
    assert config.first_dealer is not None
    return GameIn(
        where=where,
        ruleset=rules.slug,
        variant=config.variant or "",
        options=dict(config.options),
        teams=[list(t) for t in config.teams] if config.teams else None,
        first_dealer=config.first_dealer,
        players=players,
        closed=closed,
        owner=_username(entry.get("owner")),
        created_at=_when(entry.get("created_at")),
        finished_at=_when(entry.get("finished_at")),
        hands=hands,
        revisions=revisions,
        state=state,
    )


def league_import_check(
    data: object, *, progress: Callable[[int, int], None] | None = None
) -> LeagueIn:
    """Check a whole export without writing anything; :class:`RuleError` at the first
    problem, its ``field`` the top-level key concerned and its message the place in the
    file (``games[3] (game 120).hands[1]: …``). ``progress(checked, total)`` is told of
    each game before it is checked, and once all are."""
    doc = _check_header(data)
    problem = schema_error(doc)
    if problem is not None:
        raise problem
    players = _check_players(doc["players"])
    known = {p.id for p in players}
    members = _check_members(doc.get("members") or [], known)
    raw_games = doc.get("games") or []
    games = []
    for index, raw in enumerate(raw_games):
        if progress is not None:
            progress(index, len(raw_games))
        games.append(_check_game(index, raw, known))
    if progress is not None:
        progress(len(raw_games), len(raw_games))
    seasons = check_seasons(doc["seasons"], known) if "seasons" in doc else None
    league = doc["league"]
    return LeagueIn(
        name=_name(league["name"]),
        created_at=_when(league.get("created_at")),
        players=players,
        members=members,
        games=games,
        seasons=seasons,
    )
