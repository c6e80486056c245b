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

import json
import unicodedata
from collections import deque
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import ValidationError, best_match

from games import RuleError
from scorekeeper.models import HandAction

#: What the ``format`` field of an export says, and the version of its layout.
FORMAT = "scorekeeper.league"
FORMAT_VERSION = 1

#: A game holds at most this many hands (api.md "Limits"); a file with more is refused.
MAX_HANDS = 1000
#: Corrections and undos recorded for one game, all hands together.
MAX_REVISIONS = 20 * MAX_HANDS
MAX_GAMES = 200_000
MAX_PLAYERS = 20_000
MAX_SEATS = 20
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

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

formats = FormatChecker(formats=())


@formats.checks("text")
def _is_text(value: object) -> bool:
    """No NUL or other control characters (tab aside), no lone surrogates."""
    if not isinstance(value, str):
        return True
    return not any(unicodedata.category(ch) in ("Cc", "Cs") and ch != "\t" for ch in value)


@formats.checks("name")
def _is_name(value: object) -> bool:
    """Text with something visible in it, and no right-to-left override or isolate."""
    if not isinstance(value, str):
        return True
    if not _is_text(value) or any(ch in _BIDI_CONTROLS for ch in value):
        return False
    return any(
        not ch.isspace() and unicodedata.category(ch) not in ("Cf", "Mn", "Me", "Zs")
        for ch in value
    )


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


@formats.checks("timestamp", raises=ValueError)
def _is_timestamp(value: object) -> bool:
    if isinstance(value, str):
        parse_timestamp(value)
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


def _input_level(inner: dict[str, Any]) -> dict[str, Any]:
    return _x(
        {
            **_INPUT_LEAF,
            "type": ["null", "boolean", "integer", "string", "array", "object"],
            "maxItems": 200,
            "items": inner,
            "maxProperties": 40,
            "propertyNames": {"$ref": "#/$defs/key"},
            "properties": {
                key: {"$ref": "#/$defs/player_ref"} for key in ("winner", "player", "bower_holder")
            },
            "additionalProperties": inner,
        },
        pattern="must be plain ASCII text",
    )


_INPUT = _input_level(_input_level(_input_level(_input_level(_INPUT_LEAF))))
_INPUT["type"] = "object"

LEAGUE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "scorekeeper league backup, format version 1",
    "type": "object",
    "required": ["format", "version", "league", "players"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "version": {"const": FORMAT_VERSION},
        "exported_at": {"$ref": "#/$defs/timestamp"},
        "league": {
            "type": "object",
            "required": ["name"],
            "additionalProperties": False,
            "properties": {
                "id": {"$ref": "#/$defs/id_or_null"},
                "name": {"$ref": "#/$defs/league_name"},
                "owner": {"$ref": "#/$defs/username"},
                "created_at": {"$ref": "#/$defs/timestamp"},
            },
        },
        "users": {"type": "array", "maxItems": MAX_PLAYERS, "items": {"$ref": "#/$defs/username"}},
        "players": {
            "type": "array",
            "maxItems": MAX_PLAYERS,
            "items": {
                "type": "object",
                "required": ["id", "name"],
                "additionalProperties": False,
                "properties": {
                    "id": {"$ref": "#/$defs/id"},
                    "name": {"$ref": "#/$defs/player_name"},
                    "user": {"$ref": "#/$defs/username"},
                    "created_at": {"$ref": "#/$defs/timestamp"},
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
                    "player": {"$ref": "#/$defs/id"},
                    "joined_at": {"$ref": "#/$defs/timestamp"},
                },
            },
        },
        "games": {"type": "array", "maxItems": MAX_GAMES, "items": {"$ref": "#/$defs/game"}},
    },
    "$defs": {
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
        "slug": _x(
            {"type": ["string", "null"], "maxLength": 40, "pattern": "^[a-z0-9-]*$"},
            pattern="must be lowercase letters, digits and '-'",
        ),
        "options": {
            "type": ["object", "null"],
            "maxProperties": 40,
            "propertyNames": {"$ref": "#/$defs/key"},
            "additionalProperties": _INPUT_LEAF,
        },
        "input": _INPUT,
        "game": {
            "type": "object",
            "required": ["ruleset", "seats"],
            "additionalProperties": False,
            "properties": {
                "id": {"$ref": "#/$defs/id_or_null"},
                "ruleset": {"type": "string", "maxLength": 40},
                "variant": {"$ref": "#/$defs/slug"},
                "options": {"$ref": "#/$defs/options"},
                "teams": {
                    "type": ["array", "null"],
                    "maxItems": MAX_SEATS,
                    "items": {
                        "type": "array",
                        "maxItems": MAX_SEATS,
                        "items": {"$ref": "#/$defs/id"},
                    },
                },
                "first_dealer": {"$ref": "#/$defs/id_or_null"},
                "closed": {"type": "boolean"},
                "owner": {"$ref": "#/$defs/username"},
                "created_at": {"$ref": "#/$defs/timestamp"},
                "finished_at": {"$ref": "#/$defs/timestamp"},
                "status": {"type": ["string", "null"], "maxLength": 20, "pattern": "^[a-z_]*$"},
                "seats": {
                    "type": "array",
                    "maxItems": MAX_SEATS,
                    "items": {
                        "type": "object",
                        "required": ["player"],
                        "additionalProperties": False,
                        "properties": {
                            "player": {"$ref": "#/$defs/id"},
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
                                "input": {"$ref": "#/$defs/input"},
                                "revision": {
                                    "type": "integer",
                                    "minimum": 1,
                                    "maximum": MAX_REVISION,
                                },
                                "created_by": {"$ref": "#/$defs/username"},
                                "created_at": {"$ref": "#/$defs/timestamp"},
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
                            "input": {"$ref": "#/$defs/input"},
                            "user": {"$ref": "#/$defs/username"},
                            "created_at": {"$ref": "#/$defs/timestamp"},
                        },
                    },
                },
            },
        },
    },
}

#: Containers (objects, lists) a backup nests at most: the file, its games, a game, its
#: hands, a hand, its input and four levels inside. Anything deeper is refused before
#: the schema looks at it, so no check (nor an error message) recurses deeply.
MAX_DEPTH = 12


def _too_deep(data: object) -> list[str | int] | None:
    """The path to the first container deeper than :data:`MAX_DEPTH`, walked without
    recursion; None when there is none."""
    stack: list[tuple[object, list[str | int]]] = [(data, [])]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict | list):
            if len(path) >= MAX_DEPTH:
                return path
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((item, [*path, key]) for key, item in items)
    return None


# Keywords whose error messages, in jsonschema, ``repr`` the whole instance (a list of
# 100,000 games, say): the same checks with short messages (:func:`_message` words
# them for people). The enums and consts of the schema are text and whole numbers.


def _type(validator: Any, types: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    kinds = [types] if isinstance(types, str) else types
    if not any(validator.is_type(instance, kind) for kind in kinds):
        yield ValidationError(f"is not of type {', '.join(kinds)}")


def _max_items(validator: Any, most: int, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "array") and len(instance) > most:
        yield ValidationError(f"has more than {most} items")


def _max_properties(
    validator: Any, most: int, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if validator.is_type(instance, "object") and len(instance) > most:
        yield ValidationError(f"has more than {most} properties")


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


def _enum(validator: Any, enums: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not any(_same(instance, each) for each in enums):
        yield ValidationError("is not one of the allowed values")


def _const(validator: Any, const: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not _same(instance, const):
        yield ValidationError("is not the expected value")


_Validator = validators.extend(
    Draft202012Validator,
    {
        "type": _type,
        "maxItems": _max_items,
        "maxProperties": _max_properties,
        "enum": _enum,
        "const": _const,
    },
)
_Validator.check_schema(LEAGUE_SCHEMA)
_VALIDATOR = _Validator(LEAGUE_SCHEMA, format_checker=formats)

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


def where(path: deque[str | int] | list[str | int]) -> str:
    """``games[3].hands[12].number`` for the path ``games, 3, hands, 12, number``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _message(error: ValidationError) -> str:
    custom = error.schema.get("x-messages", {}) if isinstance(error.schema, dict) else {}
    got = f" (got {_shown(error.instance)})"
    if error.validator in custom:
        return custom[error.validator] + got
    value = error.validator_value
    match error.validator:
        case "type":
            kinds = [value] if isinstance(value, str) else list(value)
            return "must be " + " or ".join(_TYPE_NAMES[k] for k in kinds) + got
        case "minimum":
            return f"must be at least {value}{got}"
        case "maximum":
            return f"must be at most {value}{got}"
        case "maxLength":
            return f"can have at most {value} characters"
        case "maxItems":
            return f"can hold at most {value:,} items (got {len(error.instance):,})"
        case "maxProperties":
            return f"can hold at most {value} keys"
        case "required":
            return error.message.replace("is a required property", "is required")
        case "additionalProperties":
            extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
            return f"unexpected key {_shown(extra[0])}" if extra else error.message
        case "enum":
            return "must be one of " + ", ".join(map(str, value)) + got
        case "const":
            return f"must be {_shown(value)}{got}"
    return error.message


def schema_error(data: object) -> RuleError | None:
    """The problem (best guess at the most telling one) of a file against
    :data:`LEAGUE_SCHEMA`, or None when the file has the declared shape."""
    deep = _too_deep(data)
    if deep is not None:
        field = str(deep[0]) if deep else "format"
        return RuleError(
            f"{where(deep)}: is nested too deeply (lists or objects in lists or objects)", field
        )
    error = best_match(_VALIDATOR.iter_errors(data))
    if error is None:
        return None
    path = list(error.absolute_path)
    if error.validator in ("required", "additionalProperties") and not path:
        field = "format"
    else:
        field = str(path[0]) if path else "format"
    at = where(path)
    message = _message(error)
    return RuleError(f"{at}: {message}" if at else message, field)


#: The largest backup the pages and the API take (a league of several thousand games fits
#: comfortably; bigger ones go through ``manage.py import_league``).
MAX_IMPORT_BYTES = 20 * 1024 * 1024


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def load_backup(raw: bytes | str) -> object:
    """The JSON of a backup file; :class:`RuleError` (field ``file``) when it is not
    UTF-8 JSON, holds ``NaN``/``Infinity``, a number of thousands of digits, or nests
    too deeply for anything but a hostile file."""
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw.removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise RuleError(
            "This is not a text file: choose the .json file of a league backup.", "file"
        ) from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise RuleError(
            f"This file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}). "
            "Choose the .json file of a league backup, unedited.",
            "file",
        ) from None
    except RecursionError:
        raise RuleError(
            "This file nests lists or objects too deeply to be a league backup.", "file"
        ) from None
    except ValueError as exc:
        raise RuleError(f"This file is not a league backup: {exc}.", "file") from None
