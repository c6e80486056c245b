"""The phones of bench/live_bench.py: one asyncio process, each phone doing what
``static/js/live.js`` and ``static/js/table-tools.js`` do, with ``static/js/backoff.js``'s
waits (their constants read from those files), over HTTP through nginx.

    python bench/live_phones.py BASE_URL [--no-backoff]

Each phone holds its game's event stream (``/events/<ticket>``) from its own loopback
address (127.1.x.y: nginx counts connections and polls per address, as it would count
each phone's). On the stream's ``hello`` it asks nothing when its sheet is current (and,
on a tools game, when the hello's ``r`` is ahead of the revision it shows, does what it
does on ``tools``); when behind, it asks for the live answer after a random moment up to
``JITTER_MS``. On ``change`` it asks for the rows ``from``..``to`` (the whole sheet
after a gap), one request at a time. On ``tools``, if behind, it takes the state the
event says (``s``) when it is for the version its tools show, waits for the live answer
on its way when it is for a later one (taking the event's if the answer's is older), and
otherwise fetches the tools, with the state's ``ETag``. The live answer's out-of-band
tools state is taken as the page takes it. When the stream breaks it reopens it after
the reconnection backoff and polls the live answer and (on tools games) the tools with
the polls' backoff, honouring ``Retry-After``. ``--no-backoff``: the polls of before
(every 2 s for the live answer, every 3 s for the tools, ``Retry-After`` ignored) and a
stream reopened after the server's ``retry`` (3 s).

A saved hand is posted as ``offline-sheet.js`` posts it (htmx from the outbox: the form's
fields, ``HX-Request``, the page's CSRF token, an ``Idempotency-Key``); that post is not
a write ``live.js`` waits for (it is sent from outside ``#sheet``), but while a hand of
the outbox waits ``offline-sheet.js`` holds back every request of the poller (its
``htmx:beforeRequest``): an event that comes before the answer asks for nothing, and the
answer brings the hand. A tools tap is
``table-tools.js``'s ``send``: a form POST to ``table/`` whose JSON answer is taken.

The bench drives it by JSON lines on stdin, each answered by a JSON line on stdout:
``open`` (phones: their streams opened), ``save``/``tap`` (one phone's request),
``current`` (until every phone shows the given versions/revisions), ``counts``,
``reset``, ``quit``.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import resource
import secrets
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "static" / "js"


def raise_fd_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


# -- the constants of the phones' JavaScript -----------------------------------------------


def _backoff_options(source: str, name: str) -> dict[str, int]:
    found = re.search(rf"var {name} = new Backoff\(\{{([^}}]*)\}}\)", source)
    if found is None:
        raise SystemExit(f"live_phones: no `var {name} = new Backoff({{…}})` in the JS")
    return {k: int(v) for k, v in re.findall(r"(\w+): (\d+)", found.group(1))}


def _number(source: str, name: str) -> int:
    found = re.search(rf"\b{name} = (\d+)", source)
    if found is None:
        raise SystemExit(f"live_phones: no `{name} = …` in the JS")
    return int(found.group(1))


def js_constants() -> dict[str, Any]:
    live = (JS / "live.js").read_text()
    tools = (JS / "table-tools.js").read_text()
    backoff = (JS / "backoff.js").read_text()
    defaults = {
        "base": int(re.search(r"this\.base = options\.base \|\| (\d+)", backoff).group(1)),  # type: ignore[union-attr]
        "cap": int(re.search(r"this\.cap = options\.cap \|\| (\d+)", backoff).group(1)),  # type: ignore[union-attr]
    }
    asgi = (ROOT / "scorekeeper" / "live" / "asgi.py").read_text()
    return {
        "defaults": defaults,
        "polls": _backoff_options(live, "polls"),
        "reconnects": _backoff_options(live, "reconnects"),
        "retries": _backoff_options(live, "retries"),
        "tool_polls": _backoff_options(tools, "polls"),
        "tool_retries": _backoff_options(tools, "retries"),
        "first_poll_step": _number(live, "FIRST_POLL_STEP"),
        "reconnect_grace_ms": _number(live, "RECONNECT_GRACE_MS"),
        "jitter_ms": _number(live, "JITTER_MS"),
        "hello_wait_ms": _number(live, "HELLO_WAIT_MS"),
        "retry_ms": _number(asgi, "RETRY_MS"),
        "told_wait_ms": _number(tools, "TOLD_WAIT_MS"),
    }


C = js_constants()


def refused(status: int) -> bool:
    """backoff.js's refused(): no answer (0), a 5xx, 429 or 408 is waited on."""
    return not status or status >= 500 or status in (429, 408)


class Backoff:
    """backoff.js's Backoff, line for line (milliseconds)."""

    def __init__(self, rng: random.Random, **options: int) -> None:
        self.base = options.get("base") or C["defaults"]["base"]
        self.cap = options.get("cap") or C["defaults"]["cap"]
        self.quiet_cap = options.get("quietCap") or self.cap
        self.random = rng.random
        self.step = 0
        self.failing = False
        self.floor = 0.0

    def ceiling(self) -> float:
        cap = self.cap if self.failing else self.quiet_cap
        return float(min(cap, self.base * 2**self.step))

    def delay(self) -> float:
        steady = self.step == 0 and not self.failing
        jitter = (
            self.base * (0.75 + 0.5 * self.random()) if steady else self.random() * self.ceiling()
        )
        wait = self.floor + jitter
        self.floor = 0
        return round(wait)

    def reset(self) -> None:
        self.step, self.failing, self.floor = 0, False, 0

    def start_from(self, step: int) -> None:
        self.step = max(self.step, step)

    def quiet(self, grow: bool) -> None:
        if self.failing or not grow:
            self.step = 0
        self.failing = False
        if grow and self.ceiling() < self.quiet_cap:
            self.step += 1

    def fail(self, retry_after: float | None = None) -> None:
        self.failing = True
        if self.ceiling() < self.cap:
            self.step += 1
        self.floor = retry_after if retry_after and retry_after > 0 else 0

    def after(self, status: int, retry_after: str | None, changed: bool, grow: bool) -> float:
        if changed:
            self.reset()
        elif refused(status):
            self.fail(retry_after_ms(retry_after))
        else:
            self.quiet(grow)
        return self.delay()


class Fixed:
    """The polls of before: a fixed beat, Retry-After not read (``--no-backoff``)."""

    def __init__(self, every_ms: int) -> None:
        self.every = every_ms

    def delay(self) -> float:
        return self.every

    def after(self, *_: Any) -> float:
        return self.every

    def reset(self) -> None: ...
    def start_from(self, step: int) -> None: ...
    def fail(self, retry_after: float | None = None) -> None: ...


def retry_after_ms(value: str | None) -> float | None:
    if value is None or not value.strip().isdigit():
        return None  # (an HTTP date: none of ours sends one)
    return int(value.strip()) * 1000


class Timer:
    """backoff.js's Timer on the event loop: ``run`` replaces any pending call."""

    def __init__(self) -> None:
        self.handle: asyncio.TimerHandle | None = None

    def run(self, fn: Any, ms: float) -> None:
        self.stop()

        def fire() -> None:
            self.handle = None
            fn()

        self.handle = asyncio.get_running_loop().call_later(ms / 1000, fire)

    def stop(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        self.handle = None

    def pending(self) -> bool:
        return self.handle is not None


# -- HTTP, one connection per request (as nginx is the one that keeps connections) ---------

HOST = ""
PORT = 0
COUNTS: Counter[str] = Counter()
NO_BACKOFF = False


async def http(
    phone: Phone, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    """One request; status 0 when it got no answer."""
    try:
        reader, writer = await asyncio.open_connection(HOST, PORT, local_addr=(phone.addr, 0))
    except OSError:
        return 0, {}, b""
    try:
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{PORT}", "Connection: close",
                f"Cookie: {phone.cookie}"]  # fmt: skip
        head += [f"{k}: {v}" for k, v in headers.items()]
        if body or method == "POST":
            head.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        raw = await reader.read()
    except OSError:
        return 0, {}, b""
    finally:
        writer.close()
    top, _, rest = raw.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split()[1])
    except (IndexError, ValueError):
        return 0, {}, b""
    said = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        said[name.strip().lower()] = value.strip()
    if said.get("transfer-encoding") == "chunked":
        out = b""
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0] or b"0", 16)
            if not size:
                break
            out, rest = out + rest[:size], rest[size + 2 :]
        rest = out
    return status, said, rest


POLLER = re.compile(rb'<div id="sheet-poller"[^>]*>', re.S)
TOOLS_STATE = re.compile(rb'<div id="table-tools-state"[^>]*>\s*<script[^>]*>(.*?)</script>', re.S)


class Phone:
    """One phone's sheet: what live.js and table-tools.js keep, and do."""

    def __init__(self, spec: dict[str, Any], index: int) -> None:
        self.game: int = spec["game"]
        self.ticket: str = spec["ticket"]
        self.cookie = f"sessionid={spec['session']}; csrftoken={spec['csrf']}"
        self.csrf: str = spec["csrf"]
        self.addr = f"127.1.{index // 250}.{index % 250 + 1}"
        self.shown: int = spec["version"]
        self.hx_get = f"/games/{self.game}/live/?v={spec['version']}&hand={spec['marker']}"
        self.has_tools: bool = spec["tools"]
        self.revision: int = spec.get("revision") or 0
        #: The version of the tools' state shown (the page's, as the page brings it).
        self.shown_tools_version: int = spec["version"]
        self.etag: str = spec.get("etag") or ""
        self.finished = False
        self.rng = random.Random(index)
        # live.js
        self.streaming = False
        self.stream: asyncio.Task[None] | None = None
        self.pending: dict[Any, Any] = {}
        self.busy = False
        #: A hand of its outbox on its way (offline-sheet.js holds the poller's requests).
        self.saving = False
        if NO_BACKOFF:
            self.polls: Any = Fixed(2000)
            self.reconnects: Any = Fixed(C["retry_ms"])
            self.tool_polls: Any = Fixed(3000)
        else:
            self.polls = Backoff(self.rng, **C["polls"])
            self.reconnects = Backoff(self.rng, **C["reconnects"])
            self.tool_polls = Backoff(self.rng, **C["tool_polls"])
        self.poll_timer, self.reconnect_timer, self.hello_timer = Timer(), Timer(), Timer()
        self.grace_timer = Timer()  # live.js's graceTimer
        #: live.js's askedAgain: an answer refused while streaming is asked for again.
        self.retries, self.retry_timer = Backoff(self.rng, **C["retries"]), Timer()
        #: table-tools.js's loadTold: a tools read the stream asked for, again if refused.
        self.tool_retries, self.tool_retry_timer = Backoff(self.rng, **C["tool_retries"]), Timer()
        # table-tools.js
        self.tools_busy = self.tools_again = False
        self.tool_timer = Timer()
        #: table-tools.js's toldState: (r, s) heard while the sheet was behind it.
        self.told_state: tuple[int, dict[str, Any]] | None = None
        self.told_timer = Timer()
        #: When the stream last said hello (monotonic), and when the sheet was last current.
        self.hello_at = 0.0
        #: The answer pushed with the last hand's event: (version, hand, its HTML).
        self.pushed: tuple[int, int, bytes] | None = None
        #: When it last showed a newer version, a newer tools revision, a stream opened.
        self.shown_at = self.revision_at = self.stream_at = 0.0

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        TASKS.add(task)
        task.add_done_callback(TASKS.discard)

    # ---- the stream ----------------------------------------------------------------

    def connect(self) -> None:
        if self.stream is not None and not self.stream.done():
            return
        if self.reconnect_timer.pending():
            self.keep_polling()
            return
        self.stream = asyncio.get_running_loop().create_task(self.hold())

    async def hold(self) -> None:
        async with GATE:
            try:
                reader, writer = await asyncio.open_connection(
                    HOST, PORT, local_addr=(self.addr, 0)
                )
                writer.write(
                    f"GET /events/{self.ticket}?host={HOST}:{PORT} HTTP/1.1\r\n"
                    f"Host: {HOST}:{PORT}\r\n"
                    f"Accept: text/event-stream\r\nCookie: {self.cookie}\r\n\r\n".encode()
                )
                head = await reader.readuntil(b"\r\n\r\n")
            except (OSError, asyncio.IncompleteReadError):
                COUNTS["stream failed"] += 1
                self.broken()
                return
        status = head.split(b"\r\n", 1)[0]
        if b" 200 " not in status:
            COUNTS[f"stream refused {status.split()[1].decode()}"] += 1
            writer.close()
            self.broken()
            return
        COUNTS["stream opened"] += 1
        self.streaming = True
        self.stream_at = time.monotonic()
        self.poll_timer.stop()
        self.tool_timer.stop()
        self.hello_timer.run(self.no_hello, C["hello_wait_ms"])
        buffer = b""
        try:
            while True:  # chunked transfer encoding
                size_line = await reader.readline()
                if not size_line:
                    break
                size = int(size_line.strip() or b"0", 16)
                if size == 0:
                    break
                buffer += (await reader.readexactly(size + 2))[:-2]
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self.event(block)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()
        self.broken()

    def event(self, block: bytes) -> None:
        kind, lines = "message", []
        for line in block.split(b"\n"):
            if line.startswith(b"event:"):
                kind = line[6:].strip().decode()
            elif line.startswith(b"data:"):
                lines.append(line[5:].removeprefix(b" "))
        data = b"\n".join(lines)
        if kind == "hello":
            self.reconnects.reset()
            self.polls.reset()
            self.hello_at = time.monotonic()
            self.on_hello(data)
        elif kind == "tools":
            COUNTS["tools event"] += 1
            try:
                said = json.loads(data) or {}
            except ValueError:
                said = {}
            self.tools(said.get("r"), said.get("s"))
        elif kind == "change":
            self.on_change(data)
        elif kind == "answer":
            self.on_answer(data)

    def on_answer(self, data: bytes) -> None:
        """The live answer pushed with a hand's event (live.js's onAnswer)."""
        head, _, html = data.partition(b"\n")
        try:
            said = json.loads(head)
        except ValueError:
            said = {}
        ok = isinstance(said.get("v"), int) and isinstance(said.get("hand"), int) and html
        self.pushed = (said["v"], said["hand"], html) if ok else None
        COUNTS["answer pushed"] += 1
        COUNTS["answer pushed, bytes"] += len(data)

    def usable(self, latest: int, first: int | None) -> bool:
        """live.js's usable(): the version after the one shown, for the hand in play."""
        if self.pushed is None or (self.pushed[0], self.pushed[1]) != (latest, first):
            return False
        hand = re.search(r"[?&]hand=([^&]*)", self.hx_get)
        return latest == self.shown + 1 and hand is not None and hand.group(1) == str(first)

    def broken(self) -> None:
        self.streaming = False
        self.hello_timer.stop()
        self.reconnects.fail()
        self.reconnect_timer.run(self.connect, self.reconnects.delay())
        if getattr(self.reconnects, "step", 2) <= 1:
            # live.js: nothing polls (nor the tools) while the first try is on its way.
            self.poll_timer.stop()
            self.grace_timer.run(self.grace_over, C["reconnect_grace_ms"])
            self.tool_timer.stop()
            return
        # A later try refused: a poll already waiting keeps its moment (live.js).
        self.grace_timer.stop()
        self.grace_over()

    def grace_over(self) -> None:
        if self.streaming:
            return
        self.polls.start_from(C["first_poll_step"])
        self.keep_polling()
        self.tools_keep_polling()

    def no_hello(self) -> None:
        self.refresh()
        self.tools(None)

    def on_hello(self, data: bytes) -> None:
        self.hello_timer.stop()
        try:
            said = json.loads(data) or {}
        except ValueError:
            said = {}
        v = said.get("v") if isinstance(said.get("v"), int) else None
        if v is not None and v <= self.shown:
            self.tools(said.get("r"), said.get("s"))
            return

        first = said.get("f") if isinstance(said.get("f"), int) else None

        def later() -> None:  # live.js: the rows from `f` on when one version behind
            if v is None:
                self.pending["whole"] = True
            elif v not in self.pending:
                self.pending[v] = first if v == self.shown + 1 else None
            self.ask()

        asyncio.get_running_loop().call_later(self.rng.random() * C["jitter_ms"] / 1000, later)

    def on_change(self, data: bytes) -> None:
        try:
            change = json.loads(data)
        except ValueError:
            return
        if not isinstance(change.get("v"), int):
            self.pending["whole"] = True
            self.tools(None)
        else:
            first = change.get("from")
            self.pending[change["v"]] = first if isinstance(first, int) else None
        self.ask()

    def ask(self) -> None:
        if self.busy or self.retry_timer.pending():
            return
        shown = latest = self.shown
        whole = bool(self.pending.get("whole"))
        first = None
        for k in self.pending:
            if k != "whole":
                latest = max(latest, k)
        if not whole and latest <= shown:
            self.pending = {}
            return
        for v in range(shown + 1, latest + 1):
            if whole:
                break
            if not isinstance(self.pending.get(v), int):
                whole = True
            else:
                first = self.pending[v] if first is None else min(first, self.pending[v])
        self.pending = {}
        if self.saving:  # offline-sheet.js's htmx:beforeRequest: not sent
            COUNTS["live not asked: its own save on its way"] += 1
            return
        if not whole and self.usable(latest, first):
            assert self.pushed is not None
            html, self.pushed = self.pushed[2], None
            self.take_live(html)
            if self.shown >= latest:
                COUNTS["live (pushed, not asked)"] += 1
                return
        url = self.hx_get + "&sse=1"
        if not whole:
            url += f"&from={first}&to={latest}"
        self.busy = True
        self.spawn(self._ask(url, "live (event)"))

    async def _ask(self, url: str, kind: str) -> None:
        try:
            status, headers = await self.get_live(url, kind)
            if self.streaming:
                self.asked_again(status, headers, url)
        finally:
            self.busy = False
            self.ask()

    def asked_again(self, status: int, headers: dict[str, str], url: str) -> None:
        """live.js's askedAgain: a refused answer (the rows it asked for, else the whole
        sheet) is asked for again after the refusals' backoff and Retry-After."""
        if not refused(status):
            self.retries.reset()
            return
        wait = self.retries.after(status, headers.get("retry-after"), False, False)
        rows = re.search(r"[?&]from=(\d+)&to=(\d+)", url)
        if rows and int(rows[2]) not in self.pending:
            self.pending[int(rows[2])] = int(rows[1])
        elif not rows:
            self.pending["whole"] = True
        COUNTS["live asked again after a refusal"] += 1
        self.retry_timer.run(self.ask, wait)

    async def get_live(self, url: str, kind: str) -> tuple[int, dict[str, str]]:
        status, headers, body = await http(
            self, "GET", url, {"HX-Request": "true", "HX-Current-URL": f"/games/{self.game}/"}
        )
        COUNTS[f"{kind} {status}"] += 1
        if status == 200:
            self.take_live(body)
        return status, headers

    def take_live(self, body: bytes) -> None:
        """A live answer (or the sheet a save answered): its poller and tools state."""
        poller = POLLER.search(body)
        if poller is not None:
            tag = poller.group(0)
            version = re.search(rb'data-version="(\d+)"', tag)
            hx_get = re.search(rb'hx-get="([^"]+)"', tag)
            if version is not None and int(version.group(1)) != self.shown:
                self.shown = int(version.group(1))
                self.shown_at = time.monotonic()
            if hx_get is not None:
                self.hx_get = hx_get.group(1).decode().replace("&amp;", "&")
            self.finished = b"every" not in (re.search(rb'hx-trigger="([^"]*)"', tag) or [b""])[0]
        state = TOOLS_STATE.search(body)
        if state is not None and self.has_tools:
            data = json.loads(state.group(1))
            if self.not_older(data):
                self.take_tools(data)
            self.tool_polls.reset()
        self.tools_keep_polling()

    # ---- the poll --------------------------------------------------------------------

    def keep_polling(self) -> None:
        if self.streaming or self.finished:
            self.poll_timer.stop()
            return
        if not self.poll_timer.pending():
            self.poll_timer.run(self.poll, self.polls.delay())

    def poll(self) -> None:
        if self.streaming or self.finished:
            return
        self.refresh()

    def refresh(self) -> None:
        self.spawn(self._refresh())

    async def _refresh(self) -> None:
        status, headers = await self.get_live(self.hx_get, "live (poll)")
        if self.streaming:
            return
        wait = self.polls.after(status, headers.get("retry-after"), status == 200, True)
        if not self.finished:
            self.poll_timer.run(self.poll, wait)
        else:
            self.poll_timer.stop()

    # ---- the tools (table-tools.js) --------------------------------------------------

    def not_older(self, data: dict[str, Any]) -> bool:
        v, r = data.get("version"), data.get("revision") or 0
        return (not isinstance(v, int) or v >= self.shown_tools_version) and r >= self.revision

    def take_tools(self, data: dict[str, Any]) -> None:
        if (data.get("revision") or 0) != self.revision:
            self.revision_at = time.monotonic()
        self.revision = data.get("revision") or 0
        self.etag = data.get("etag") or ""
        if isinstance(data.get("version"), int):
            self.shown_tools_version = data["version"]
        self.settle()

    def from_told(self, r: int, shared: dict[str, Any]) -> None:
        """table-tools.js's fromTold: the event's state taken (the leader's name is on
        the page: never missing here)."""
        COUNTS["tools taken from the event"] += 1
        self.take_tools({**shared, "revision": r, "etag": None})

    def settle(self) -> None:
        """table-tools.js's settle(): the event heard while behind, done with."""
        if self.told_state is None:
            return
        r, shared = self.told_state
        if r <= self.revision:
            self.told_state = None
            self.told_timer.stop()
            return
        if self.shown_tools_version < shared["version"] and self.shown < shared["version"]:
            return
        self.told_state = None
        self.told_timer.stop()
        if self.shown_tools_version == shared["version"]:
            self.from_told(r, shared)
        else:
            self.load_told()

    def tools(self, r: Any, shared: Any = None) -> None:
        """table-tools.js's told()."""
        if not self.has_tools:
            return
        if isinstance(r, int) and r <= self.revision:
            return
        if self.tapping:  # told() while its own tap is on its way: its answer is the state
            self.heard = max(self.heard or 0, r if isinstance(r, int) else 1 << 60)
            COUNTS["tools not asked: its own tap on its way"] += 1
            return
        said = (
            isinstance(r, int)
            and isinstance(shared, dict)
            and isinstance(shared.get("version"), int)
        )
        if said and shared["version"] == self.shown_tools_version:
            self.from_told(r, shared)
            return
        if said and shared["version"] > self.shown_tools_version and self.shown < shared["version"]:
            COUNTS["tools event: waiting for the live answer"] += 1
            if self.told_state is None or r > self.told_state[0]:
                self.told_state = (r, shared)

            def waited() -> None:
                COUNTS["tools asked: no live answer came"] += 1
                self.told_state = None
                self.load_told()

            self.told_timer.run(waited, C["told_wait_ms"])
            return
        self.load_told()

    def load_told(self) -> None:
        """table-tools.js's loadTold: the read again after a refusal, while streaming."""
        self.tool_retry_timer.stop()

        async def read() -> None:
            said = await self.load_tools("tools (event)")
            if said is None or not self.streaming:
                return
            status, retry_after, _changed = said
            if not refused(status):
                self.tool_retries.reset()
                return
            COUNTS["tools read again after a refusal"] += 1
            wait = self.tool_retries.after(status, retry_after, False, False)
            self.tool_retry_timer.run(self.load_told, wait)

        self.spawn(read())

    tapping = False
    heard: int | None = None

    async def load_tools(self, kind: str) -> tuple[int, str | None, bool] | None:
        if self.finished:
            COUNTS["tools not asked: the game is over"] += 1
            return None
        if self.tools_busy:
            self.tools_again = True
            return None
        self.tools_busy = True
        headers = {"Accept": "application/json"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        try:
            status, said, body = await http(self, "GET", f"/games/{self.game}/table/", headers)
            COUNTS[f"{kind} {status}"] += 1
            changed = False
            if status == 200:
                self.take_tools(json.loads(body))
                changed = True
            return status, said.get("retry-after"), changed
        finally:
            self.tools_busy = False
            if self.tools_again:
                self.tools_again = False
                self.spawn(self.load_tools(kind))

    def tools_keep_polling(self, wait: float | None = None) -> None:
        if not self.has_tools or self.streaming or self.finished:
            self.tool_timer.stop()
            return
        if wait is not None or not self.tool_timer.pending():
            self.tool_timer.run(
                self.tools_poll, wait if wait is not None else self.tool_polls.delay()
            )

    def tools_poll(self) -> None:
        if self.streaming:
            self.tools_keep_polling()
            return
        self.spawn(self._tools_poll())

    async def _tools_poll(self) -> None:
        said = await self.load_tools("tools (poll)")
        if said is None:
            self.tools_keep_polling()
            return
        status, retry_after, changed = said
        self.tools_keep_polling(self.tool_polls.after(status, retry_after, changed, True))

    # ---- what the bench asks of one phone -----------------------------------------------

    async def save(self, path: str, form: list[list[str]]) -> int:
        """offline-sheet.js's post(): the form from the outbox, by htmx."""
        key = secrets.token_hex(16)
        fields = [*form, ["csrfmiddlewaretoken", self.csrf], ["idempotency_key", key]]
        # The version the page shows as it is sent: the answer is then the saved hand's
        # rows alone, the same kept answer the other phones ask for after its event.
        fields.append(["shown", str(self.shown)])
        body = urlencode([(k, v) for k, v in fields])
        headers = {
            "HX-Request": "true",
            "HX-Current-URL": f"/games/{self.game}/",
            "HX-Target": "sheet",
            "X-CSRFToken": self.csrf,
            "Idempotency-Key": key,
            "Content-Type": "application/x-www-form-urlencoded",
        }
        self.saving = True
        try:
            status, _, answer = await http(self, "POST", path, headers, body.encode())
        finally:
            self.saving = False
        COUNTS[f"save {status}"] += 1
        if status == 200:
            self.take_live(answer)  # swapSheet: the sheet (its poller) and the tools state
        return status

    async def tap(self, form: dict[str, str]) -> int:
        """table-tools.js's send(): the action, its JSON answer taken."""
        headers = {
            "X-CSRFToken": self.csrf,
            "Accept": "application/json",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        path = f"/games/{self.game}/table/"
        self.tapping = True
        try:
            status, _, answer = await http(self, "POST", path, headers, urlencode(form).encode())
        finally:
            self.tapping = False
        COUNTS[f"tap {status}"] += 1
        if status == 200:
            self.take_tools(json.loads(answer))
            if self.heard is not None and self.heard > self.revision:
                self.spawn(self.load_tools("tools (event)"))
        self.heard = None
        return status


TASKS: set[asyncio.Task[Any]] = set()
GATE: asyncio.Semaphore


async def main(base: str) -> None:
    global HOST, PORT, GATE
    parts = urlsplit(base)
    HOST, PORT = parts.hostname or "127.0.0.1", parts.port or 80
    GATE = asyncio.Semaphore(200)  # streams being opened at once (the head read)
    phones: list[Phone] = []
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def say(what: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(what) + "\n")
        sys.stdout.flush()

    while True:
        line = (await reader.readline()).decode().strip()
        if not line:
            return
        command = json.loads(line)
        do = command["do"]
        if do == "open":
            started = time.monotonic()
            new = [Phone(spec, len(phones) + i) for i, spec in enumerate(command["phones"])]
            phones.extend(new)
            for phone in new:
                phone.connect()
            while time.monotonic() - started < command.get("timeout", 120):
                if all(p.hello_at for p in new):
                    break
                await asyncio.sleep(0.1)
            say(
                {
                    "open": sum(1 for p in new if p.streaming),
                    "of": len(new),
                    "seconds": round(time.monotonic() - started, 2),
                    "counts": dict(COUNTS),
                }
            )
        elif do in ("save", "tap"):
            phone = phones[command["phone"]]
            if do == "save":
                status = await phone.save(command["path"], command["form"])
            else:
                status = await phone.tap(command["form"])
            say({"status": status, "shown": phone.shown, "revision": phone.revision})
        elif do == "current":
            # Until every phone of the given games shows their version (and tools
            # revision) and, if asked, holds its stream again: when each got there.
            want_v = {int(k): v for k, v in command.get("versions", {}).items()}
            want_r = {int(k): v for k, v in command.get("revisions", {}).items()}
            streaming = command.get("streaming", False)
            watched = [
                p for p in phones if p.game in want_v or p.game in want_r or command.get("all")
            ]
            since = command.get("since", time.monotonic())
            deadline = time.monotonic() + command.get("timeout", 60)
            at: dict[int, float] = {}
            while time.monotonic() < deadline and len(at) < len(watched):
                now = time.monotonic()
                for i, p in enumerate(watched):
                    if i in at:
                        continue
                    ok = p.shown >= want_v.get(p.game, 0) and (
                        not p.has_tools or p.revision >= want_r.get(p.game, 0)
                    )
                    if ok and (not streaming or p.streaming):
                        # When it got there (already before: its last change's moment).
                        got = max(p.shown_at if p.game in want_v else 0.0,
                                  p.revision_at if p.has_tools and p.game in want_r else 0.0,
                                  p.stream_at if streaming else 0.0)  # fmt: skip
                        at[i] = max(min(got, now) - since, 0.0)
                await asyncio.sleep(0.01)
            times = sorted(at.values())
            say({"phones": len(watched), "current": len(at),
                 "last": times[-1] if times else None,
                 "median": times[len(times) // 2] if times else None,
                 "streaming": sum(1 for p in phones if p.streaming),
                 "late": [[p.game, p.shown, p.revision, p.streaming]
                          for i, p in enumerate(watched) if i not in at][:5]})  # fmt: skip
        elif do == "counts":
            say(
                {
                    "counts": dict(COUNTS),
                    "cpu": time.process_time(),
                    "streaming": sum(1 for p in phones if p.streaming),
                    "phones": len(phones),
                }
            )
        elif do == "reset":
            COUNTS.clear()
            say({"ok": True})
        elif do == "quit":
            return


if __name__ == "__main__":
    NO_BACKOFF = "--no-backoff" in sys.argv[2:]
    raise_fd_limit(20000)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(main(sys.argv[1]))
