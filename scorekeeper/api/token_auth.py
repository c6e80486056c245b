"""``Authorization: Token <key>`` checked in one plain SQL query.

Every API request of a phone or script starts here; DRF's ``TokenAuthentication`` builds
its ``select_related`` query through the ORM on each request, which took about a quarter
of a hand POST's CPU. The same lookup, written once as SQL and made into a ``User`` by
``Model.from_db``, costs a fraction of that. Nothing is cached: the token row is read on
every request, so a revoked token (``DELETE /api/v1/auth/token/``, the account page's
"revoke"), a deleted account or a deactivated one is refused by the very next request."""

from __future__ import annotations

from functools import cache

from django.contrib.auth.models import User
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token


@cache
def _query() -> tuple[str, list[str]]:
    """The SQL and the user's field names in the order ``from_db`` takes them."""
    quote = connection.ops.quote_name
    fields = list(User._meta.concrete_fields)
    columns = ", ".join(f"u.{quote(f.column)}" for f in fields)
    sql = (
        f"SELECT {columns} FROM {quote(Token._meta.db_table)} t "
        f"JOIN {quote(User._meta.db_table)} u ON u.{quote(User._meta.pk.column)} = t.user_id "
        "WHERE t.key = %s"
    )
    return sql, [f.attname for f in fields]


class FastTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[User, Token]:
        sql, names = _query()
        with connection.cursor() as cursor:
            cursor.execute(sql, [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user = User.from_db(connection.alias, names, row)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token = Token(key=key, user=user)
        token._state.adding = False
        token._state.db = connection.alias
        return user, token
