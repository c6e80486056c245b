"""The table of the database cache every app process shares (settings.CACHES["shared"]):
made here so that ``migrate`` is all an install needs (no separate createcachetable)."""

from django.conf import settings
from django.core.management import call_command
from django.db import migrations


def create_cache_tables(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


def drop_cache_tables(apps, schema_editor):
    for cache in settings.CACHES.values():
        if cache["BACKEND"].endswith("DatabaseCache"):
            schema_editor.execute(
                f"DROP TABLE IF EXISTS {schema_editor.quote_name(cache['LOCATION'])}"
            )


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0004_imports_timestamps")]

    operations = [migrations.RunPython(create_cache_tables, drop_cache_tables)]
