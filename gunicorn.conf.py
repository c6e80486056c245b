"""gunicorn's settings for scorekeeper: ``gunicorn -c gunicorn.conf.py scorekeeper.wsgi``
from the checkout, as every recipe of the README says (gunicorn would also read it from
there unasked). Its command line may override any of them (``--workers 3``)."""

import contextlib
import ctypes

# A thread per request, and none for a client whose request has not arrived: a slow
# or half-open connection cannot hold the app (scorekeeper/serving.py).
worker_class = "scorekeeper.serving.HeadFirstWorker"
threads = 4
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


# -- Logs --------------------------------------------------------------------------------
# gunicorn's access log on stdout and its error log on stderr, each line passed through
# the filter that blots join tokens, stream tickets, password-reset tokens and
# invitation codes (scorekeeper/log_secrets.py). This dict takes the place of
# --access-logfile and --error-logfile: the service manager keeps both streams
# (journald, docker logs). The names and formats are gunicorn's own defaults
# (gunicorn.glogging.CONFIG_DEFAULTS), an access line is as gunicorn writes it.
logconfig_dict = {
    "filters": {"secrets": {"()": "scorekeeper.log_secrets.HideSecrets"}},
    "formatters": {
        "generic": {
            "format": "%(asctime)s [%(process)d] [%(levelname)s] %(message)s",
            "datefmt": "[%Y-%m-%d %H:%M:%S %z]",
        },
        "access": {"format": "%(message)s"},
    },
    "handlers": {
        name: {
            "class": "logging.StreamHandler",
            "formatter": formatter,
            "stream": f"ext://sys.{stream}",
            "filters": ["secrets"],
        }
        for name, formatter, stream in (
            ("console", "generic", "stdout"),
            ("access", "access", "stdout"),
            ("error_console", "generic", "stderr"),
        )
    },
    "loggers": {
        "gunicorn.error": {"handlers": ["error_console"], "propagate": False},
        "gunicorn.access": {"handlers": ["access"], "propagate": False},
    },
}
