"""Spanish: "28 nov 2026", "28 nov 2026, 21:05", "28 nov"."""

DATE_FORMAT = "j b Y"
DATETIME_FORMAT = "j b Y, H:i"
MONTH_DAY_FORMAT = "j b"
