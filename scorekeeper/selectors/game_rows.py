"""One game with the rows its sheet needs, read in plain SQL.

The sheet (and every read of one game) wants the game, its league, owner and first
dealer, its seats with their players, and its hands. The ORM spends more CPU building
those queries and walking ``prefetch_related`` than the rest of a sheet request, so the
two queries are written once per process from the models' own fields (a new column is
picked up with no change here) and the rows are made into model instances as the ORM
would leave them: related objects cached, ``game.seats.all()`` and ``game.hands.all()``
answered without a query.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model, QuerySet

from scorekeeper.models import Game, Hand, League, Player, Seat

Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class _Part:
    """One model's columns in a query: where they start in the row, and how each value
    is converted from the database (JSON decoded, as the ORM does)."""

    model: type[Model]
    start: int
    pk: int
    attnames: tuple[str, ...]
    converters: tuple[tuple[int, Converter, Any], ...]

    @property
    def end(self) -> int:
        return self.start + len(self.attnames)

    def make(self, row: Sequence[Any]) -> Model | None:
        values = list(row[self.start : self.end])
        if values[self.pk] is None:  # a LEFT JOIN that found nothing
            return None
        for index, convert, field in self.converters:
            values[index] = convert(values[index], field, connection)
        return self.model.from_db(connection.alias, self.attnames, values)


def _columns(model: type[Model], alias: str, start: int) -> tuple[list[str], _Part]:
    fields: list[Any] = list(model._meta.concrete_fields)  # the order ``from_db`` wants
    # The backend's converters, then the field's, as the ORM applies them (PostgreSQL:
    # JSON decoded; SQLite: dates parsed, booleans made bool too).
    converters = tuple(
        (index, convert, column)
        for index, column in enumerate(field.get_col(alias) for field in fields)
        for convert in [
            *connection.ops.get_db_converters(column),
            *column.get_db_converters(connection),
        ]
    )
    quote = connection.ops.quote_name
    columns = [f"{alias}.{quote(f.column)}" for f in fields]
    pk = fields.index(model._meta.pk)
    return columns, _Part(model, start, pk, tuple(f.attname for f in fields), converters)


@dataclass(frozen=True)
class _Query:
    sql: str
    parts: tuple[_Part, ...]


@functools.cache
def _seats_query() -> _Query:
    """Seats (in seat order) with their player, the game, its league, owner and first
    dealer."""
    quote = connection.ops.quote_name
    user = get_user_model()
    joins: list[tuple[type[Model], str]] = [
        (Seat, "s"),
        (Player, "p"),
        (Game, "g"),
        (League, "l"),
        (user, "u"),
        (Player, "d"),
    ]
    columns: list[str] = []
    parts: list[_Part] = []
    for model, alias in joins:
        cols, part = _columns(model, alias, len(columns))
        columns += cols
        parts.append(part)

    def table(model: type[Model]) -> str:
        return quote(model._meta.db_table)

    sql = (
        f"SELECT {', '.join(columns)} FROM {table(Seat)} s "
        f"JOIN {table(Player)} p ON p.id = s.player_id "
        f"JOIN {table(Game)} g ON g.id = s.game_id "
        f"LEFT JOIN {table(League)} l ON l.id = g.league_id "
        f"JOIN {table(user)} u ON u.{quote(user._meta.pk.column)} = g.owner_id "
        f"JOIN {table(Player)} d ON d.id = g.first_dealer_id "
        "WHERE s.game_id = %s ORDER BY s.position"
    )
    return _Query(sql, tuple(parts))


@functools.cache
def _hands_query() -> _Query:
    columns, part = _columns(Hand, "h", 0)
    table = connection.ops.quote_name(Hand._meta.db_table)
    sql = f"SELECT {', '.join(columns)} FROM {table} h WHERE h.game_id = %s ORDER BY h.number"
    return _Query(sql, (part,))


def _holding(queryset: QuerySet[Any], rows: list[Any]) -> QuerySet[Any]:
    """What ``prefetch_related`` leaves: a queryset already holding its rows."""
    queryset._result_cache = rows
    queryset._prefetch_done = True  # type: ignore[attr-defined]
    return queryset


def game_rows(pk: int, *, hands: bool = True) -> Game | None:
    """Game ``pk`` with its league, owner and first dealer, its seats (with players, in
    seat order) and, with ``hands``, its hands (in order), or None if there is no such
    game. Two queries (one without hands); no visibility check."""
    seats_query = _seats_query()
    with connection.cursor() as cursor:
        cursor.execute(seats_query.sql, [pk])
        rows = cursor.fetchall()
        if not rows:  # a game always has seats
            return None
        hand_rows: list[Any] = []
        if hands:
            cursor.execute(_hands_query().sql, [pk])
            hand_rows = cursor.fetchall()
    seat_part, player_part, game_part, league_part, owner_part, dealer_part = seats_query.parts
    first = rows[0]
    game = game_part.make(first)
    assert isinstance(game, Game)
    cache_related(game, "league", league_part.make(first))
    cache_related(game, "owner", owner_part.make(first))
    cache_related(game, "first_dealer", dealer_part.make(first))
    seats = []
    for row in rows:
        seat = seat_part.make(row)
        player = player_part.make(row)
        assert isinstance(seat, Seat)
        assert isinstance(player, Player)
        cache_related(seat, "player", player)
        cache_related(seat, "game", game)
        seats.append(seat)
    cache: dict[str, QuerySet[Any]] = {"seats": _holding(game.seats.all(), seats)}
    if hands:
        (hand_part,) = _hands_query().parts
        made = []
        for row in hand_rows:
            hand = hand_part.make(row)
            assert isinstance(hand, Hand)
            cache_related(hand, "game", game)
            made.append(hand)
        cache["hands"] = _holding(game.hands.all(), made)
    game._prefetched_objects_cache = cache  # type: ignore[attr-defined]
    return game


def cache_related(instance: Model, name: str, value: Model | None) -> None:
    """Put a forward relation's object where the ORM looks for it (no query later)."""
    if value is None:
        return
    instance._meta.get_field(name).set_cached_value(instance, value)  # type: ignore[union-attr]


# -- for writes: the game locked, its last hand -------------------------------------------


@functools.cache
def _locked_seats_query() -> _Query:
    seat_cols, seat_part = _columns(Seat, "s", 0)
    game_cols, game_part = _columns(Game, "g", len(seat_cols))
    quote = connection.ops.quote_name
    sql = (
        f"SELECT {', '.join(seat_cols + game_cols)} FROM {quote(Seat._meta.db_table)} s "
        f"JOIN {quote(Game._meta.db_table)} g ON g.id = s.game_id "
        f"WHERE s.game_id = %s ORDER BY s.position{_for_update()}"
    )
    return _Query(sql, (seat_part, game_part))


def _for_update() -> str:
    features = connection.features
    if features.has_select_for_update_of:
        return " FOR UPDATE OF g"
    return " FOR UPDATE" if features.has_select_for_update else ""  # SQLite: none


def locked_game_seats(pk: int) -> tuple[Game, list[Seat]] | None:
    """Game ``pk`` with its seats (in seat order), the game row locked ``FOR UPDATE``
    (inside a transaction), in one query; None if there is no such game."""
    query = _locked_seats_query()
    with connection.cursor() as cursor:
        cursor.execute(query.sql, [pk])
        rows = cursor.fetchall()
    if not rows:  # a game always has seats
        return None
    seat_part, game_part = query.parts
    game = game_part.make(rows[0])
    assert isinstance(game, Game)
    seats = []
    for row in rows:
        seat = seat_part.make(row)
        assert isinstance(seat, Seat)
        cache_related(seat, "game", game)
        seats.append(seat)
    return game, seats


@functools.cache
def _last_hand_query() -> _Query:
    columns, part = _columns(Hand, "h", 0)
    table = connection.ops.quote_name(Hand._meta.db_table)
    sql = (
        f"SELECT {', '.join(columns)} FROM {table} h WHERE h.game_id = %s "
        "ORDER BY h.number DESC LIMIT 1"
    )
    return _Query(sql, (part,))


def last_hand(game: Game) -> Hand | None:
    """The game's last hand (the highest number), or None."""
    query = _last_hand_query()
    with connection.cursor() as cursor:
        cursor.execute(query.sql, [game.pk])
        row = cursor.fetchone()
    if row is None:
        return None
    hand = query.parts[0].make(row)
    assert isinstance(hand, Hand)
    cache_related(hand, "game", game)
    return hand
