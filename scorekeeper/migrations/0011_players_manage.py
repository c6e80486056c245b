"""Players you can manage: a colour, hidden from the pickers, and merges recorded."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0010_results_public"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="colour",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="hidden",
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.CreateModel(
            name="PlayerMerge",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("from_player_id", models.BigIntegerField(db_index=True)),
                ("from_name", models.CharField(max_length=60)),
                ("merged_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("games", models.PositiveIntegerField(default=0)),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "into",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="merges_in",
                        to="scorekeeper.player",
                    ),
                ),
            ],
            options={"ordering": ["-merged_at", "-id"]},
        ),
    ]
