"""The secrets that ride in addresses, kept out of every log line.

A join link's token (``/join/<token>/``), a published result's (``/r/<token>/``), an
event stream's ticket (``/events/<ticket>``; ``/events/health`` is no secret), a
password-reset link's token (``…/reset/<uidb64>/<token>/``) and any query value whose
name speaks of one (``?invite=CODE``, ``?token=``, ``?ticket=``, ``?key=``…) each grant
what a password would. Django's request logger names the path of every 4xx and 5xx
(``Not Found: /join/…/``), gunicorn's access log every request line and referrer, and
uvicorn at its trace level a request's whole scope: :class:`HideSecrets`, a logging
filter on every handler (``LOGGING`` in the settings, ``logconfig_dict`` in
``gunicorn.conf.py``, the events server's ``live/logging.json``), replaces each with
``[hidden]`` before the line is written.

This module imports nothing from Django: gunicorn's master loads it before the app.
"""

from __future__ import annotations

import copy
import logging
import re

#: Characters that end a secret: the address's next part, or the quotes and blanks
#: around an address in a log line.
_END = r"/?#&;\s\"'"
_SECRETS = re.compile(
    rf"(?P<path>/(?:join|r|events)/)(?!health(?:[{_END}]|$))[^{_END}]+"
    rf"|(?P<reset>/reset/[^{_END}]+/)(?!set-password(?:[{_END}]|$))[^{_END}]+"
    rf"|(?P<query>[?&;][^={_END}]*(?:token|ticket|invite|key|secret|password)[^={_END}]*=)"
    rf"[^{_END}]+",
    re.IGNORECASE,
)
HIDDEN = "[hidden]"
#: gunicorn's atoms for request headers that are credentials in themselves, should an
#: access-log format name them.
_CREDENTIAL_HEADERS = frozenset({"{authorization}i", "{cookie}i", "{proxy-authorization}i"})


#: What every secret comes after: text without it (most of an access line's forty
#: atoms) is passed over at once.
_MARK = re.compile(r"/(?:join|r|events|reset)/|=", re.IGNORECASE)


def blot(text: str) -> str:
    """``text`` with the secrets an address may carry replaced by ``[hidden]``."""
    if _MARK.search(text) is None:
        return text
    return _SECRETS.sub(lambda m: (m["path"] or m["reset"] or m["query"]) + HIDDEN, text)


class HideSecrets(logging.Filter):
    """Blots the record's arguments (a tuple, or gunicorn's dict of access-log atoms,
    which structured formatters read), then whatever its message still shows; the
    request Django attaches (``%(request)s``) and the exception's text as well."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, dict):
            hidden = copy.copy(args)  # of its own class (gunicorn's answers "-" when missing)
            for name, value in args.items():
                if name in _CREDENTIAL_HEADERS:
                    hidden[name] = HIDDEN
                elif isinstance(value, str):
                    hidden[name] = blot(value)
            record.args = hidden
        elif isinstance(args, tuple):
            record.args = tuple(blot(a) if isinstance(a, str) else a for a in args)
        try:
            message = record.getMessage()
        except Exception:  # a malformed call: the handler reports it, without the values
            record.msg, record.args = blot(str(record.msg)), ()
        else:
            if blot(message) != message:  # in the message itself, or in another object
                record.msg, record.args = blot(message), ()
        request = getattr(record, "request", None)
        if request is not None and blot(shown := repr(request)) != shown:
            record.request = blot(shown)
        if record.exc_info and not record.exc_text:
            # What every formatter prints for the exception (it formats it only once).
            record.exc_text = blot(logging.Formatter().formatException(record.exc_info))
        return True
