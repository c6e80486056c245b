"""Score-sheet pages: start a game, keep its sheet at the table, correct and undo hands.

Every page works as plain HTML forms and links; htmx only swaps parts of the sheet in
place (one view renders the full page, or for an htmx request just the partial). The
writes go through the same services as the API (``services.games``/``services.players``),
so the engine scores both the same way. Phones watching a sheet poll ``game_live``: it
answers 204 while ``Game.version`` is unchanged, so it is stateless and cheap however
many processes serve the app.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.timesince import timesince
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from games import RULESETS, GameState, RuleError, Ruleset
from games.base import whole_number
from scorekeeper.errors import ConflictError, IdempotencyKeyReused, StaleHandError
from scorekeeper.models import Game, GameStatus, Hand, Player
from scorekeeper.selectors.games import (
    can_change_game,
    game_config,
    game_state,
    game_with_related,
    games_visible_to,
    leagues_visible_to,
    player_names,
    players_usable_by,
    visible_game,
    visible_game_version,
)
from scorekeeper.services.games import (
    game_close,
    game_create,
    game_delete,
    game_reopen,
    hand_record,
    hand_replace,
    hand_undo,
)
from scorekeeper.services.players import player_create
from scorekeeper.validation import is_idempotency_key, optional_id
from scorekeeper.web import sheet
from scorekeeper.web.forms import Entry, NewGameEntry, SeatEntry, hand_input_from_entry
from scorekeeper.web.join import guest_pass, holds_link, login_or_guest_required
from scorekeeper.web.scoreboard import build_scoreboard


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


# -- loading ------------------------------------------------------------------------------


def _load(request: HttpRequest, pk: int) -> Game:
    if guest_pass(request, pk) is not None:
        game = game_with_related(Game.objects.filter(pk=pk)).first()
    else:
        game = visible_game(request.user, pk)
    if game is None:
        raise Http404("There is no such game, or it is not one of yours.")
    return game


def _can_change(request: HttpRequest, game: Game) -> bool:
    if can_change_game(request.user, game):
        return True
    held = guest_pass(request, game.pk)
    return held is not None and held.can_change


def _actor(request: HttpRequest, game: Game) -> dict[str, Any]:
    """Who writes, for the services: the account, or the guest of a score link."""
    held = None if can_change_game(request.user, game) else guest_pass(request, game.pk)
    if held is not None and held.can_change:
        return {"user": None, "guest": held.guest}
    return {"user": request.user}


def _seat_ids(game: Game) -> list[int]:
    return [s.player_id for s in sorted(game.seats.all(), key=lambda s: s.position)]


def _forbidden(request: HttpRequest, game: Game) -> HttpResponse:
    return render(request, "games/forbidden.html", {"game": game}, status=403)


def _hand_marker(state: GameState) -> str:
    """What the entry panel on a phone is for: the next hand's number, or the end."""
    return str(state.next_hand["number"]) if state.next_hand else "end"


def _sheet_context(
    request: HttpRequest,
    game: Game,
    *,
    state: GameState | None = None,
    panel: sheet.Panel | None = None,
    flash: str = "",
    notice: str = "",
    preview: dict[str, Any] | None = None,
) -> dict[str, Any]:
    state = state if state is not None else game_state(game)
    names = player_names(game)
    can_change = _can_change(request, game)
    can_manage = can_change_game(request.user, game)
    rules = RULESETS[game.ruleset]
    show_all = _wants_every_hand(request)
    grid = sheet.build_grid(
        game,
        state,
        names,
        can_change=can_change,
        recent=None if show_all else sheet.RECENT_HANDS,
    )
    if panel is None and can_change:
        panel = sheet.build_panel(game, state, names)
    variant = rules.variant(game.variant or None) if rules.variants else None
    return {
        "game": game,
        "state": state,
        "rules": rules,
        "variant": variant,
        "names": names,
        "seated": [names[p] for p in state.config.players],
        "can_change": can_change,
        "can_manage": can_manage,
        "guest": None if can_manage else guest_pass(request, game.pk),
        "grid": grid,
        "every_hand_url": f"{reverse('game_sheet', args=[game.pk])}?hands=all#sheet-grid",
        "banner": sheet.build_banner(game, state, names),
        "panel": panel,
        "ranking": sheet.build_ranking(state, grid.columns, game.ruleset) if state.finished else [],
        "winners": [names.get(p, "?") for p in state.winners],
        "ended_by": sheet.ended_by_text(state, names),
        "chart": sheet.build_chart(game, state, grid.columns) if state.finished else None,
        "settlement": sheet.settlement(game, state, names),
        "flash": flash,
        "notice": notice,
        "preview": preview,
        "hand_marker": _hand_marker(state),
        "last_hand": state.hands[-1].number if state.hands else None,
        "wins_low": rules.wins_with_for(state.config.options) == "low",
        "goal": sheet.goal_text(game.ruleset, state.config.options),
        "scoreboard": build_scoreboard(
            game.ruleset, state, grid.columns, sheet.goal_text(game.ruleset, state.config.options)
        ),
        "setup": [(o.label, state.config.options.get(o.name)) for o in rules.options],
        "teams_named": [" & ".join(names[p] for p in t) for t in state.config.teams or ()],
        "first_dealer": names.get(game.first_dealer_id, ""),
    }


def _wants_every_hand(request: HttpRequest) -> bool:
    """``?hands=all`` on the sheet, or on the page an htmx request comes from (so live
    updates and entries keep every hand on the screen that showed them)."""
    if request.GET.get("hands") == "all":
        return True
    htmx = getattr(request, "htmx", None)
    current = (htmx.current_url if htmx else None) or ""
    return "all" in parse_qs(urlsplit(current).query).get("hands", [])


def _render_sheet(
    request: HttpRequest, context: dict[str, Any], *, status: int = 200, partial: str = "sheet"
) -> HttpResponse:
    """The full sheet page, or for an htmx request just the ``partial``."""
    htmx = getattr(request, "htmx", None)
    template = f"games/sheet.html#{partial}" if htmx and not htmx.boosted else "games/sheet.html"
    return render(request, template, context, status=status)


# -- the sheet ----------------------------------------------------------------------------


@login_or_guest_required
@require_GET
def game_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    game = _load(request, pk)
    return _render_sheet(request, _sheet_context(request, game))


@login_or_guest_required
@require_GET
def game_live(request: HttpRequest, pk: int) -> HttpResponse:
    """What changed since a phone last looked: 204 when nothing did; otherwise the grid,
    banner and result (swapped out of band), and the entry panel only when the hand in
    play is no longer the one the phone is entering — so an entry in progress survives
    a correction made elsewhere."""
    htmx = getattr(request, "htmx", None)
    if guest_pass(request, pk) is not None:
        current = Game.objects.filter(pk=pk).values_list("version", flat=True).first()
    else:
        current = visible_game_version(request.user, pk)
    if current is None:
        if htmx:
            gone = "The link to that game was revoked." if holds_link(request, pk) else ""
            messages.info(request, gone or "That game was deleted.")
            return HttpResponseClientRedirect(reverse("home"))
        raise Http404("There is no such game, or it is not one of yours.")
    if request.GET.get("v") == str(current):
        return HttpResponse(status=204)
    game = _load(request, pk)
    state = game_state(game)
    marker = _hand_marker(state)
    seen = request.GET.get("hand", "")
    hand_changed = seen != marker
    notice = _change_notice(seen, marker) if hand_changed else ""
    context = _sheet_context(request, game, state=state, notice=notice)
    context["oob"] = True
    context["refresh_panel"] = hand_changed
    return render(request, "games/_live.html", context)


def _change_notice(seen: str, marker: str) -> str:
    if marker == "end":
        return "The game was finished on another phone."
    if seen == "end":
        return f"The game goes on: hand {marker} is in play again."
    try:
        before, now = int(seen), int(marker)
    except ValueError:
        return "The sheet was updated on another phone."
    if now > before:
        saved = f"Hand {before} was" if now == before + 1 else f"Hands {before}–{now - 1} were"
        return f"{saved} saved on another phone. The entry below is for hand {now}."
    return f"Hand {now} was undone on another phone. The entry below is for hand {now}."


# -- hands --------------------------------------------------------------------------------


def _entry_from(request: HttpRequest, game: Game) -> tuple[Entry, dict[str, Any]]:
    players = _seat_ids(game)
    entry = Entry.from_post(request.POST, players)
    return entry, hand_input_from_entry(game.ruleset, players, entry)


@login_or_guest_required
@require_POST
def hand_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Record the next hand from the entry panel (the API's ``POST …/hands/``)."""
    game = _load(request, pk)
    if not _can_change(request, game):
        return _forbidden(request, game)
    entry, hand_input = _entry_from(request, game)
    # A phone that kept the hand while offline sends it with the key it made when the
    # hand was saved (header or field): however often it is sent, it is recorded once.
    sent_key = request.headers.get("Idempotency-Key") or request.POST.get("idempotency_key")
    key = (sent_key or "").strip()[:100] or None
    if key is not None and not is_idempotency_key(key):
        key = None
    expected = (request.POST.get("number") or "").strip()
    try:
        written = hand_record(
            game=game,
            **_actor(request, game),
            hand_input=hand_input,
            idempotency_key=key,
            expected_number=optional_id(expected),
        )
    except RuleError as exc:
        state = game_state(game)
        panel = sheet.build_panel(
            game, state, player_names(game), entry=entry, error=exc, idempotency_key=key
        )
        return _render_sheet(
            request, _sheet_context(request, game, state=state, panel=panel), status=422
        )
    except StaleHandError:
        fresh = _load(request, pk)
        state = game_state(fresh)
        notice = (
            f"Not saved: hand {expected} was already saved on another phone. Check "
            f"the sheet; the entry is now for hand {_hand_marker(state)}."
        )
        if state.next_hand is not None and int(expected) > len(state.hands) + 1:
            notice = (
                f"Not saved: this was entered as hand {expected}, but the sheet's next "
                f"hand is {len(state.hands) + 1} (an earlier hand was not saved)."
            )
        elif state.next_hand is None:
            notice = f"Not saved: hand {expected} was already saved and the game is over."
        return _render_sheet(
            request, _sheet_context(request, fresh, state=state, notice=notice), status=409
        )
    except (ConflictError, IdempotencyKeyReused) as exc:
        return _render_sheet(
            request, _sheet_context(request, _load(request, pk), notice=exc.message), status=409
        )
    fresh = _load(request, pk)
    state = game_state(fresh)
    names = player_names(fresh)
    if written.replayed:
        flash = "That hand was already saved."
    else:
        flash = sheet.saved_summary(fresh, state.hands[-1], names)
        if state.finished:
            flash += " The game is over."
    if getattr(request, "htmx", None):
        return _render_sheet(request, _sheet_context(request, fresh, state=state, flash=flash))
    messages.success(request, flash)
    return redirect("game_sheet", pk=pk)


@login_or_guest_required
@require_http_methods(["GET", "POST"])
def hand_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Correct an earlier hand (the API's ``PUT …/hands/{number}/``): every total after it
    is recomputed."""
    game = _load(request, pk)
    if not _can_change(request, game):
        return _forbidden(request, game)
    state = game_state(game)
    if not 1 <= number <= len(state.hands):
        raise Http404(f"This game has no hand {number}.")
    names = player_names(game)
    if request.method == "GET":
        panel = sheet.build_panel(game, state, names, number=number)
        return _render_sheet(
            request, _sheet_context(request, game, state=state, panel=panel), partial="panel"
        )
    entry, hand_input = _entry_from(request, game)
    try:
        written = hand_replace(
            game=game,
            number=number,
            **_actor(request, game),
            hand_input=hand_input,
        )
    except RuleError as exc:
        panel = sheet.build_panel(game, state, names, number=number, entry=entry, error=exc)
        return _render_sheet(
            request, _sheet_context(request, game, state=state, panel=panel), status=422
        )
    except ConflictError as exc:
        panel = sheet.build_panel(
            game, state, names, number=number, entry=entry, message=exc.message
        )
        return _render_sheet(
            request, _sheet_context(request, game, state=state, panel=panel), status=409
        )
    except Hand.DoesNotExist:
        raise Http404(f"This game has no hand {number}.") from None
    fresh = _load(request, pk)
    flash = f"Hand {number} corrected; the totals after it are recomputed."
    if written.outcome is not None:
        flash = sheet.saved_summary(fresh, written.outcome, player_names(fresh)).replace(
            "saved", "corrected"
        )
    if getattr(request, "htmx", None):
        return _render_sheet(request, _sheet_context(request, fresh, flash=flash))
    messages.success(request, flash)
    return redirect("game_sheet", pk=pk)


@login_or_guest_required
@require_POST
def hand_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """What a hand would score, computed by the engine without saving anything."""
    game = _load(request, pk)
    if not _can_change(request, game):
        return _forbidden(request, game)
    entry, hand_input = _entry_from(request, game)
    names = player_names(game)
    inputs = [h.input for h in sorted(game.hands.all(), key=lambda h: h.number)]
    number = optional_id(request.POST.get("edit_number")) or 0
    editing = 1 <= number <= len(inputs)
    if editing:
        inputs[number - 1] = hand_input
    else:
        inputs.append(hand_input)
    preview: dict[str, Any]
    try:
        if editing:
            state = game_state(game, inputs)
        else:
            # A new hand continues from the stored state: nothing is replayed.
            state = RULESETS[game.ruleset].play(
                game_config(game), [hand_input], closed=game.closed, state=game_state(game)
            )
        outcome = state.hands[number - 1 if editing else -1]
        rows = []
        chips = {int(c["player"]): c for c in outcome.extras.get("chips") or []}
        for p in state.config.players:
            pts = int(outcome.points.get(p, 0))
            row = {
                "name": names[p],
                "points": sheet.signed(pts) if game.ruleset == "damn-you" else str(pts),
                "total": int(outcome.totals.get(p, 0)),
                "out": p == outcome.winner,
            }
            if p in chips:
                row["paid"] = chips[p]["paid"]
                row["received"] = chips[p]["received"]
            rows.append(row)
        preview = {
            "rows": rows,
            "error": "",
            "number": outcome.number,
            "chips": bool(chips),
            "team_points": [
                {"label": " & ".join(names[p] for p in team), "points": tp}
                for team, tp in zip(
                    state.config.teams or (), outcome.team_points or (), strict=False
                )
            ],
        }
    except RuleError as exc:
        preview = {"rows": [], "error": sheet.humanize_error(exc.message, names)}
    if getattr(request, "htmx", None):
        return render(request, "games/sheet.html#preview", {"preview": preview, "game": game})
    state = game_state(game)
    panel = sheet.build_panel(
        game,
        state,
        names,
        number=number if editing else None,
        entry=entry,
        idempotency_key=request.POST.get("idempotency_key") or None,
    )
    return _render_sheet(
        request, _sheet_context(request, game, state=state, panel=panel, preview=preview)
    )


@login_or_guest_required
@require_POST
def hand_undo_view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Undo the last hand. The number is in the URL, so a second tap cannot undo another."""
    game = _load(request, pk)
    if not _can_change(request, game):
        return _forbidden(request, game)
    try:
        hand_undo(game=game, number=number, **_actor(request, game))
    except Hand.DoesNotExist:
        return _after_action(
            request, pk, f"Hand {number} is already gone: nothing undone.", error=True
        )
    except ConflictError as exc:
        return _after_action(request, pk, exc.message, error=True)
    return _after_action(request, pk, f"Hand {number} undone. Enter it again below.")


def _after_action(request: HttpRequest, pk: int, text: str, *, error: bool = False) -> HttpResponse:
    if getattr(request, "htmx", None):
        fresh = _load(request, pk)
        ctx = _sheet_context(
            request, fresh, flash="" if error else text, notice=text if error else ""
        )
        return _render_sheet(request, ctx, status=409 if error else 200)
    (messages.error if error else messages.success)(request, text)
    return redirect("game_sheet", pk=pk)


@login_required
@require_POST
def game_close_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _load(request, pk)
    if not can_change_game(request.user, game):
        return _forbidden(request, game)
    try:
        game_close(game=game, user=request.user)  # type: ignore[arg-type]
    except (ConflictError, RuleError) as exc:
        return _after_action(request, pk, sheet.humanize_error(exc.message, {}), error=True)
    return _after_action(request, pk, "Game ended: the standings are the final ranking.")


@login_required
@require_POST
def game_reopen_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _load(request, pk)
    if not can_change_game(request.user, game):
        return _forbidden(request, game)
    try:
        game_reopen(game=game, user=request.user)  # type: ignore[arg-type]
    except (ConflictError, RuleError) as exc:
        return _after_action(request, pk, sheet.humanize_error(exc.message, {}), error=True)
    return _after_action(request, pk, "Game reopened: play on.")


@login_required
@require_http_methods(["GET", "POST"])
def game_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _load(request, pk)
    if not can_change_game(request.user, game):
        return _forbidden(request, game)
    if request.method == "GET":
        return render(
            request,
            "games/delete.html",
            {
                "game": game,
                "seated": list(player_names(game).values()),
            },
        )
    game_delete(game=game, user=request.user)  # type: ignore[arg-type]
    messages.success(request, f"{game.get_ruleset_display()} #{pk} deleted.")
    if getattr(request, "htmx", None):
        return HttpResponseClientRedirect(reverse("home"))
    return redirect("home")


# -- lists --------------------------------------------------------------------------------


def _ago(moment: datetime) -> str:
    if timezone.now() - moment < timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment).split(',')[0]} ago"


def game_summaries(games: QuerySet[Game]) -> list[dict[str, Any]]:
    """Rows for a list of games: the game, who sits at it, and who won."""
    rows = []
    for game in games.select_related("league").prefetch_related("seats__player"):
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        rules = RULESETS[game.ruleset]
        variant = rules.variant(game.variant or None) if rules.variants else None
        rows.append(
            {
                "game": game,
                "name": rules.name,
                "variant": variant.name if variant else "",
                "hands_total": variant.hands if variant else None,
                "players": ", ".join(s.player.name for s in seats),
                "winners": ", ".join(s.player.name for s in seats if s.won),
                "when": _ago(game.finished_at or game.updated_at),
            }
        )
    return rows


@login_required
@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status", "")
    games = games_visible_to(request.user).order_by("-updated_at", "-id")
    if status in (GameStatus.IN_PROGRESS, GameStatus.FINISHED):
        games = games.filter(status=status)
    page = Paginator(games, 25).get_page(request.GET.get("page"))
    ids = [g.pk for g in page.object_list]
    rows = game_summaries(Game.objects.filter(pk__in=ids).order_by("-updated_at", "-id"))
    return render(
        request,
        "games/list.html",
        {
            "rows": rows,
            "page": page,
            "status": status,
        },
    )


# -- new game -----------------------------------------------------------------------------


def known_players(user: Any) -> QuerySet[Player]:
    """The players a user can seat: their own, the ones they added and their leagues'
    members (``players_usable_by``)."""
    return players_usable_by(user).order_by("name", "id")


class _NewGameError(Exception):
    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _create_game(user: Any, rules: Ruleset, entry: NewGameEntry, known: dict[int, Player]) -> Game:
    """Seat the picked players, create the typed ones, and start the game — all or
    nothing: if the engine refuses the set-up, no new player is left behind."""
    names: dict[int, str] = {p.pk: p.name for p in known.values()}
    by_name: dict[str, list[Player]] = {}
    for p in known.values():
        by_name.setdefault(p.name.casefold(), []).append(p)
    try:
        with transaction.atomic():
            ids: list[int] = []
            rows: list[tuple[int, SeatEntry]] = entry.filled_seats()
            created: dict[str, int] = {}
            for index, seat in rows:
                label = f"Seat {index + 1}"
                if seat.player and seat.name:
                    raise RuleError(f"{label}: pick a player or type a new name, not both", "seats")
                if seat.player:
                    pid = optional_id(seat.player) or 0
                    if pid not in known:
                        raise RuleError(f"{label}: pick a player from the list", "seats")
                else:
                    key = " ".join(seat.name.split()).casefold()
                    matches = by_name.get(key, [])
                    if key in created:
                        pid = created[key]
                    elif len(matches) == 1:
                        # A name the user already knows is that player, not a namesake.
                        pid = matches[0].pk
                    else:
                        player = player_create(name=seat.name, created_by=user)
                        pid = created[key] = player.pk
                        names[pid] = player.name
                ids.append(pid)
            if not ids:
                raise RuleError("Seat the players: pick them or type their names", "seats")
            teams: list[list[int]] | None = None
            if entry.partners:
                groups: dict[str, list[int]] = {}
                for (index, seat), pid in zip(rows, ids, strict=True):
                    if not seat.team:
                        raise RuleError(f"Seat {index + 1}: choose a team", "teams")
                    groups.setdefault(seat.team, []).append(pid)
                teams = [groups[k] for k in sorted(groups)]
            dealer: int | None = None
            dealer_row = whole_number(entry.first_dealer) or 0
            for (index, _seat), pid in zip(rows, ids, strict=True):
                if index == dealer_row:
                    dealer = pid
            if dealer is None:
                raise RuleError(
                    "The first dealer's seat is empty: choose a seated player", "first_dealer"
                )
            league: int | None = None
            if entry.league:
                league = optional_id(entry.league)
                if league is None:
                    raise RuleError("Choose a league from the list", "league")
            return game_create(
                owner=user,
                ruleset=rules.slug,
                players=ids,
                variant=entry.variant or None,
                options=entry.options_payload(),
                teams=teams,
                first_dealer=dealer,
                league=league,
                start_token=entry.start_token,
            )
    except RuleError as exc:
        raise _NewGameError(sheet.humanize_error(exc.message, names), exc.field) from None


def _option_fields(rules: Ruleset, entry: NewGameEntry) -> list[dict[str, Any]]:
    fields = []
    for option in rules.options:
        value = entry.options.get(option.name, "")
        if option.minimum is not None:
            fields.append(
                {"option": option, "kind": "number", "value": value, "default": option.default}
            )
            continue
        choices = []
        if option.default is None:
            choices.append({"value": "", "label": "Automatic (by number of players)"})
        for choice in option.choices:
            label = str(choice)
            if option.name == "target_wins" and choice == 0:
                label = "0 — no target, end by hand"
            if choice == option.default:
                label += " (default)"
            choices.append({"value": str(choice), "label": label})
        fields.append(
            {
                "option": option,
                "kind": "select",
                "value": value,
                "choices": choices,
                "default": option.default,
            }
        )
    return fields


def _prefill_from(request: HttpRequest, rules: Ruleset, entry: NewGameEntry) -> None:
    """ "Play again": the seats, variant, options, teams and league of an earlier game;
    or, from a league's page, that league."""
    league = (request.GET.get("league") or "").strip()
    league_id = optional_id(league)
    if league_id is not None and leagues_visible_to(request.user).filter(pk=league_id).exists():
        entry.league = str(league_id)
    pk = optional_id(request.GET.get("from"))
    if pk is None:
        return
    game = (
        game_with_related(games_visible_to(request.user)).filter(pk=pk, ruleset=rules.slug).first()
    )
    if game is None:
        return
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    entry.seats = [
        SeatEntry(
            player=str(s.player_id), team=str(s.team + 1) if s.team is not None else str(i % 2 + 1)
        )
        for i, s in enumerate(seats)
    ]
    entry.variant = game.variant
    for option in rules.options:
        if option.name in game.options and option.name != "decks":
            entry.options[option.name] = str(game.options[option.name])
    entry.partners = bool(game.teams)
    entry.league = str(game.league_id or "")
    # The deal moves on: whoever sits after the last game's first dealer starts.
    ids = [s.player_id for s in seats]
    if game.first_dealer_id in ids:
        entry.first_dealer = str((ids.index(game.first_dealer_id) + 1) % len(ids))


def _started_with(user: Any, token: str) -> Game | None:
    """The game this user already started from the new-game form with this token."""
    if not token:
        return None
    return games_visible_to(user).filter(owner_id=user.pk, start_token=token).first()


def _to_sheet(request: HttpRequest, game: Game) -> HttpResponse:
    if getattr(request, "htmx", None):
        return HttpResponseClientRedirect(reverse("game_sheet", args=[game.pk]))
    return redirect("game_sheet", pk=game.pk)


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    slug = request.POST.get("ruleset") or request.GET.get("ruleset") or ""
    if slug not in RULESETS:
        return render(
            request,
            "games/new.html",
            {
                "choosing": True,
                "league": (request.GET.get("league") or "").strip(),
                "rulesets": [
                    {
                        **r.metadata(),
                        "goal": sheet.goal_text(r.slug, r.default_options(r.min_players)),
                    }
                    for r in RULESETS.values()
                ],
            },
        )
    rules = RULESETS[slug]
    known = {p.pk: p for p in known_players(request.user)}
    own = (
        Player.objects.filter(user_id=request.user.pk).first()
        if request.user.pk is not None
        else None
    )
    error: _NewGameError | None = None
    status = 200
    if request.method == "POST":
        entry = NewGameEntry.from_post(request.POST, rules)
        if "add_seat" in request.POST:
            if len(entry.seats) < rules.max_players:
                entry.seats.append(SeatEntry(team=str(len(entry.seats) % 2 + 1)))
        else:
            started = _started_with(request.user, entry.start_token)
            if started is not None:
                messages.info(request, "That game was already started: here it is.")
                return _to_sheet(request, started)
            try:
                game = _create_game(request.user, rules, entry, known)
            except _NewGameError as exc:
                error, status = exc, 422
            except IntegrityError:
                # The same form sent twice at once: the other request started the game.
                started = _started_with(request.user, entry.start_token)
                if started is None:
                    raise
                return _to_sheet(request, started)
            else:
                messages.success(request, "Game started. Deal the first hand!")
                return _to_sheet(request, game)
    else:
        entry = NewGameEntry.initial(rules, own_player=own.pk if own else None)
        _prefill_from(request, rules, entry)
    variants = [{"variant": v, "default": v.slug == rules.default_variant} for v in rules.variants]
    context = {
        "choosing": False,
        "rules": rules,
        "meta": rules.metadata(),
        "entry": entry,
        "variants": variants,
        "option_fields": _option_fields(rules, entry),
        "players": list(known.values()),
        "leagues": list(leagues_visible_to(request.user).order_by("name")),
        "error": error,
        "team_choices": [str(i) for i in range(1, max(2, rules.max_players // 2) + 1)],
        "can_add_seat": len(entry.seats) < rules.max_players,
    }
    htmx = getattr(request, "htmx", None)
    template = "games/new.html#form" if htmx and request.method == "POST" else "games/new.html"
    return render(request, template, context, status=status)


urlpatterns = [
    path("games/", game_list, name="game_list"),
    path("games/new/", game_new, name="game_new"),
    path("games/<int:pk>/", game_sheet, name="game_sheet"),
    path("games/<int:pk>/live/", game_live, name="game_live"),
    path("games/<int:pk>/hands/", hand_new, name="game_hand_new"),
    path("games/<int:pk>/hands/preview/", hand_preview, name="game_hand_preview"),
    path("games/<int:pk>/hands/<int:number>/", hand_edit, name="game_hand_edit"),
    path("games/<int:pk>/hands/<int:number>/undo/", hand_undo_view, name="game_hand_undo"),
    path("games/<int:pk>/close/", game_close_view, name="game_close"),
    path("games/<int:pk>/reopen/", game_reopen_view, name="game_reopen"),
    path("games/<int:pk>/delete/", game_delete_view, name="game_delete"),
]
