"""What a game's sheet shows, read once per version of the game: the game row and the
viewer's access, the state its hands fold to (``selectors.rows``: kept per version, and
left there by the phone that wrote it), and the context every part of the sheet is
rendered from (the page, its htmx partials, the live answer, the table display)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any
from urllib.parse import parse_qs, urlsplit

from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from games import RULESETS, GameState
from games.config import Option
from scorekeeper.models import Game, HandAction, HandRevision
from scorekeeper.presenters import Presenter, presenter_for
from scorekeeper.presenters.hand_input import HandForm
from scorekeeper.selectors.access import GameAccess
from scorekeeper.selectors.games import (
    game_state,
    game_with_related,
    player_names,
    with_earlier_hands,
    with_rows,
)
from scorekeeper.selectors.nights import night_pointer, night_standings
from scorekeeper.selectors.player_colours import apply_markers, game_markers
from scorekeeper.selectors.rows import RECENT_HANDS, keep_after_write, keep_rows, rows_by_version
from scorekeeper.selectors.table import tools_for
from scorekeeper.services.games import HandWritten
from scorekeeper.services.locked_game import DERIVED_FIELDS
from scorekeeper.validation import optional_id
from scorekeeper.web import sheet, sheet_panel
from scorekeeper.web.access import NOT_YOURS
from scorekeeper.web.scoreboard import build_scoreboard


def reload_access(access: GameAccess, games: QuerySet[Game] | None = None) -> GameAccess:
    """The same viewer's access to the game as it is now (after a write, or a change seen
    by the live poll): read again with its rows, or from ``games``."""
    game = (games if games is not None else game_with_related()).filter(pk=access.game.pk).first()
    if game is None:
        raise Http404(NOT_YOURS)
    return replace(access, game=game)


def after_write(access: GameAccess, written: HandWritten) -> tuple[GameAccess, GameState]:
    """The viewer's access and the game's whole state after a write: the state the write
    folded, after the hands this request read before it (no hand is read or folded
    again), unless another phone wrote in between (then the game is read again). The
    state is kept as the rows of the game's new version (``selectors.rows.keep_rows``)."""
    game = access.game
    same = written.base_version == game.version
    state = with_earlier_hands(game, written.state) if same else None
    if state is not None:
        # The columns the write changed, read back; the hands read before it dropped.
        game.refresh_from_db(fields=[*DERIVED_FIELDS, "hands"])
        if game.version != written.game.version:  # and another phone wrote since
            state = None
    if state is None:
        access = reload_access(access)
        state = game_state(access.game)
    keep_rows(access.game, state)
    return access, state


def keep_written(access: GameAccess, written: HandWritten) -> GameAccess:
    """The viewer's access with the game row as a write left it (the columns the write
    changed, taken from it: nothing is read again), and the rows of the game's new
    version kept from those of the version before it (``selectors.rows``)."""
    game = access.game
    for field in DERIVED_FIELDS:
        setattr(game, field, getattr(written.game, field))
    keep_after_write(game, written.base_key, written.state)
    return access


def sheet_game() -> QuerySet[Game]:
    """The game row as the sheet reads it: with its league, owner and table tools' row
    (``tools_row`` in the page's context), its seats and hands coming from
    :func:`rows_by_version`."""
    return Game.objects.select_related("league", "owner", "tablestate")


def seat_ids(game: Game) -> list[int]:
    return [s.player_id for s in game.seats.all()]


def hand_marker(state: GameState) -> str:
    """What the entry panel on a phone is for: the next hand's number, or the end."""
    return str(state.next_hand["number"]) if state.next_hand else "end"


def undone_entry(game: Game, state: GameState, number: int | None) -> HandForm | None:
    """The entry of hand ``number`` as it was when it was undone, to fix and save again —
    while that hand is the next one to enter (None otherwise)."""
    if not number or not state.next_hand or int(state.next_hand["number"]) != number:
        return None
    undone = (
        HandRevision.objects.filter(game=game, number=number, action=HandAction.UNDONE)
        .order_by("-created_at", "-id")
        .values_list("input", flat=True)
        .first()
    )
    if undone is None:
        return None
    return presenter_for(game.ruleset).entry_form.from_input(state.config.players, undone)


def sheet_context(
    request: HttpRequest,
    access: GameAccess,
    *,
    state: GameState | None = None,
    panel: sheet_panel.Panel | None = None,
    flash: str = "",
    notice: str = "",
    preview: dict[str, Any] | None = None,
    since: int | None = None,
    refill: int | None = None,
) -> dict[str, Any]:
    """What the sheet shows; ``since``: its grid holds only the rows of hands ``since``
    onwards (the live answer to a phone that has the others); ``refill`` (or
    ``?refill=N``): the entry shows undone hand N again, when N is the next hand."""
    game = access.game
    show_all = wants_every_hand(request)
    running = None
    if state is None:
        rows = rows_by_version(game)
        state, names, markers, running = rows.state, rows.names, rows.markers, rows.running
        if show_all and len(state.hands) < state.played:  # every hand asked for: read
            state = game_state(with_rows(game))
    else:
        names, markers = player_names(game), game_markers(game)
    can_change = access.may_change
    can_manage = access.may_manage
    rules = RULESETS[game.ruleset]
    shows = presenter_for(game.ruleset)
    recent = None if show_all else RECENT_HANDS

    @cache
    def grid() -> sheet.Grid:
        built = sheet.build_grid(game, state, names, recent=recent, since=since)
        apply_markers(built.columns, markers)
        return built

    # What only the page's cached fragments show is made when one is not kept (lazily:
    # a fragment kept for this version never asks; the grid's key asks ``grid_hidden``).
    if panel is None and can_change:
        refill = refill or optional_id(request.GET.get("refill"))
        form = undone_entry(game, state, refill)
        panel = sheet_panel.build_panel(game, state, names, form=form)
    variant = rules.variant(game.variant or None) if rules.variants else None
    pointer = night_pointer(game)
    return {
        "night": pointer,
        "night_next_name": (
            pointer.next_game.get_ruleset_display()
            if pointer is not None and pointer.next_game is not None
            else ""
        ),
        # The sheet keeps listening after the game is over while its night has no next
        # game yet: the phones move on to it by themselves.
        "live_on": not state.finished or (pointer is not None and pointer.listening),
        # At the end of each game of a night: the night's standings so far.
        "night_standings": (
            night_standings(pointer.night) if pointer is not None and state.finished else []
        ),
        "game": game,
        "access": access,
        "state": state,
        "rules": rules,
        "variant": variant,
        "names": names,
        "seated": [names[p] for p in state.config.players],
        "can_change": can_change,
        "can_manage": can_manage,
        "guest": access if access.is_guest and not can_manage else None,
        "grid": SimpleLazyObject(grid),
        "grid_hidden": sheet.hidden_rows(state, recent),
        "banner": SimpleLazyObject(lambda: sheet.build_banner(state, names)),
        "panel": panel,
        "ranking": sheet.build_ranking(state, grid().columns) if state.finished else [],
        "winners": [names.get(p, "?") for p in state.winners],
        "ended_by": sheet.ended_by_text(state, names),
        "chart": sheet.build_chart(state, grid().columns, running) if state.finished else None,
        "settlement": shows.settlement(state, names),
        "flash": flash,
        "notice": notice,
        "preview": preview,
        "hand_marker": hand_marker(state),
        "last_hand": state.hands[-1].number if state.hands else None,
        "wins_low": rules.wins_with_for(state.config.options) == "low",
        "goal": shows.goal(state.config.options),
        "scoreboard": SimpleLazyObject(lambda: build_scoreboard(state, grid().columns)),
        "setup": SimpleLazyObject(
            lambda: [
                (_(o.label), _option_shown(shows, o, state.config.options.get(o.name)))
                for o in rules.options
            ]
        ),
        "teams_named": [" & ".join(names[p] for p in t) for t in state.config.teams or ()],
        "first_dealer": names.get(game.first_dealer_id, ""),
        "table_tools": tools_for(state, names),
    }


def _option_shown(shows: Presenter, option: Option, value: object) -> object:
    """A house rule's value as the new-game form names it ("penalty" in the page's
    language); a number or the table's own words as they are."""
    if isinstance(value, str) and value in option.choices:
        return shows.option_choice(option.name, value)
    return value


def wants_every_hand(request: HttpRequest) -> bool:
    """``?hands=all`` on the sheet, or on the page an htmx request comes from (so live
    updates and entries keep every hand on the screen that showed them)."""
    if request.GET.get("hands") == "all":
        return True
    htmx = getattr(request, "htmx", None)
    current = (htmx.current_url if htmx else None) or ""
    if "hands" not in current and "%" not in current:
        return False  # nothing to parse (a key may be percent-encoded)
    return "all" in parse_qs(urlsplit(current).query).get("hands", [])


def render_sheet(
    request: HttpRequest, context: dict[str, Any], *, status: int = 200, partial: str = "sheet"
) -> HttpResponse:
    """The full sheet page, or for an htmx request just the ``partial``."""
    htmx = getattr(request, "htmx", None)
    template = f"games/sheet.html#{partial}" if htmx and not htmx.boosted else "games/sheet.html"
    return render(request, template, context, status=status)
