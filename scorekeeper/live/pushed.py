"""The live answer pushed on the stream with a hand's event, so that a phone that is
current asks Django nothing for that hand.

The phone that saves a hand makes the live answer of the new version inside the hand's
transaction and keeps it in the shared cache (``web.games._record_and_answer``): the
answer every phone of its kind at the version before gets from ``games/<pk>/live/``
with ``from``/``to`` (the rows from the hand on), or the whole grid. When the hand's
event comes, this process reads it once per game — one ``get_many`` of the shared
cache for every kind of phone its streams of that game are, in a thread of its own —
and sends it as an ``answer`` event just before the ``change`` event, to the streams of
the kind it was made for only. The key is the one Django's ``{% cache %}`` gives it
(:func:`key_of`, :func:`fragment_keys`): made of the version and its stamp, what the
viewer may do (from the stream's ticket, signed), the hand in play, the rows and the
host. What is not kept (a hand saved through the API, an answer expired or too large)
sends no ``answer``: the phone asks, as before. The phone takes the answer only when
it shows the version before and its entry is for the hand the answer was made for
(``static/js/live.js``); any other phone asks, as before."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

log = logging.getLogger("scorekeeper.live")

#: Larger answers are not pushed (the phone asks): a stream's queue holds a few.
MAX_BYTES = 48 * 1024

#: The name of the answer's fragment: ``games/_live.html`` keeps it as ``{% cache …
#: live-answer key %}``, and ``web.live_answer.keep_new`` under the same key.
FRAGMENT = "live-answer"

#: The variant of answer a stream can use: (ticket kind, joined by a link, host, the
#: page's language).
Variant = tuple[str, bool, str, str]


def key_of(
    *,
    version: str,
    tools: int | str,
    flags: tuple[bool, bool, bool, bool],
    every: bool,
    hand: str,
    first: str,
    to: str,
    host: str,
    language: str,
) -> str:
    """The live answer's key from its parts (``web.live_answer.answer_key``, and here to
    find the answer to push): an answer made in German goes to German pages only."""
    parts = [version, tools, *(int(f) for f in flags), int(every), hand, first, to, host, language]
    return ":".join(str(p) for p in parts)


def fragment_keys(
    game: int,
    version: int,
    stamp: str,
    first: int,
    tools: int | None,
    variant: Variant,
) -> list[str]:
    """The shared cache's keys under which the answer a stream of ``variant`` can use
    may be kept, best first: the rows from ``first`` on, then the whole grid; with the
    tools' revision and without (only games that share tools key it)."""
    from django.core.cache.utils import make_template_fragment_key

    kind, guest, host, language = variant
    from scorekeeper.selectors.access import pushed_flags

    flags = pushed_flags(kind, guest)
    if flags is None:
        return []
    made = []
    for rows in ((str(first), str(version)), ("", "")):
        for revision in ([tools] if tools is not None else []) + [""]:
            key = key_of(
                version=f"{game}:{version}:{stamp}",
                tools=revision,
                flags=flags,
                every=False,
                hand=str(first),
                first=rows[0],
                to=rows[1],
                host=host,
                language=language,
            )
            made.append(make_template_fragment_key(FRAGMENT, [key]))
    return made


def encode_answer(version: int, first: int, html: str) -> bytes | None:
    """One ``answer`` event: a line of JSON (``{"v": 9, "hand": 8}``: the version it
    brings and the hand it was made for), then the answer's HTML, one ``data:`` line
    per line; None when it cannot go (too large, or a carriage return, which the
    stream's framing would turn into a line break)."""
    if "\r" in html or len(html) > MAX_BYTES:
        return None
    head = json.dumps({"v": version, "hand": first}, separators=(",", ":"))
    lines = "".join(f"data: {line}\n" for line in re.split("\n", html))
    return f"event: answer\ndata: {head}\n{lines}\n".encode()


class Reader:
    """Reads kept answers from the shared cache, in one thread of its own that keeps
    its database connection open between hands (a read on a broken one is tried once
    more on a new one)."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-pushed")

    async def read(self, keys: Iterable[str]) -> dict[str, Any]:
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return {}
        return await self._run(_read, wanted)

    async def release(self) -> None:
        """Give its database connection back (the server stops)."""
        await self._run(_release)

    async def _run(self, call: Any, *args: Any) -> Any:
        from asgiref.sync import sync_to_async

        return await sync_to_async(call, thread_sensitive=False, executor=self._pool)(*args)


def _read(keys: list[str]) -> dict[str, Any]:
    from django.core.cache import caches
    from django.db import connection

    try:
        return caches["versions"].get_many(keys)
    except Exception:
        connection.close()  # (the database restarted, the connection dropped…)
        return caches["versions"].get_many(keys)


def _release() -> None:
    from django.db import connection

    connection.close()


class Pusher:
    """Sends each hand's answer to the streams that can use it, game by game in the
    order the changes were heard (a game's next change waits for the one before)."""

    def __init__(self, reader: Reader | None = None) -> None:
        self.reader = reader or Reader()
        self._tails: dict[int, asyncio.Task[None]] = {}

    def push(
        self, hub: Any, game: int, version: int, first: int, stamp: str, tools: int | None
    ) -> None:
        before = self._tails.get(game)
        self._chain(game, self._push(hub, game, version, first, stamp, tools, before))

    def waiting(self, game: int) -> bool:
        """Whether a change of ``game`` is still on its way out."""
        return game in self._tails

    def publish(self, hub: Any, game: int, message: bytes) -> None:
        """``message`` to the streams of ``game`` after the changes on their way out."""
        before = self._tails.get(game)

        async def after() -> None:
            if before is not None:
                await asyncio.gather(before, return_exceptions=True)
            hub.publish(game, message)

        self._chain(game, after())

    def _chain(self, game: int, step: Any) -> None:
        task = asyncio.get_running_loop().create_task(step)
        self._tails[game] = task
        task.add_done_callback(lambda done: self._done(game, done))

    def _done(self, game: int, task: asyncio.Task[None]) -> None:
        if self._tails.get(game) is task:
            del self._tails[game]

    async def idle(self) -> None:
        """Wait until every change heard so far went out (tests)."""
        while self._tails:
            await asyncio.gather(*self._tails.values(), return_exceptions=True)

    async def _push(
        self,
        hub: Any,
        game: int,
        version: int,
        first: int,
        stamp: str,
        tools: int | None,
        before: asyncio.Task[None] | None,
    ) -> None:
        from scorekeeper.live.hub import encode

        if before is not None:
            await asyncio.gather(before, return_exceptions=True)
        change = encode(version, first)
        answers: dict[Variant, bytes | None] = {}
        try:
            variants = {s.variant for s in hub.subscribers(game)}
            keys = {v: fragment_keys(game, version, stamp, first, tools, v) for v in variants}
            found = await self.reader.read(k for ks in keys.values() for k in ks)
            for variant, tried in keys.items():
                html = next((found[k] for k in tried if isinstance(found.get(k), str)), None)
                answers[variant] = encode_answer(version, first, html) if html else None
        except Exception as exc:  # the database is away…: the event alone, the phones ask
            log.warning("live: could not read a kept answer (%s)", exc)
            answers = {}
        for subscriber in hub.subscribers(game):
            answer = answers.get(subscriber.variant)
            if answer is not None:
                subscriber.put(answer)
            subscriber.put(change)
