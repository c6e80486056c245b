from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0009_rating_backlog"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="public_token",
            field=models.CharField(blank=True, max_length=64, null=True, unique=True),
        ),
    ]
