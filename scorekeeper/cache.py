"""A cache every app process shares: Django's database cache with an atomic increment.

Rate-limit counters (django-ratelimit, through :mod:`scorekeeper.security`) must count
every request, also when several workers answer at once. Django's ``DatabaseCache`` keeps
its values in a table all processes see, but its ``incr`` reads and then writes, so two
concurrent requests can both count as one. Here ``incr`` locks the row for the
read-modify-write (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite serialises writing
transactions anyway) and keeps the entry's expiry.

The table is created by migration 0003 (``createcachetable``), so ``migrate`` is all an
install needs.
"""

from __future__ import annotations

import base64
import pickle
from typing import Any

from django.core.cache.backends.db import DatabaseCache
from django.db import connections, models, router, transaction
from django.utils.timezone import now


class AtomicDatabaseCache(DatabaseCache):
    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote = connection.ops.quote_name
        table = quote(self._table)  # type: ignore[attr-defined]
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {quote('value')}, {quote('expires')} FROM {table} "
                f"WHERE {quote('cache_key')} = %s{lock}",
                [key],
            )
            row = cursor.fetchone()
            if row is None or self._expiry(connection, row[1]) < now():
                raise ValueError(f"Key '{key}' not found")
            stored = connection.ops.process_clob(row[0])
            value = pickle.loads(base64.b64decode(stored.encode())) + delta
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
            cursor.execute(
                f"UPDATE {table} SET {quote('value')} = %s WHERE {quote('cache_key')} = %s",
                [encoded, key],
            )
        return value

    @staticmethod
    def _expiry(connection: Any, expires: Any) -> Any:
        """The stored expiry as an aware datetime (as DatabaseCache.get_many reads it)."""
        expression = models.Expression(output_field=models.DateTimeField())
        converters = connection.ops.get_db_converters(expression) + expression.get_db_converters(
            connection
        )
        for converter in converters:
            expires = converter(expires, expression, connection)
        return expires
