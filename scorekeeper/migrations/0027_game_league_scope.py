"""Each game keeps where a league ranks it (``Game.league_scope``: its ruleset's slug, or
``<slug>/<title>`` for a game the table named), and the statistics' scopes grow to
hold such a key.

Every game before this one is ranked under its slug. SQLite adds a NOT NULL column by
making the table anew, which drops its triggers: the league game counts' (migration
0012) are made again after it, as 0012 made them."""

from importlib import import_module

from django.db import migrations, models
from django.db.models import F

COUNTS = import_module("scorekeeper.migrations.0012_leaguefast_game_count")


def count_triggers_again(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for sql in (*COUNTS.SQLITE_BACKWARD, *COUNTS.SQLITE_FORWARD):
            schema_editor.execute(sql)


def scope_by_slug(apps, schema_editor):
    apps.get_model("scorekeeper", "Game").objects.update(league_scope=F("ruleset"))


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0026_game_corrected_hands"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="league_scope",
            field=models.CharField(blank=True, db_default="", default="", max_length=110),
        ),
        migrations.RunPython(count_triggers_again, migrations.RunPython.noop),
        migrations.RunPython(scope_by_slug, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="playerstanding",
            name="ruleset",
            field=models.CharField(blank=True, default="", max_length=110),
        ),
        migrations.AlterField(
            model_name="ratingbacklog",
            name="ruleset",
            field=models.CharField(blank=True, default="", max_length=110),
        ),
        migrations.AlterField(
            model_name="ratingpoint",
            name="ruleset",
            field=models.CharField(blank=True, default="", max_length=110),
        ),
    ]
