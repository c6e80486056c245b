"""The table of the database cache every app process shares for what a game version
shows (settings.CACHES["versions"]): made here so that ``migrate`` is all an install
needs. ``createcachetable`` makes each database cache's table that is missing (a new
install has had it made by 0005 already)."""

from django.conf import settings
from django.core.management import call_command
from django.db import migrations

ALIAS = "versions"


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", ALIAS, database=schema_editor.connection.alias, verbosity=0)


def drop_cache_table(apps, schema_editor):
    cache = settings.CACHES.get(ALIAS)
    if cache and cache["BACKEND"].endswith("DatabaseCache"):
        table = schema_editor.quote_name(cache["LOCATION"])
        schema_editor.execute(f"DROP TABLE IF EXISTS {table}")


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0018_league_import")]

    operations = [migrations.RunPython(create_cache_table, drop_cache_table)]
