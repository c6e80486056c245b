"""One render at a time of each live answer in a process (``web.live_answer.Renders``):
the phones of a table ask for the same answer at the same moment, and the threads of a
worker that all found it missing must not all render it."""

from __future__ import annotations

import threading
import time

from scorekeeper.web.live_answer import Renders


def test_requests_for_the_same_answer_take_turns_and_others_do_not_wait() -> None:
    renders = Renders()
    inside: list[str] = []
    first_in, release = threading.Event(), threading.Event()

    def first() -> None:
        with renders.one_at_a_time("game 1 v2"):
            inside.append("first in")
            first_in.set()
            release.wait(5)
            inside.append("first out")

    def same() -> None:
        with renders.one_at_a_time("game 1 v2"):
            inside.append("same in")

    def other() -> None:
        with renders.one_at_a_time("game 2 v7"):
            inside.append("other in")

    one = threading.Thread(target=first)
    one.start()
    assert first_in.wait(5)
    two, three = threading.Thread(target=same), threading.Thread(target=other)
    two.start()
    three.start()
    three.join(5)
    time.sleep(0.05)  # the same answer's request is still waiting
    assert inside == ["first in", "other in"]
    release.set()
    one.join(5)
    two.join(5)
    assert inside == ["first in", "other in", "first out", "same in"]
    assert len(renders) == 0  # nothing kept once no request holds or waits


def test_a_failed_render_lets_the_next_request_render() -> None:
    renders = Renders()
    try:
        with renders.one_at_a_time("k"):
            raise RuntimeError("the database went away")
    except RuntimeError:
        pass
    done = threading.Event()

    def again() -> None:
        with renders.one_at_a_time("k"):
            done.set()

    threading.Thread(target=again).start()
    assert done.wait(2)
