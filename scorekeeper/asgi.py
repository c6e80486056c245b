"""ASGI entry point of the Django app (the events server is ``scorekeeper.live.asgi``)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
application = get_asgi_application()
