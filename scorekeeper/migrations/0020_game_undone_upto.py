"""Each game keeps the highest hand number ever undone, so recording a new hand number
(above it) needs no look at the history of its number."""

from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery


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


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0019_version_cache_table")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="undone_upto",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(fill_undone_upto, migrations.RunPython.noop),
    ]
