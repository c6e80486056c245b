"""Reading a league backup file: what the page and the API check of an upload before
queueing its import (:func:`upload_check`), and the file's JSON parsed with every
problem a :class:`games.RuleError` on ``file`` (:func:`load_backup`). What the parsed
data may hold is :mod:`.schema`'s."""

from __future__ import annotations

import codecs
import json

from django.utils.translation import gettext, gettext_noop

from games import RuleError

#: The largest backup the pages and the API take (a league of several thousand games fits
#: comfortably; bigger ones go through ``manage.py import_league``).
MAX_IMPORT_BYTES = 20 * 1024 * 1024


_NOT_TEXT = gettext_noop("This is not a text file: choose the .json file of a league backup.")


def upload_check(raw: bytes) -> None:
    """What the page and the API check of a backup before they queue its import, with
    no more work than reading its start: text (UTF-8) beginning a JSON object.
    :class:`RuleError` (field ``file``) otherwise. The rest needs the whole file parsed
    and checked (:func:`load_backup`, the schema, the games), which the background
    worker does: a web process never holds a parsed file."""
    head = codecs.getincrementaldecoder("utf-8-sig")()
    try:
        start = head.decode(raw[:4096]).lstrip()
    except UnicodeDecodeError:
        raise RuleError(gettext(_NOT_TEXT), "file") from None
    if not start.startswith("{"):
        raise RuleError(
            gettext(
                "This file does not hold a JSON object, so it is not a league backup: choose "
                "the .json file downloaded from a league page."
            ),
            "file",
        )


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def load_backup(raw: bytes | str) -> object:
    """The JSON of a backup file; :class:`RuleError` (field ``file``) when it is not
    UTF-8 JSON, holds ``NaN``/``Infinity``, a number of thousands of digits, or nests
    too deeply for anything but a hostile file."""
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw.removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise RuleError(_NOT_TEXT, "file") from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise RuleError(
            gettext(
                "This file is not valid JSON (line %(line)s, column %(column)s: %(problem)s). "
                "Choose the .json file of a league backup, unedited."
            )
            % {"line": exc.lineno, "column": exc.colno, "problem": exc.msg},
            "file",
        ) from None
    except RecursionError:
        raise RuleError(
            gettext("This file nests lists or objects too deeply to be a league backup."),
            "file",
        ) from None
    except ValueError as exc:
        raise RuleError(
            gettext("This file is not a league backup: %(problem)s.") % {"problem": exc}, "file"
        ) from None
