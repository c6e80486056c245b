"""Timestamps an import stored outside what the database driver can read back (year 0
or 10000 once in UTC: ``"0001-01-01T00:00:00+01:00"``) made player search, game lists,
league pages and ``rebuild_derived`` fail for everyone. Imports refuse them now; this
brings any already stored back inside years 1–9999 (the nearest instant that is)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import migrations

EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
LATEST = datetime(9999, 12, 31, tzinfo=UTC) - timedelta(days=1)

FIELDS = {
    "Player": ("created_at",),
    "League": ("created_at",),
    "Membership": ("joined_at",),
    "Game": ("created_at", "finished_at"),
    "Hand": ("created_at",),
    "HandRevision": ("created_at",),
    "RatingPoint": ("played_at",),
}


def repair(apps: Any, schema_editor: Any) -> None:
    for model_name, fields in FIELDS.items():
        model = apps.get_model("scorekeeper", model_name)
        for field in fields:
            # Compared and written in SQL: the bad values are never read into Python.
            model.objects.filter(**{f"{field}__lt": EARLIEST}).update(**{field: EARLIEST})
            model.objects.filter(**{f"{field}__gt": LATEST}).update(**{field: LATEST})


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0003_invites")]

    operations = [migrations.RunPython(repair, migrations.RunPython.noop)]
