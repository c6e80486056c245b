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

# -- Logging ---------------------------------------------------------------------------
# gunicorn's own logger. Its access log is off unless asked for (--access-logfile): in
# every recipe nginx keeps the access log (deploy/nginx/snippets/scorekeeper-http.conf).
