"""The app's configuration, and static files collected without what no page uses."""

from django.apps import AppConfig
from django.contrib.staticfiles.apps import StaticFilesConfig as BaseStaticFilesConfig


class ScorekeeperConfig(AppConfig):
    """The app (``"scorekeeper"`` in ``INSTALLED_APPS``): Django picks the one config
    marked default, as this module holds two."""

    default = True
    name = "scorekeeper"
    verbose_name = "Scorekeeper"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from scorekeeper.outages import OUTAGE
        from scorekeeper.web import language  # noqa: F401  (its sign-in receiver)

        # A connection made is the database answering again: an outage's end (outages.py).
        connection_created.connect(OUTAGE.answered, dispatch_uid="scorekeeper.outage-ends")


class StaticFilesConfig(BaseStaticFilesConfig):
    """``django.contrib.staticfiles``, leaving out what no page uses: the ReDoc bundle of
    drf-spectacular-sidecar (the API docs page is Swagger UI; compressing it at every
    ``collectstatic`` took half the time), and the htmx extensions django-htmx ships
    (``{% htmx_script %}`` loads none here). Their type comments name
    ``import("../htmx")``, which the manifest storage would take for a module to hash
    (scorekeeper/staticfiles.py) and refuse as missing."""

    ignore_patterns = [
        *BaseStaticFilesConfig.ignore_patterns,
        "drf_spectacular_sidecar/redoc/*",
        "django_htmx/ext/*",
    ]
