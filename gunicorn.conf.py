"""gunicorn's settings for scorekeeper: ``gunicorn -c gunicorn.conf.py scorekeeper.wsgi``
from the checkout, as every recipe of the README says (gunicorn would also read it from
there unasked). Its command line may override any of them (``--workers 3``)."""

# A thread per request, and none for a client whose request has not arrived: a slow
# or half-open connection cannot hold the app (scorekeeper/serving.py).
worker_class = "scorekeeper.serving.HeadFirstWorker"
threads = 4
# The access log, with join links' tokens and streams' tickets blotted out.
logger_class = "scorekeeper.serving.TokenlessLogger"
