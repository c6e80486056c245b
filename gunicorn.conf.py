"""gunicorn's settings for scorekeeper: ``gunicorn -c gunicorn.conf.py scorekeeper.wsgi``
from the checkout, as every recipe of the README says (gunicorn would also read it from
there unasked). Its command line may override any of them (``--workers 3``).

gunicorn serves behind nginx (``deploy/nginx/``), which reads each request whole before
passing it on and each answer whole before the client does, as gunicorn's documentation
asks: a slow or half-open client holds one of nginx's connections, never a thread here.
Memory is kept by glibc's own settings in the environment the recipes give every
process (``MALLOC_ARENA_MAX`` and the like, README "Running it for real"), not by code
here."""

# gunicorn's own threaded worker: a request at a time on each of a worker's threads.
worker_class = "gthread"
threads = 4
# Each worker is started anew after about 1,000 requests (a few hundred hands of a game
# night; the jitter keeps two workers from restarting together): what a long evening
# leaves in a worker's memory goes with it (bench/footprint_bench.py --night).
max_requests = 1000
max_requests_jitter = 100
# The app is loaded once, in the master, and each worker is forked from it (a restarted
# one too, in a moment and without loading anything): the workers share the app's pages
# instead of each loading its own copy. make bench-footprint on 2026-11-27: each web
# worker's own pages (USS) 49–53 MB instead of 64–68 after the tours, 79–80 MB resident
# instead of 87–88 after the night; the master holds the app (60 MB resident, a share of it
# counted in each worker's PSS). An upgrade restarts gunicorn (a HUP would keep the
# master's old code).
preload_app = True


def when_ready(server: object) -> None:
    """In the master, once, after the app was loaded (``preload_app``) and before the
    first workers are forked: what each worker would make on its first requests —
    its URLs, templates and translations — made here for all of them
    (``scorekeeper.warm``: a fresh worker's first sheet 0.05 CPU-s instead of 0.7–0.9)."""
    if not getattr(server, "cfg").preload_app:  # noqa: B009 (gunicorn's Arbiter)
        return
    from scorekeeper.warm import warm

    warm()


def pre_fork(server: object, worker: object) -> None:
    """In the master, before each worker is forked (the first ones, and each one
    ``max_requests`` starts anew). With ``preload_app`` the app is loaded there once,
    and the workers share its pages until they write to them:
    ``gc.freeze()`` moves what the master holds out of the collector's reach, so that
    a worker's collections do not touch (and copy) those pages, as Python's ``gc``
    documentation advises before a fork. Loading the app opens no database
    connection; one opened would be shared by every worker, so any is closed."""
    if not getattr(server, "cfg").preload_app:  # noqa: B009 (gunicorn's Arbiter)
        return
    import gc

    from django.db import connections

    connections.close_all()
    gc.freeze()


# -- Logs --------------------------------------------------------------------------------
# gunicorn's access log on stdout (nginx in front keeps one too) and its error log on
# stderr, each line passed through the filter that blots join tokens, stream tickets,
# password-reset tokens and invitation codes (scorekeeper/log_secrets.py). This dict
# takes the place of --access-logfile and --error-logfile: the service manager keeps
# both streams (journald). The names and formats are gunicorn's own defaults
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
