"""What is kept per game version: in the cache every app process shares ("versions",
Django's database cache), with this process's own memory ("default") in front.

A version's rows and answers never change (a write makes a new version), so the two
never disagree: a process that has one in memory asks the database nothing (a sheet or
game JSON seen before costs no query), and a version one process made, the others find
in the shared table instead of folding and rendering it again.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache, caches

SHARED = "versions"


def kept(key: str) -> Any:
    """What is kept under ``key`` (None: nothing), from memory, else from the shared
    table (then kept in memory too)."""
    found = cache.get(key)
    if found is None:
        found = caches[SHARED].get(key)
        if found is not None:
            cache.set(key, found)
    return found


def keep(key: str, value: Any, *, only_new: bool = False) -> None:
    """Keep ``value`` under ``key`` for every process (``only_new``: unless one is kept
    there already) and in this process's memory."""
    if only_new:
        caches[SHARED].add(key, value)
    else:
        caches[SHARED].set(key, value)
    cache.set(key, value)


def kept_many(keys: list[str]) -> dict[str, Any]:
    """What is kept under each of ``keys`` (those with nothing left out), from memory,
    else from the shared table (one query for all those not in memory; then kept in
    memory too)."""
    found: dict[str, Any] = cache.get_many(keys)
    missing = [key for key in keys if key not in found]
    if missing:
        shared = caches[SHARED].get_many(missing)
        if shared:
            cache.set_many(shared)
            found.update(shared)
    return found


def keep_many(values: dict[str, Any]) -> None:
    """Keep each of ``values`` under its key for every process and in this process's
    memory."""
    caches[SHARED].set_many(values)
    cache.set_many(values)
