"""The declared shape of a league backup (format version 1), as a JSON Schema.

Every type, range, length and depth a file may have is stated here, once: the import
checks a file against :data:`LEAGUE_SCHEMA` before it looks at what the file *means*
(references between players and games, every hand through the game's rules). So no
value reaches the database that the database, or a page reading it back, could choke
on: timestamps stay inside years 1–9999 in every time zone, numbers inside the columns'
ranges, strings free of NUL, control characters and lone surrogates, hand inputs at most
four levels deep, a game at most :data:`MAX_HANDS` hands.

A problem is reported as a :class:`games.RuleError` whose ``field`` is the top-level key
concerned and whose message names the place: ``games[3].hands[12].number: must be at
most 1000 (got 1000000000000000000000000000000)``.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastjsonschema import JsonSchemaValueException

from games import RuleError
from scorekeeper.models import PLAYER_COLOURS, HandAction, MemberRole
from scorekeeper.services.invites import GUEST_NAME_MAX
from scorekeeper.validation import MAX_HANDS, clean_name

#: What the ``format`` field of an export says, and the version of its layout.
FORMAT = "scorekeeper.league"
FORMAT_VERSION = 1

#: Corrections and undos recorded for one game, all hands together.
MAX_REVISIONS = 20 * MAX_HANDS
MAX_GAMES = 200_000
MAX_PLAYERS = 20_000
MAX_SEATS = 20
MAX_SEASONS = 1000
#: Ids in a file only tie its parts together; they fit a 32-bit column.
MAX_ID = 2**31 - 1
#: A count in a hand's input (chips, passes, cards left…): 1,000 hands of this many
#: points still fit a score column.
MAX_COUNT = 1_000_000
MAX_REVISION = 1_000_000

#: A timestamp is kept between these instants, a day inside the years 1–9999, so that
#: showing it in any time zone stays inside them too.
EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
LATEST = datetime(9999, 12, 31, tzinfo=UTC) - timedelta(days=1)


def _is_text(value: object) -> bool:
    """No NUL or other control characters (tab aside), no lone surrogates."""
    if not isinstance(value, str):
        return True
    return not any(unicodedata.category(ch) in ("Cc", "Cs") and ch != "\t" for ch in value)


def _is_name(value: object) -> bool:
    """A name the app itself would accept (:func:`scorekeeper.validation.clean_name`);
    the schema's ``maxLength`` bounds its length."""
    if not isinstance(value, str):
        return True
    try:
        clean_name(value, limit=len(value))
    except RuleError:
        return False
    return True


def parse_timestamp(value: str) -> datetime:
    """An ISO 8601 date-time (ASCII digits only); one without a time zone is UTC.
    ``ValueError`` when it is not one, or outside :data:`EARLIEST`–:data:`LATEST`."""
    if not value.isascii():
        raise ValueError(value)
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        instant = parsed.astimezone(UTC)
    except OverflowError:
        raise ValueError(value) from None
    if not EARLIEST <= instant <= LATEST:
        raise ValueError(value)
    return instant


def _is_timestamp(value: object) -> bool:
    if isinstance(value, str):
        try:
            parse_timestamp(value)
        except ValueError:
            return False
    return True


def parse_day(value: str) -> date:
    """A calendar day written ``YYYY-MM-DD`` (ASCII digits only); ``ValueError`` when it
    is not one."""
    if not value.isascii() or len(value) != 10:
        raise ValueError(value)
    return date.fromisoformat(value)


def _is_day(value: object) -> bool:
    if isinstance(value, str):
        try:
            parse_day(value)
        except ValueError:
            return False
    return True


def _x(schema: dict[str, Any], **messages: str) -> dict[str, Any]:
    """A schema with friendlier messages for some of its keywords."""
    return {**schema, "x-messages": messages}


_TIMESTAMP_MESSAGE = "must be an ISO 8601 date-time in the years 1–9999"

#: Hand inputs: objects and lists at most four levels deep, ASCII strings, bounded
#: numbers; the keys holding a player id hold an id.
_INPUT_LEAF = _x(
    {
        "type": ["null", "boolean", "integer", "string"],
        "minimum": -MAX_COUNT,
        "maximum": MAX_COUNT,
        "maxLength": 40,
        "pattern": "^[\\x20-\\x7e]*$",
    },
    type="is nested too deeply, or is not a number, text, true/false or null",
    pattern="must be plain ASCII text",
)


def _input_level(inner: str) -> dict[str, Any]:
    """A level of a hand input: a leaf, or a list or object of the ``inner`` level's."""
    inner_ref = {"$ref": f"#/definitions/{inner}"}
    return _x(
        {
            **_INPUT_LEAF,
            "type": ["null", "boolean", "integer", "string", "array", "object"],
            "maxItems": 200,
            "items": inner_ref,
            "maxProperties": 40,
            "propertyNames": {"$ref": "#/definitions/key"},
            "properties": {
                key: {"$ref": "#/definitions/player_ref"}
                for key in ("winner", "player", "bower_holder", "last_chip")
            },
            "additionalProperties": inner_ref,
        },
        pattern="must be plain ASCII text",
    )


LEAGUE_SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "scorekeeper league backup, format version 1",
    "type": "object",
    "required": ["format", "version", "league", "players"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "version": {"const": FORMAT_VERSION},
        "exported_at": {"$ref": "#/definitions/timestamp"},
        "league": {
            "type": "object",
            "required": ["name"],
            "additionalProperties": False,
            "properties": {
                "id": {"$ref": "#/definitions/id_or_null"},
                "name": {"$ref": "#/definitions/league_name"},
                "owner": {"$ref": "#/definitions/username"},
                "created_at": {"$ref": "#/definitions/timestamp"},
            },
        },
        "users": {
            "type": "array",
            "maxItems": MAX_PLAYERS,
            "items": {"$ref": "#/definitions/username"},
        },
        "players": {
            "type": "array",
            "maxItems": MAX_PLAYERS,
            "items": {
                "type": "object",
                "required": ["id", "name"],
                "additionalProperties": False,
                "properties": {
                    "id": {"$ref": "#/definitions/id"},
                    "name": {"$ref": "#/definitions/player_name"},
                    "user": {"$ref": "#/definitions/username"},
                    "created_at": {"$ref": "#/definitions/timestamp"},
                    # The player's marker colour (a palette slot) and whether the
                    # pickers leave them out: optional, older exports have neither.
                    "colour": {
                        "type": ["integer", "null"],
                        "minimum": 1,
                        "maximum": PLAYER_COLOURS,
                    },
                    "hidden": {"type": "boolean"},
                },
            },
        },
        "members": {
            "type": "array",
            "maxItems": MAX_PLAYERS,
            "items": {
                "type": "object",
                "required": ["player"],
                "additionalProperties": False,
                "properties": {
                    "player": {"$ref": "#/definitions/id"},
                    "joined_at": {"$ref": "#/definitions/timestamp"},
                    # Optional: older exports have no roles (their members record games).
                    "role": {"enum": sorted(MemberRole.values)},
                },
            },
        },
        "games": {"type": "array", "maxItems": MAX_GAMES, "items": {"$ref": "#/definitions/game"}},
        # Optional: older exports have no seasons (they import as one season).
        "seasons": {
            "type": "array",
            "maxItems": MAX_SEASONS,
            "items": {"$ref": "#/definitions/season"},
        },
    },
    "definitions": {
        "day": _x(  # null only for an end (seasons.py refuses a null start)
            {"type": ["string", "null"], "maxLength": 10, "format": "day"},
            format="must be a day written YYYY-MM-DD",
            type="must be a day written YYYY-MM-DD",
        ),
        "season": {
            "type": "object",
            "required": ["name", "start"],
            "additionalProperties": False,
            "properties": {
                "name": {"$ref": "#/definitions/league_name"},
                "start": {"$ref": "#/definitions/day"},
                "end": {"$ref": "#/definitions/day"},
                "created_at": {"$ref": "#/definitions/timestamp"},
                # A closed season's table as it was kept: {scope: rows}, "" all games.
                "final_table": {
                    "type": ["object", "null"],
                    "maxProperties": 40,
                    "propertyNames": {"type": "string", "maxLength": 40, "pattern": "^[a-z0-9-]*$"},
                    "additionalProperties": {
                        "type": "array",
                        "maxItems": MAX_PLAYERS,
                        "items": {"$ref": "#/definitions/standing"},
                    },
                },
            },
        },
        "standing": {
            "type": "object",
            "required": ["rank", "player", "name", "games", "wins", "rating", "mu", "sigma"],
            "additionalProperties": False,
            "properties": {
                "rank": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS},
                "player": {"$ref": "#/definitions/id"},
                "name": {"type": "string", "maxLength": 60, "format": "text"},
                "games": {"type": "integer", "minimum": 0, "maximum": MAX_GAMES},
                "wins": {"type": "integer", "minimum": 0, "maximum": MAX_GAMES},
                "win_rate": {"type": "number", "minimum": 0, "maximum": 1},
                "avg_place": {"type": ["number", "null"], "minimum": 0, "maximum": MAX_SEATS},
                "rating": {"type": "number", "minimum": -1000, "maximum": 1000},
                "mu": {"type": "number", "minimum": -1000, "maximum": 1000},
                "sigma": {"type": "number", "minimum": 0, "maximum": 1000},
                "provisional": {"type": "boolean"},
            },
        },
        "id": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
        "id_or_null": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_ID},
        "player_ref": {
            "type": ["integer", "null"],
            "minimum": 1,
            "maximum": MAX_ID,
        },
        "key": _x(
            {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,40}$"},
            pattern="must be a key of letters, digits, '_' or '-' (at most 40)",
        ),
        "timestamp": _x(
            {"type": ["string", "null"], "maxLength": 40, "format": "timestamp"},
            format=_TIMESTAMP_MESSAGE,
            type=_TIMESTAMP_MESSAGE,
        ),
        "username": _x(
            {
                "type": ["string", "null"],
                "maxLength": 150,
                "pattern": "^[\\w.@+-]*$",
            },
            pattern="must be a username (letters, digits and @/./+/-/_) or null",
        ),
        "league_name": _x(
            {"type": "string", "maxLength": 80, "format": "name"},
            format="a name is required, in visible characters (no control characters)",
        ),
        "player_name": _x(
            {"type": "string", "maxLength": 60, "format": "name"},
            format="a name is required, in visible characters (no control characters)",
        ),
        "guest_name": _x(
            {"type": ["string", "null"], "maxLength": GUEST_NAME_MAX, "format": "name"},
            format="a name is required, in visible characters (no control characters)",
        ),
        "slug": _x(
            {"type": ["string", "null"], "maxLength": 40, "pattern": "^[a-z0-9-]*$"},
            pattern="must be lowercase letters, digits and '-'",
        ),
        "options": {
            "type": ["object", "null"],
            "maxProperties": 40,
            "propertyNames": {"$ref": "#/definitions/key"},
            "additionalProperties": _INPUT_LEAF,
        },
        # Each level a definition of its own, referred to by the next: inlined, the four
        # levels made 2⁴ copies of the leaf and 2.4 MB of compiled Python.
        "input_leaf": _INPUT_LEAF,
        "input_1": _input_level("input_leaf"),
        "input_2": _input_level("input_1"),
        "input_3": _input_level("input_2"),
        "input": {**_input_level("input_3"), "type": "object"},
        "game": {
            "type": "object",
            "required": ["ruleset", "seats"],
            "additionalProperties": False,
            "properties": {
                "id": {"$ref": "#/definitions/id_or_null"},
                "ruleset": {"type": "string", "maxLength": 40},
                "variant": {"$ref": "#/definitions/slug"},
                "options": {"$ref": "#/definitions/options"},
                "teams": {
                    "type": ["array", "null"],
                    "maxItems": MAX_SEATS,
                    "items": {
                        "type": "array",
                        "maxItems": MAX_SEATS,
                        "items": {"$ref": "#/definitions/id"},
                    },
                },
                "first_dealer": {"$ref": "#/definitions/id_or_null"},
                "closed": {"type": "boolean"},
                "owner": {"$ref": "#/definitions/username"},
                "created_at": {"$ref": "#/definitions/timestamp"},
                "finished_at": {"$ref": "#/definitions/timestamp"},
                "status": {"type": ["string", "null"], "maxLength": 20, "pattern": "^[a-z_]*$"},
                "seats": {
                    "type": "array",
                    "maxItems": MAX_SEATS,
                    "items": {
                        "type": "object",
                        "required": ["player"],
                        "additionalProperties": False,
                        "properties": {
                            "player": {"$ref": "#/definitions/id"},
                            "position": {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1},
                            # Results: derived, ignored by the import, but typed.
                            "team": {
                                "type": ["integer", "null"],
                                "minimum": 0,
                                "maximum": MAX_SEATS,
                            },
                            "score": {
                                "type": ["integer", "null"],
                                "minimum": -MAX_ID,
                                "maximum": MAX_ID,
                            },
                            "place": {
                                "type": ["integer", "null"],
                                "minimum": 0,
                                "maximum": MAX_SEATS,
                            },
                            "won": {"type": ["boolean", "null"]},
                        },
                    },
                },
                "hands": _x(
                    {
                        "type": "array",
                        "maxItems": MAX_HANDS,
                        "items": {
                            "type": "object",
                            "required": ["number", "input"],
                            "additionalProperties": False,
                            "properties": {
                                "number": {"type": "integer", "minimum": 1, "maximum": MAX_HANDS},
                                "input": {"$ref": "#/definitions/input"},
                                "revision": {
                                    "type": "integer",
                                    "minimum": 1,
                                    "maximum": MAX_REVISION,
                                },
                                "created_by": {"$ref": "#/definitions/username"},
                                "created_at": {"$ref": "#/definitions/timestamp"},
                            },
                        },
                    },
                    maxItems=f"a game holds at most {MAX_HANDS:,} hands",
                ),
                "revisions": {
                    "type": "array",
                    "maxItems": MAX_REVISIONS,
                    "items": {
                        "type": "object",
                        "required": ["number", "revision", "action", "input"],
                        "additionalProperties": False,
                        "properties": {
                            "number": {"type": "integer", "minimum": 1, "maximum": MAX_HANDS},
                            "revision": {"type": "integer", "minimum": 1, "maximum": MAX_REVISION},
                            "action": {"enum": sorted(HandAction.values)},
                            "input": {"$ref": "#/definitions/input"},
                            "user": {"$ref": "#/definitions/username"},
                            # A guest who joined by a score link (no account).
                            "guest": {"$ref": "#/definitions/guest_name"},
                            "created_at": {"$ref": "#/definitions/timestamp"},
                        },
                    },
                },
            },
        },
    },
}


@functools.cache
def _compiled() -> Callable[[object], object]:
    """The schema compiled to Python by fastjsonschema (checking a 20 MB file takes a
    few seconds), once per process that checks files: the background worker's import,
    ``manage.py import_league``. Each definition a function of its own, the validator is
    about 250 KB of source, compiled in a tenth of a second to some 5 MB."""
    import fastjsonschema

    return fastjsonschema.compile(
        LEAGUE_SCHEMA,
        formats={
            "text": _is_text,
            "name": _is_name,
            "timestamp": _is_timestamp,
            "day": _is_day,
        },
        use_default=False,
    )


_TYPE_NAMES = {
    "object": "a JSON object",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null"


def _shown(value: object) -> str:
    if isinstance(value, dict | list):
        return _kind(value)
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 60 else text[:57] + "…"


def _message(error: JsonSchemaValueException) -> str:
    schema = error.definition if isinstance(error.definition, dict) else {}
    own_words = schema.get("x-messages", {})
    got = f" (got {_shown(error.value)})"
    rule = error.rule or ""
    if rule in own_words:
        return own_words[rule] + got
    value = error.rule_definition
    match rule:
        case "type":
            kinds = [value] if isinstance(value, str) else list(value or ())
            return "must be " + " or ".join(_TYPE_NAMES[k] for k in kinds) + got
        case "minimum":
            return f"must be at least {value}{got}"
        case "maximum":
            return f"must be at most {value}{got}"
        case "maxLength":
            return f"can have at most {value} characters"
        case "maxItems":
            return f"can hold at most {value:,} items (got {len(error.value):,})"
        case "maxProperties":
            return f"can hold at most {value} keys"
        case "required":
            missing = [key for key in value or () if key not in error.value]
            return f"{_shown(missing[0] if missing else value)} is required"
        case "additionalProperties":
            extra = sorted(set(error.value) - set(schema.get("properties", {})))
            return f"unexpected key {_shown(extra[0] if extra else '?')}"
        case "enum":
            return "must be one of " + ", ".join(map(str, value or ())) + got
        case "const":
            return f"must be {_shown(value)}{got}"
        case "format" | "pattern":
            return f"is not in the expected form{got}"
    return f"is not allowed{got}"


def _place(name: str | None) -> str:
    """``games[3].hands[12].number`` from fastjsonschema's ``data.games[3]…``."""
    text = name or ""
    for prefix in ("data.", "data"):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text


def schema_error(data: object) -> RuleError | None:
    """The first problem of a file against :data:`LEAGUE_SCHEMA`, or None when the file
    has the declared shape."""
    from fastjsonschema import JsonSchemaValueException

    try:
        _compiled()(data)
    except JsonSchemaValueException as error:
        at = _place(error.name)
        field = at.split(".")[0].split("[")[0]
        if not field and error.rule == "required" and isinstance(error.value, dict):
            field = next((k for k in error.rule_definition or () if k not in error.value), "")
        field = field or "format"
        message = _message(error)
        return RuleError(f"{at}: {message}" if at else message, field)
    return None
