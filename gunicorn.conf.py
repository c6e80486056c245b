"""gunicorn's settings for scorekeeper. gunicorn reads this file from the directory it
is started in (the checkout, in every recipe of the README), before its command line,
which may override any of them (``--workers 3``)."""

# A thread per request, and none for a client whose request has not arrived: a slow
# or half-open connection cannot hold the app (scorekeeper/serving.py).
worker_class = "scorekeeper.serving.HeadFirstWorker"
threads = 4
# The access log, with join links' tokens and streams' tickets blotted out.
logger_class = "scorekeeper.serving.TokenlessLogger"
