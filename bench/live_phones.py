"""The phones of bench/live_bench.py: one process holding an event stream per phone.

    python bench/live_phones.py HOST PORT PLAN

PLAN is a JSON file of ``[game, ticket, version]``, one per phone. Each stream is read as
the browser's EventSource would, counting what arrives. The bench drives it through
stdin, one command a line, each answered with a JSON line on stdout:
``wait`` (every stream open), ``mark`` (counts back to zero), ``report`` (what each
phone got, and this process's CPU), ``storm`` (every stream closed and opened again at
once, as after an events-server restart: when each phone heard its game's version),
``quit``.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any


def raise_fd_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


class Phone:
    __slots__ = (
        "event_bytes", "events", "game", "heartbeats", "hello", "hello_at", "shown", "wire",
    )  # fmt: skip

    def __init__(self, game: int, shown: int) -> None:
        self.game = game
        #: The version its sheet shows: the page's, then each change's (it asks for it).
        self.shown = shown
        self.events = 0
        self.event_bytes = 0
        self.heartbeats = 0
        self.wire = 0
        #: The version the stream's first event said, and when it came (monotonic).
        self.hello: int | None = None
        self.hello_at = 0.0

    def reset(self) -> None:
        self.events = self.event_bytes = self.heartbeats = self.wire = 0


async def _hold(phone: Phone, host: str, port: int, path: str, gate: asyncio.Semaphore) -> None:
    async with gate:
        reader, writer = await asyncio.open_connection(host, port)
        request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n"
        writer.write(request.encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(head.decode(errors="replace"))
    buffer = b""
    while True:  # chunked transfer encoding
        size_line = await reader.readline()
        if not size_line:
            return
        size = int(size_line.strip() or b"0", 16)
        if size == 0:
            return
        data = (await reader.readexactly(size + 2))[:-2]
        phone.wire += len(size_line) + size + 2
        buffer += data
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            if block.startswith(b"event: ping"):
                phone.heartbeats += 1
            elif block.startswith(b"event: hello"):
                phone.hello = json.loads(block.rsplit(b"data: ", 1)[1])["v"]
                phone.hello_at = time.monotonic()
            elif block.startswith(b"event:"):
                phone.events += 1
                phone.event_bytes += len(block) + 2
                version = json.loads(block.rsplit(b"data: ", 1)[1])["v"]
                if isinstance(version, int):
                    phone.shown = max(phone.shown, version)


async def _client(host: str, port: int, plan_file: str) -> None:
    plan = json.loads(Path(plan_file).read_text())
    phones = [Phone(game, shown) for game, _, shown in plan]
    gate = asyncio.Semaphore(200)
    started = time.monotonic()

    def open_all() -> list[asyncio.Task[None]]:
        return [
            asyncio.create_task(_hold(phone, host, port, f"/events/{token}", gate))
            for phone, (_, token, _) in zip(phones, plan, strict=True)
        ]

    tasks = open_all()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def say(what: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(what) + "\n")
        sys.stdout.flush()

    while True:
        line = (await reader.readline()).decode().strip()
        failed = [t for t in tasks if t.done() and t.exception() is not None]
        if line == "wait":
            # Wait until every stream has its first bytes (the retry line), i.e. is open.
            while sum(1 for p in phones if p.wire) + len(failed) < len(phones):
                await asyncio.sleep(0.1)
                failed = [t for t in tasks if t.done() and t.exception() is not None]
            say(
                {
                    "open": sum(1 for p in phones if p.wire),
                    "failed": len(failed),
                    "error": repr(failed[0].exception()) if failed else "",
                    "seconds": round(time.monotonic() - started, 2),
                }
            )
        elif line == "mark":
            for phone in phones:
                phone.reset()
            say({"ok": True})
        elif line == "report":
            say(
                {
                    "phones": [
                        [p.game, p.events, p.event_bytes, p.heartbeats, p.wire] for p in phones
                    ],
                    "cpu": time.process_time(),
                }
            )
        elif line == "storm":
            # The events server was restarted: every phone opens its stream again at
            # once (as EventSource does), and hears which version its game is at.
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for phone in phones:
                phone.hello, phone.hello_at, phone.wire = None, 0.0, 0
            started = time.monotonic()
            tasks = open_all()
            deadline = started + 60
            while time.monotonic() < deadline:
                failed = [t for t in tasks if t.done() and t.exception() is not None]
                if sum(1 for p in phones if p.hello_at) + len(failed) >= len(phones):
                    break
                await asyncio.sleep(0.05)
            say(
                {
                    "started": started,
                    "failed": len(failed),
                    "phones": [[p.game, p.shown, p.hello, p.hello_at] for p in phones],
                }
            )
        elif line in ("quit", ""):
            return


if __name__ == "__main__":
    host, port, plan = sys.argv[1:4]
    raise_fd_limit(len(json.loads(Path(plan).read_text())) + 1000)
    asyncio.run(_client(host, int(port), plan))
