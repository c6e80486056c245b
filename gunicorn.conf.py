"""gunicorn's settings for scorekeeper: ``gunicorn -c gunicorn.conf.py scorekeeper.wsgi``
from the checkout, as every recipe of the README says (gunicorn would also read it from
there unasked). Its command line may override any of them (``--workers 3``)."""

import contextlib
import ctypes

# A thread per request, and none for a client whose request has not arrived: a slow
# or half-open connection cannot hold the app (scorekeeper/serving.py).
worker_class = "scorekeeper.serving.HeadFirstWorker"
threads = 4
# Each worker is started anew after about 1,000 requests (a few hundred hands of a game
# night; the jitter keeps two workers from restarting together): what a long evening
# leaves in a worker's memory goes with it (bench/footprint_bench.py --night).
max_requests = 1000
max_requests_jitter = 100
# The access log, with join links' tokens and streams' tickets blotted out.
logger_class = "scorekeeper.serving.TokenlessLogger"


def post_fork(server: object, worker: object) -> None:
    """glibc's malloc told to give memory back: two arenas for a worker's threads, not
    eight a core (each keeps what it freed), and blocks of 128 KB and more (an export, an
    image) mapped on their own and returned when freed, the heap's free top trimmed past
    128 KB. Without it a worker grows by tens of MB (bench/footprint_bench.py)."""
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to do
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-8, 2)  # M_ARENA_MAX
        libc.mallopt(-3, 128 * 1024)  # M_MMAP_THRESHOLD (fixed: no longer grows)
        libc.mallopt(-1, 128 * 1024)  # M_TRIM_THRESHOLD
