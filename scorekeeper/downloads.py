"""Downloads written while they are sent (``/accounts/data/``, a league's exports): the
text comes from a generator that reads the database a chunk at a time, and goes out in
pieces of :data:`CHUNK` bytes, so a worker's memory does not grow with the download.

The first piece is written before the response exists (:func:`started`): whatever fails
there (the first query, the head of the file) is still an ordinary error answer. A
failure after it cannot become an error status any more: the server cuts the
connection short, the chunked body never gets its last chunk, and the browser or client
reports the download as failed (a JSON file cut short does not parse either)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator

logger = logging.getLogger(__name__)

#: Bytes handed to the server at a time: a few hundred writes for a file of megabytes.
CHUNK = 64 * 1024


def in_chunks(pieces: Iterable[str], size: int | None = None) -> Iterator[bytes]:
    """``pieces`` of text as UTF-8, gathered into chunks of about ``size`` bytes
    (:data:`CHUNK` by default)."""
    size = size or CHUNK
    gathered: list[bytes] = []
    length = 0
    for piece in pieces:
        data = piece.encode("utf-8")
        gathered.append(data)
        length += len(data)
        if length >= size:
            yield b"".join(gathered)
            gathered, length = [], 0
    if gathered:
        yield b"".join(gathered)


def started(chunks: Iterator[bytes], what: str) -> Iterator[bytes]:
    """``chunks`` with its first one written now: an exception from it is raised here,
    before any response is made. One raised later is logged (``what`` names the
    download) and raised again, for the server to cut the connection."""
    first = next(chunks, b"")

    def rest() -> Iterator[bytes]:
        yield first
        try:
            yield from chunks
        except Exception:
            logger.exception("%s failed after it started; the download was cut short", what)
            raise

    return rest()
