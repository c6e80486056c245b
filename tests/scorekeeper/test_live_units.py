"""Live updates, the parts without a server: the capability a sheet hands its phone,
the hub that fans a change out to a game's streams, and the NOTIFY payload."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from django.core import signing
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.live import capability, notify
from scorekeeper.live.hub import HEARTBEAT, QUEUE_LIMIT, RESYNC, Hub, encode, hello
from scorekeeper.live.sources import deliver
from scorekeeper.live.versions import Versions
from tests import aio

# -- the capability ----------------------------------------------------------------------


def test_a_capability_names_its_game_and_viewer() -> None:
    token = capability.issue(42, "watch")
    assert capability.check(token) == capability.Capability(game=42, kind="watch")


def test_a_guests_capability_names_their_link() -> None:
    token = capability.issue(42, "score", invite=7)
    assert capability.check(token) == capability.Capability(game=42, kind="score", invite=7)
    # A link id that is not a positive whole number grants nothing, signed or not.
    for bad in (0, -1, "7", None, 1.5):
        forged = signing.dumps([42, "score", bad], salt=capability.SALT, compress=False)
        assert capability.check(forged) is None


@pytest.mark.parametrize(
    "token",
    ["", "nonsense", "42:watch", "x" * 300],
)
def test_garbage_grants_nothing(token: str) -> None:
    assert capability.check(token) is None


def test_an_altered_capability_grants_nothing() -> None:
    token = capability.issue(42, "watch")
    other = capability.issue(43, "watch")
    forged = other.split(":")[0] + ":" + ":".join(token.split(":")[1:])
    assert capability.check(forged) is None
    assert capability.check(token[:-2] + ("AA" if token[-2:] != "AA" else "BB")) is None


def test_a_capability_signed_for_something_else_grants_nothing() -> None:
    """A value signed with the same key for another purpose (another salt) is refused."""
    assert capability.check(signing.dumps([42, "watch"], compress=False)) is None
    assert capability.check(signing.dumps([42, "admin"], salt=capability.SALT)) is None
    assert capability.check(signing.dumps(["42", "watch"], salt=capability.SALT)) is None


def test_a_capability_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    token = capability.issue(7, "score")
    later = time.time() + capability.MAX_AGE + 5
    monkeypatch.setattr(time, "time", lambda: later)
    assert capability.check(token) is None


def test_an_unknown_viewer_kind_is_a_bug() -> None:
    with pytest.raises(ValueError, match="viewer kind"):
        capability.issue(1, "god")


@given(st.integers(min_value=1, max_value=2**53), st.sampled_from(capability.KINDS))
def test_every_capability_round_trips(game: int, kind: str) -> None:
    assert capability.check(capability.issue(game, kind)) == capability.Capability(game, kind)


# -- the NOTIFY payload ------------------------------------------------------------------


@given(
    st.integers(min_value=1, max_value=2**53),
    st.none() | st.integers(min_value=0, max_value=2**31),
    st.none() | st.integers(min_value=1, max_value=10_000),
)
def test_a_payload_round_trips(game: int, version: int | None, first: int | None) -> None:
    assert notify.parse(notify.payload(game, version, first)) == (game, version, first)


def test_a_change_names_its_versions_stamp() -> None:
    said = notify.payload(5, 9, 8, "1795844960.282524")
    assert notify.parse(said) == (5, 9, 8)
    assert notify.stamp_of(said) == "1795844960.282524"
    assert notify.stamp_of(notify.payload(5, 9, 8)) is None
    assert notify.payload(5, None, None, "1795844960.282524") == "5 - -"  # deleted: none


@pytest.mark.parametrize("text", ["", "1 2", "a b c", "- 1 2", "1 2 3 4", "1 2 3 x.y"])
def test_a_malformed_payload_is_ignored(text: str) -> None:
    assert notify.parse(text) is None
    assert deliver(Hub(), text) == 0


# -- the hub -----------------------------------------------------------------------------


def drain(subscriber: object) -> list[bytes | None]:
    queue = subscriber.queue  # type: ignore[attr-defined]
    out = []
    while not queue.empty():
        out.append(queue.get_nowait())
    return out


def test_a_change_reaches_every_stream_of_its_game_and_no_other() -> None:
    hub = Hub()
    phones = [hub.subscribe(1) for _ in range(4)]
    elsewhere = hub.subscribe(2)
    assert len(hub) == 5
    assert deliver(hub, notify.payload(1, 8, 7)) == 4
    for phone in phones:
        assert drain(phone) == [b'event: change\nid: 8\ndata: {"v":8,"from":7}\n\n']
    assert drain(elsewhere) == []


def test_a_closed_stream_hears_nothing_more() -> None:
    hub = Hub()
    phone, other = hub.subscribe(1), hub.subscribe(1)
    hub.unsubscribe(phone)
    hub.unsubscribe(phone)  # twice: harmless
    assert hub.publish(1, encode(3, 3)) == 1
    assert drain(phone) == []
    hub.unsubscribe(other)
    assert hub.games() == []
    assert len(hub) == 0
    assert hub.publish(1, encode(4, 4)) == 0


def test_revoking_a_link_ends_its_guests_streams_only() -> None:
    hub = Hub()
    owner = hub.subscribe(5)
    guest, other_guest = hub.subscribe(5, invite=70), hub.subscribe(5, invite=71)
    elsewhere = hub.subscribe(6, invite=72)  # another game's link: untouched
    assert hub.invites() == {70: 5, 71: 5, 72: 6}
    assert hub.revoke(5, 70) == 1
    assert guest.queue.get_nowait() == RESYNC  # its page asks for the sheet: a 404 now
    assert guest.queue.get_nowait() is None  # and the stream ends
    for untouched in (owner, other_guest, elsewhere):
        assert untouched.queue.empty()
    assert deliver(hub, notify.revoked_payload(5, 71)) == 1
    assert other_guest.queue.get_nowait() == RESYNC
    assert notify.parse_revoked("revoked 5 x") is None
    assert notify.parse("revoked 5 71") is None  # never taken for a change


def test_a_deleted_game_and_a_resync_say_so() -> None:
    hub = Hub()
    phone = hub.subscribe(5)
    deliver(hub, notify.payload(5, None, None))
    assert drain(phone) == [b'event: change\ndata: {"v":null,"from":null}\n\n'] == [RESYNC]
    assert hub.broadcast(RESYNC) == 1


def test_a_phone_that_does_not_read_is_told_to_resync_not_buffered() -> None:
    hub = Hub()
    phone = hub.subscribe(1)
    for version in range(QUEUE_LIMIT * 3):
        hub.publish(1, encode(version, 1))
    assert phone.queue.qsize() <= QUEUE_LIMIT
    assert RESYNC in drain(phone)


def test_silence_is_a_heartbeat_and_close_ends_the_stream() -> None:
    async def run() -> list[bytes | None]:
        hub = Hub()
        phone = hub.subscribe(1)
        got = [await phone.next(0.01)]
        hub.publish(1, encode(2, 2))
        got.append(await phone.next(5))
        hub.close_all()
        got.append(await phone.next(5))
        return got

    assert aio.run(run()) == [HEARTBEAT, encode(2, 2), None]


def test_many_streams_opening_together_read_their_versions_in_one_query() -> None:
    """A reconnect storm: 4,000 streams of 1,000 games ask the database once or twice,
    and a change heard meanwhile is not overwritten by an older read."""
    lookups: list[list[int]] = []

    async def lookup(games: list[int]) -> dict[int, tuple[int, int]]:
        lookups.append(games)
        await asyncio.sleep(0.01)
        return {g: (5, 2) for g in games if g != 13}  # 13 was deleted

    async def storm() -> list[int | None]:
        versions = Versions(lookup)
        answers = await asyncio.gather(*(versions.of(g % 1000 + 1) for g in range(4000)))
        assert len(lookups) == 1  # one query for the whole storm
        versions.heard(7, 6)
        versions.heard(7, 4)  # an older notification arriving late changes nothing
        return [*answers, await versions.of(7), await versions.of(13)]

    answers = aio.run(storm())
    assert sorted(lookups[0]) == list(range(1, 1001))
    assert answers[0] == 5
    assert answers[12] is None
    assert answers[-2:] == [6, None]
    assert len(lookups) == 2  # the deleted game is asked again, alone
    assert lookups[1] == [13]


def test_a_failing_database_leaves_the_version_unknown() -> None:
    async def lookup(games: list[int]) -> dict[int, tuple[int, int]]:
        raise OSError("the database is away")

    assert aio.run(Versions(lookup).of(3)) is None


def test_a_streams_first_event_says_its_games_version() -> None:
    assert hello(8) == b'event: hello\ndata: {"v":8}\n\n'
    assert hello(None) == b'event: hello\ndata: {"v":null}\n\n'


def test_the_first_event_says_the_table_tools_revision_too() -> None:
    assert hello(8, 3) == b'event: hello\ndata: {"v":8,"r":3}\n\n'

    async def lookup(games: list[int]) -> dict[int, tuple[int, int]]:
        return dict.fromkeys(games, (5, 2))

    async def seen() -> list[int | None]:
        versions = Versions(lookup)
        await versions.of(4)
        before = versions.tools_of(4)
        versions.heard_tools(4, 3)  # a tap on the tools, heard
        versions.heard_tools(4, 1)  # an older one arriving late changes nothing
        return [before, versions.tools_of(4), versions.tools_of(5)]

    assert aio.run(seen()) == [2, 3, None]


def test_the_first_event_says_the_first_hand_of_the_change_it_heard() -> None:
    """A phone one version behind when its stream reopens asks for the rows from that
    hand on: the answer the phones that heard the change share (kept, often pushed)."""
    assert hello(8, 3, 6) == b'event: hello\ndata: {"v":8,"r":3,"f":6}\n\n'
    assert hello(None, None, 6) == b'event: hello\ndata: {"v":null}\n\n'

    async def lookup(games: list[int]) -> dict[int, tuple[int, int]]:
        return dict.fromkeys(games, (5, 0))

    async def seen() -> list[int | None]:
        versions = Versions(lookup)
        await versions.of(4)
        read = versions.first_of(4)  # a version read from the database: not heard
        versions.heard(4, 6, 5)  # hand 5 recorded
        heard = versions.first_of(4)
        versions.heard(4, 5, 2)  # an older notification arriving late changes nothing
        late = versions.first_of(4)
        versions.heard(4, 7)  # a change that touched no hand (a rename)
        renamed = versions.first_of(4)
        versions.heard(4, 8, 3)
        versions.forget([4])
        return [read, heard, late, renamed, versions.first_of(4)]

    assert aio.run(seen()) == [None, 5, 5, None, None]


def test_a_stream_opening_while_the_server_stops_ends_at_once() -> None:
    """Once the process is stopping, a stream that opens (its request already read, a
    guest's link being checked) is not left open for the shutdown's timeout to cut."""

    async def run() -> list[bytes | None]:
        hub = Hub()
        hub.close_all()
        late = hub.subscribe(1)
        got = [await late.next(5)]
        hub.reopen()  # started anew: streams stay open again
        again = hub.subscribe(1)
        got.append(await again.next(0.01))
        return got

    assert aio.run(run()) == [None, HEARTBEAT]


# -- the answer pushed with a hand's event -------------------------------------------------


def test_a_pushed_answer_is_one_event_of_plain_data_lines() -> None:
    from scorekeeper.live.pushed import MAX_BYTES, encode_answer

    said = encode_answer(9, 8, '<div id="a">\n  one\n</div>\n')
    assert said == (
        b'event: answer\ndata: {"v":9,"hand":8}\ndata: <div id="a">\n'
        b"data:   one\ndata: </div>\ndata: \n\n"
    )
    # What the stream's framing would change, or a queue should not hold, is not pushed:
    # the phone asks, as before.
    assert encode_answer(9, 8, "one\r\ntwo") is None
    assert encode_answer(9, 8, "x" * (MAX_BYTES + 1)) is None


def test_only_the_owner_and_guests_are_pushed_answers() -> None:
    from scorekeeper.live.pushed import fragment_keys

    assert fragment_keys(5, 9, "1.5", 8, 0, ("owner", False, "h", "en"))
    assert fragment_keys(5, 9, "1.5", 8, None, ("score", True, "h", "en"))
    assert fragment_keys(5, 9, "1.5", 8, None, ("watch", True, "h", "en"))
    for kind in ("manage", "score", "watch"):  # accounts whose access may end meanwhile
        assert fragment_keys(5, 9, "1.5", 8, 0, (kind, False, "h", "en")) == []


def test_an_ended_stream_is_sent_nothing_more() -> None:
    hub = Hub()
    ended, open_ = hub.subscribe(3, 71, ("watch", True, "h", "en")), hub.subscribe(3)
    hub.revoke(3, 71)
    assert hub.subscribers(3) == [open_]
    ended.put(b"event: answer\ndata: x\n\n")
    assert ended.queue.qsize() == 2  # the resync and the end, nothing after


def test_a_change_read_with_its_answer_keeps_its_place_before_the_next() -> None:
    """The kept answer is read in a thread: a change heard meanwhile (the game deleted)
    waits for it, and a read that fails sends the event alone."""
    from scorekeeper.live.pushed import Pusher, encode_answer

    class SlowReader:
        def __init__(self, fails: bool) -> None:
            self.fails = fails

        async def read(self, keys: Any) -> dict[str, Any]:
            wanted = list(keys)
            await asyncio.sleep(0.05)
            if self.fails:
                raise OSError("the database is away")
            return dict.fromkeys(wanted[:1], "<p>hand 8</p>")

    async def heard(fails: bool) -> list[bytes | None]:
        hub, pusher = Hub(), Pusher(SlowReader(fails))  # type: ignore[arg-type]
        phone = hub.subscribe(5, None, ("owner", False, "h", "en"))
        deliver(hub, notify.payload(5, 9, 8, "1795844960.5"), pusher=pusher)
        deliver(hub, notify.payload(5, None, None), pusher=pusher)
        await pusher.idle()
        phone.close()
        return [await phone.next(1) for _ in range(phone.queue.qsize())]

    assert aio.run(heard(False)) == [
        encode_answer(9, 8, "<p>hand 8</p>"),
        encode(9, 8),
        encode(None, None),
        None,
    ]
    assert aio.run(heard(True)) == [encode(9, 8), encode(None, None), None]


def test_sqlites_poll_announces_a_change_made_after_a_streams_hello_was_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On SQLite the events server compares versions once a second: a game whose stream
    opened (its hello said version 2) and changed before the poll's first round that
    reads it is announced, not taken as where the game was (the phone stayed behind)."""
    from scorekeeper.live import sources

    async def read(query: Any, *args: Any) -> Any:
        return {7: 3}, [], {7: 0}  # (versions, revoked links, tools revisions)

    monkeypatch.setattr(sources, "orm", read)

    async def first_messages() -> list[bytes]:
        hub = Hub()
        phone = hub.subscribe(7)
        versions = Versions(lambda games: asyncio.sleep(0, {}))
        versions.heard(7, 2)  # what the stream's hello said
        task = asyncio.get_running_loop().create_task(
            sources.poll(hub, interval=0.01, versions=versions)
        )
        await asyncio.sleep(0.05)
        task.cancel()
        return drain(phone)

    assert encode(3, None) in aio.run(first_messages())
