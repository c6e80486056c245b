"""Each game keeps the highest hand number ever undone, so recording a new hand number
(above it) needs no look at the history of its number.

SQLite adds a NOT NULL column by making the table anew, which drops its triggers: the
league game counts' (migration 0012) are made again after it, as 0012 made them."""

from importlib import import_module

from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery

COUNTS = import_module("scorekeeper.migrations.0012_leaguefast_game_count")


def fill_undone_upto(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    HandRevision = apps.get_model("scorekeeper", "HandRevision")
    highest = (
        HandRevision.objects.filter(game_id=OuterRef("pk"), action="undone")
        .values("game_id")
        .annotate(top=Max("number"))
        .values("top")
    )
    undone = HandRevision.objects.filter(action="undone").values("game_id")
    Game.objects.filter(pk__in=undone).update(undone_upto=Subquery(highest))


def count_triggers_again(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for sql in (*COUNTS.SQLITE_BACKWARD, *COUNTS.SQLITE_FORWARD):
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0019_version_cache_table")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="undone_upto",
            field=models.PositiveIntegerField(default=0, db_default=0),
        ),
        migrations.RunPython(count_triggers_again, migrations.RunPython.noop),
        migrations.RunPython(fill_undone_upto, migrations.RunPython.noop),
    ]
