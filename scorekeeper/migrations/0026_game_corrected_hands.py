"""Each game keeps the numbers of its hands corrected since first saved, for the mark
on their rows of the sheet.

SQLite adds a NOT NULL column by making the table anew, which drops its triggers: the
league game counts' (migration 0012) are made again after it, as 0012 made them."""

from importlib import import_module

from django.db import migrations, models

COUNTS = import_module("scorekeeper.migrations.0012_leaguefast_game_count")


def count_triggers_again(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for sql in (*COUNTS.SQLITE_BACKWARD, *COUNTS.SQLITE_FORWARD):
            schema_editor.execute(sql)


def mark_corrected(apps, schema_editor):
    """The hands corrected before the mark: a hand of the game whose history has a
    correction since it was last undone (a hand undone and entered again is new)."""
    Game = apps.get_model("scorekeeper", "Game")
    Hand = apps.get_model("scorekeeper", "Hand")
    HandRevision = apps.get_model("scorekeeper", "HandRevision")
    last: dict[tuple[int, int], tuple[int, str]] = {}
    history = HandRevision.objects.filter(action__in=["corrected", "undone"]).order_by("revision")
    for game_id, number, revision, action in history.values_list(
        "game_id", "number", "revision", "action"
    ).iterator():
        last[(game_id, number)] = (revision, action)
    marked: dict[int, list[int]] = {}
    hands = Hand.objects.order_by("game_id", "number").values_list("game_id", "number")
    for game_id, number in hands.iterator():
        if last.get((game_id, number), (0, ""))[1] == "corrected":
            marked.setdefault(game_id, []).append(number)
    for game_id, numbers in marked.items():
        Game.objects.filter(pk=game_id).update(corrected_hands=numbers)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0025_night_invites"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="corrected_hands",
            field=models.JSONField(blank=True, db_default=[], default=list),
        ),
        migrations.RunPython(count_triggers_again, migrations.RunPython.noop),
        migrations.RunPython(mark_corrected, migrations.RunPython.noop),
    ]
