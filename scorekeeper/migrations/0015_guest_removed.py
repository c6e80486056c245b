from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0014_worker_heartbeat"),
    ]

    operations = [
        migrations.AddField(
            model_name="guest",
            name="removed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
