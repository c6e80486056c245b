"""German: "28. Nov 2026", "28. Nov 2026, 21:05", "28. Nov"."""

DATE_FORMAT = "j. M Y"
DATETIME_FORMAT = "j. M Y, H:i"
MONTH_DAY_FORMAT = "j. M"
