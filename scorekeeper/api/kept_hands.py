"""A game's hands in JSON, kept by what they are made of (``scorekeeper.kept``: in the
cache every process shares, with the process's memory in front).

Just after a hand, a game's answer is made anew for its new version; its hands are the
answer's bulk, and all but the newest (or, after a correction, all before it) are what
the last version showed. The database digests each hand row (its stored input and
outcome); the hands are kept rendered, in blocks of :data:`BLOCK`, under the digest of
the block's rows, so a block is read, decoded and rendered again only when a row in it
changed: a new hand reads the hands of its own block, however long the game, and a block
one worker rendered the others find. A key names the content, never a game or version:
nothing kept can be stale.

The answer is the same JSON as one rendered whole, not always the same bytes: on
PostgreSQL a stored hand's keys come back in ``jsonb``'s own order, and a hand read
back is rendered with its keys in that order.

House reading: a read does not know the version before its own (only a write does), so
the blocks are found by their content, not built from the list the version before kept
(as the sheet's rows are, ``selectors.rows.keep_after_write``): the API's hand POST, the
busiest write, keeps nothing for the reads.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from scorekeeper.api.game_serializers import hand_object
from scorekeeper.kept import keep_many, kept_many
from scorekeeper.models import Game
from scorekeeper.selectors.games import hand_digests, hands_numbered

#: Hands kept together under one key: a new hand reads and renders at most this many
#: again, and a 1,000-hand game keeps 50 entries (5–15 KB each) in the cache.
BLOCK = 20
#: The shape of the hands kept (a new one when :func:`hand_object` changes).
SHAPE = 1

#: How a value becomes JSON: the view's renderer, the same for every part of an answer.
Render = Callable[[Any], bytes]
Row = tuple[int, int, str]


def _block_key(rows: list[Row]) -> str:
    made_of = "".join(f"{number}:{revision}:{stored};" for number, revision, stored in rows)
    return f"api:hands:{SHAPE}:{hashlib.blake2b(made_of.encode(), digest_size=16).hexdigest()}"


def _blocks(rows: list[Row]) -> dict[str, list[Row]]:
    """The rows in blocks of hand numbers, by key, oldest first."""
    by_block: dict[int, list[Row]] = {}
    for row in rows:
        by_block.setdefault((row[0] - 1) // BLOCK, []).append(row)
    return {_block_key(block): block for block in by_block.values()}


def kept_hands_json(game: Game, render: Render, *, last: int | None = None) -> bytes | None:
    """The JSON list of the game's hand objects (every hand, or its ``last``), oldest
    first, as ``render`` makes it of :func:`hand_object`'s: the blocks unchanged since
    they were last rendered come from the cache, the others are read (one query),
    rendered and kept. None when a hand has no stored outcome (the engine must fold the
    game) or was undone while this read."""
    blocks = _blocks(hand_digests(game, last=last))
    kept: dict[str, bytes] = kept_many(list(blocks))
    missing = [row[0] for key, block in blocks.items() if key not in kept for row in block]
    if missing:
        read = hands_numbered(game, missing)
        if read is None or len(read) != len(missing):
            return None
        made = {hand.number: hand_object(hand) for hand, _ in read}
        # Each block without its list's brackets. Kept under the digests of the rows as
        # read now (a write in between changes them): a key always names what it holds.
        rendered = {
            key: render([made[number] for number, _, _ in block])[1:-1]
            for key, block in _blocks([(h.number, h.revision, d) for h, d in read]).items()
        }
        keep_many(rendered)
        for key, block in blocks.items():
            if key not in kept:
                kept[key] = rendered.get(key) or render([made[n] for n, _, _ in block])[1:-1]
    list_separator = render([0, 0])[2:-2]  # "," (or ", " when not compact)
    return b"[" + list_separator.join(kept[key] for key in blocks) + b"]"


def object_json(data: dict[str, Any], render: Render, **rendered: bytes) -> bytes:
    """The JSON object of ``data`` as ``render`` makes it, with the values of the keys
    in ``rendered`` given already rendered (in ``data``'s order)."""
    parts = []
    for key, value in data.items():
        if key in rendered:
            parts.append(render({key: 0})[1:-2] + rendered[key])  # '"key":' and the value
        else:
            parts.append(render({key: value})[1:-1])
    return b"{" + render([0, 0])[2:-2].join(parts) + b"}"
