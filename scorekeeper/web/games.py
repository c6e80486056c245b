"""Score-sheet pages: keep a game's sheet at the table, correct and undo hands, close,
reopen and delete the game (starting one is ``web.new_game``, the list ``web.game_list``).

Every page works as plain HTML forms and links; htmx only swaps parts of the sheet in
place (one view renders the full page, or for an htmx request just the partial). The
writes go through the same services as the API (``services.games``/``services.players``),
so the engine scores both the same way. Phones watching a sheet poll ``game_live``: it
answers 204 while ``Game.version`` is unchanged, so it is stateless and cheap however
many processes serve the app. What the sheet shows is read in ``web.sheet_context``.
"""

from __future__ import annotations

from copy import copy
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import (
    condition,
    require_GET,
    require_http_methods,
    require_POST,
)
from django_htmx.http import HttpResponseClientRedirect, reswap
from django_htmx.middleware import HtmxDetails

from games import RULESETS, GameState, RuleError
from scorekeeper.errors import ConflictError, IdempotencyKeyReused, StaleHandError, UnlikelyHand
from scorekeeper.live.delta import delta_from, grid_delta
from scorekeeper.models import Game, Hand
from scorekeeper.presenters import presenter_for
from scorekeeper.presenters.hand_input import HandForm
from scorekeeper.retry import once_more_on_deadlock
from scorekeeper.selectors.access import GameAccess
from scorekeeper.selectors.games import (
    game_config,
    game_state,
    player_names,
)
from scorekeeper.selectors.table import read_with_game
from scorekeeper.services.games import (
    HandWritten,
    game_close,
    game_delete,
    game_reopen,
    hand_record,
    hand_replace,
    hand_undo,
)
from scorekeeper.validation import optional_id, validate_idempotency_key
from scorekeeper.web import live_answer, sheet_panel
from scorekeeper.web.access import (
    NOT_YOURS,
    game_page,
    holds_link,
    seated_game,
    writer,
)
from scorekeeper.web.live_answer import LiveRequest
from scorekeeper.web.sheet_context import (
    after_write,
    hand_marker,
    keep_written,
    reload_access,
    render_sheet,
    rows_by_version,
    seat_ids,
    sheet_context,
    sheet_game,
)


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


# -- the sheet ----------------------------------------------------------------------------


@require_GET
@game_page(games=sheet_game())
def game_sheet(request: HttpRequest, access: GameAccess) -> HttpResponse:
    context = sheet_context(request, access)
    context["tools_row"] = read_with_game(access.game)  # read by sheet_game()
    return render_sheet(request, context)


@require_GET
@cache_control(private=True, no_cache=True)
@condition(etag_func=live_answer.answer_etag)
def game_live(request: LiveRequest, pk: int) -> HttpResponse:
    """What changed since a phone last looked: 204 when nothing did; otherwise the grid,
    banner and result (swapped out of band), and the entry panel only when the hand in
    play is no longer the one the phone is entering — so an entry in progress survives
    a correction made elsewhere. One render per key of ``web.live_answer``, shared."""
    if not request.user.is_authenticated and not holds_link(request, pk):
        return redirect_to_login(request.get_full_path())
    found = live_answer.poll_access(request, pk)
    if found is None:
        if getattr(request, "htmx", None):
            if holds_link(request, pk):  # the page says why, and keeps an entry begun
                return HttpResponseClientRedirect(reverse("game_access_ended", args=[pk]))
            messages.info(request, _("That game was deleted."))
            return HttpResponseClientRedirect(reverse("home"))
        raise Http404(NOT_YOURS)
    if request.GET.get("v") == str(found.game.version):
        return HttpResponse(status=204)
    return HttpResponse(_live_body(request, found))


def _live_body(request: HttpRequest, found: GameAccess, *, written: bool = False) -> str:
    """The live answer to ``request`` (its query: the hand its entry is for, the rows
    ``from``…``to`` it asks for) at the game's version: the kept fragment of its key, or
    rendered once and kept for every phone of that key. For a version ``written`` by
    this request nothing can be kept yet: rendered and kept without a look first."""
    current = found.game.version

    def parts() -> str:  # called by the template only when its fragment is not kept
        first = delta_from(request, current)
        context = sheet_context(request, found, since=first)
        marker = context["hand_marker"]
        seen = request.GET.get("hand", "")
        hand_changed = seen != marker
        notice = _change_notice(seen, marker, enters=found.may_record) if hand_changed else ""
        context["notice"] = notice
        context["oob"] = True
        context["refresh_panel"] = hand_changed
        context["tools_row"] = live_answer.tools_row(request, found)  # read for the key
        if first is not None:
            context["grid_delta"] = grid_delta(context["grid"], first)
        return render_to_string("games/_live_parts.html", context, request)

    key = live_answer.answer_key(request, found)
    if written:
        body = parts()
        live_answer.keep_new(key, body)
        return body
    # The kept fragment needs nothing of the request: no context processors run for it.
    context = {"key": key, "timeout": live_answer.TIMEOUT, "parts": parts}
    with live_answer.RENDERS.one_at_a_time(key):  # the table's phones ask at once
        return render_to_string("games/_live.html", context)


def _saved_answer(request: HttpRequest, access: GameAccess, written: HandWritten) -> str:
    """What the phone that saved a hand gets: the live answer every other phone at the
    table gets for the new version (the same kept fragment: the rows from the saved hand
    on when the phone sent the version before the write as the one it ``shown``, else
    the whole grid; the next hand's entry), as a phone whose entry was for that hand
    asks it after the hand's event; the view adds its own notice (what was saved) in
    place of the one for the others. Nothing is swapped in place of the sheet
    (``HX-Reswap: none``): every part goes out of band, the rows merged into the grid
    (``static/js/live.js``)."""
    assert written.outcome is not None
    after = keep_written(access, written)
    number = str(written.outcome.number)
    query = QueryDict(mutable=True)
    query.update({"v": str(written.base_version), "hand": number})
    if request.POST.get("shown") == str(written.base_version):  # it had every other row
        query.update({"from": number, "to": str(after.game.version)})
    asked = copy(request)
    asked.GET = query  # type: ignore[assignment]  # (a QueryDict all the same)
    return _live_body(asked, after, written=True)


def _change_notice(seen: str, marker: str, *, enters: bool) -> str:
    """What changed, said to a phone whose sheet was behind; the entry is named only to
    a phone that has one (``enters``)."""
    if marker == "end":
        return _("The game was finished on another phone.")
    if seen == "end":
        return _("The game goes on: hand %(hand)s is in play again.") % {"hand": marker}
    try:
        before, now = int(seen), int(marker)
    except ValueError:
        return _("The sheet was updated on another phone.")
    entry = _("The entry below is for hand %(hand)s.") % {"hand": now} if enters else ""
    if now > before:
        if now == before + 1:
            said = _("Hand %(hand)s was saved on another phone.") % {"hand": before}
        else:
            said = _("Hands %(first)s–%(last)s were saved on another phone.") % {
                "first": before,
                "last": now - 1,
            }
    else:
        said = _("Hand %(hand)s was undone on another phone.") % {"hand": now}
    return f"{said} {entry}" if entry else said


# -- hands --------------------------------------------------------------------------------


def _entry_from(request: HttpRequest, game: Game) -> tuple[HandForm, dict[str, Any]]:
    """The game's entry form as posted, and the hand input it makes."""
    form = presenter_for(game.ruleset).entry_form(seat_ids(game), request.POST)
    return form, form.hand_input()


def _state_now(game: Game) -> GameState:
    """The game's state as the sheet shows it (kept per version), for a refused entry."""
    return rows_by_version(game).state


@require_POST
@game_page(may="record", games=seated_game())
def hand_new(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """Record the next hand from the entry panel (the API's ``POST …/hands/``). The game
    row is read with its seats, not its hands: the write reads the last hand's stored
    outcome alone, and the answer is the live answer of the new version."""
    game = access.game
    form, hand_input = _entry_from(request, game)
    # A phone that kept the hand while offline sends it with the key it made when the
    # hand was saved (header or field): however often it is sent, it is recorded once.
    sent_key = request.headers.get("Idempotency-Key") or request.POST.get("idempotency_key")
    key = (sent_key or "").strip() or None
    if key is not None:  # none: a form sent without one (it is recorded all the same)
        try:
            validate_idempotency_key(key)
        except ValidationError as error:  # the API's rule; shown as the entry's other errors
            state = _state_now(game)
            refused = _("The hand's Idempotency-Key was refused: %(reason)s.") % {
                "reason": error.messages[0]
            }
            panel = sheet_panel.build_panel(
                game, state, player_names(game), form=form, message=refused
            )
            return render_sheet(
                request, sheet_context(request, access, state=state, panel=panel), status=422
            )
    expected = (request.POST.get("number") or "").strip()
    try:
        written, answer = _record_and_answer(
            request,
            access,
            hand_input=hand_input,
            idempotency_key=key,
            expected_number=optional_id(expected),
            confirm=request.POST.get("confirm", ""),
        )
    except UnlikelyHand as exc:
        state = _state_now(game)
        panel = sheet_panel.build_panel(
            game, state, player_names(game), form=form, idempotency_key=key, unlikely=exc.items
        )
        return render_sheet(
            request, sheet_context(request, access, state=state, panel=panel), status=422
        )
    except RuleError as exc:
        state = _state_now(game)
        panel = sheet_panel.build_panel(
            game, state, player_names(game), form=form, error=exc, idempotency_key=key
        )
        return render_sheet(
            request, sheet_context(request, access, state=state, panel=panel), status=422
        )
    except StaleHandError:
        fresh = reload_access(access)
        state = game_state(fresh.game)
        notice = _(
            "Not saved: hand %(hand)s was already saved on another phone. Check "
            "the sheet; the entry is now for hand %(next)s."
        ) % {"hand": expected, "next": hand_marker(state)}
        if state.next_hand is not None and int(expected) > len(state.hands) + 1:
            notice = _(
                "Not saved: this was entered as hand %(hand)s, but the sheet's next "
                "hand is %(next)s (an earlier hand was not saved)."
            ) % {"hand": expected, "next": len(state.hands) + 1}
        elif state.next_hand is None:
            notice = _("Not saved: hand %(hand)s was already saved and the game is over.") % {
                "hand": expected
            }
        return render_sheet(
            request, sheet_context(request, fresh, state=state, notice=notice), status=409
        )
    except (ConflictError, IdempotencyKeyReused) as exc:
        return render_sheet(
            request, sheet_context(request, reload_access(access), notice=exc.message), status=409
        )
    if written.outcome is None:
        flash = _("That hand was already saved.")
    else:
        flash = presenter_for(game.ruleset).saved_summary(written.outcome, player_names(game))
        if written.state.finished:
            flash = _("%(summary)s The game is over.") % {"summary": flash}
    if getattr(request, "htmx", None):
        if answer is None:  # a key sent again: nothing was written
            return render_sheet(request, sheet_context(request, access, flash=flash))
        own = render_to_string("games/sheet.html#notice", {"flash": flash, "oob": True})
        return reswap(HttpResponse(answer + own), "none")
    messages.success(request, flash)
    return redirect("game_sheet", pk=game.pk)


@once_more_on_deadlock
def _record_and_answer(
    request: HttpRequest, access: GameAccess, **hand: Any
) -> tuple[HandWritten, str | None]:
    """Record the hand (``services.games.hand_record``) and, for the sheet's htmx form,
    make the live answer of the new version (:func:`_saved_answer`) in the same
    transaction: the hand's event (``pg_notify``) reaches the other phones when it
    commits, so they find that answer kept and none of them renders it again (made
    after the commit, the three phones asking at once each rendered it too). The row
    lock is held the few milliseconds of that render longer."""
    with transaction.atomic():
        written = hand_record(game=access.game, **writer(access), **hand)
        answer = None
        if written.outcome is not None and getattr(request, "htmx", None):
            answer = _saved_answer(request, access, written)
        return written, answer


@require_http_methods(["GET", "POST"])
@game_page(may="change")
def hand_edit(request: HttpRequest, access: GameAccess, number: int) -> HttpResponse:
    """Correct an earlier hand (the API's ``PUT …/hands/{number}/``): every total after it
    is recomputed."""
    game = access.game
    state = game_state(game)
    if not 1 <= number <= len(state.hands):
        raise Http404(f"This game has no hand {number}.")
    names = player_names(game)
    if request.method == "GET":
        panel = sheet_panel.build_panel(game, state, names, number=number)
        return render_sheet(
            request, sheet_context(request, access, state=state, panel=panel), partial="panel"
        )
    form, hand_input = _entry_from(request, game)
    try:
        written = hand_replace(
            game=game,
            number=number,
            **writer(access),
            hand_input=hand_input,
            confirm=request.POST.get("confirm", ""),
        )
    except UnlikelyHand as exc:
        panel = sheet_panel.build_panel(
            game, state, names, number=number, form=form, unlikely=exc.items
        )
        return render_sheet(
            request, sheet_context(request, access, state=state, panel=panel), status=422
        )
    except RuleError as exc:
        panel = sheet_panel.build_panel(game, state, names, number=number, form=form, error=exc)
        return render_sheet(
            request, sheet_context(request, access, state=state, panel=panel), status=422
        )
    except ConflictError as exc:
        panel = sheet_panel.build_panel(
            game, state, names, number=number, form=form, message=exc.message
        )
        return render_sheet(
            request, sheet_context(request, access, state=state, panel=panel), status=409
        )
    except Hand.DoesNotExist:
        raise Http404(f"This game has no hand {number}.") from None
    flash = _("Hand %(hand)s corrected; the totals after it are recomputed.") % {"hand": number}
    if written.outcome is not None:
        flash = presenter_for(game.ruleset).saved_summary(written.outcome, names, corrected=True)
    if getattr(request, "htmx", None):
        after, state = after_write(access, written)
        return render_sheet(request, sheet_context(request, after, state=state, flash=flash))
    messages.success(request, flash)
    return redirect("game_sheet", pk=game.pk)


@require_POST
@game_page(may="record")
def hand_preview(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """What a hand would score, computed by the engine without saving anything."""
    game = access.game
    form, hand_input = _entry_from(request, game)
    names = player_names(game)
    stored = [h.input for h in sorted(game.hands.all(), key=lambda h: h.number)]
    inputs = list(stored)
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
        if not editing or outcome.input != stored[number - 1]:
            # What only an entry must say (a stored hand as it stands is not refused).
            RULESETS[game.ruleset].check_entry(state.config, outcome)
        rows = []
        chips = {int(c["player"]): c for c in outcome.extras.get("chips") or []}
        for p in state.config.players:
            pts = int(outcome.points.get(p, 0))
            row = {
                "name": names[p],
                "points": presenter_for(game.ruleset).points_text(pts),
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
        more = len(exc.problems) - 1
        error = exc.text(names)
        preview = {"rows": [], "error": error + (f" (and {more} more)" if more else "")}
    if getattr(request, "htmx", None):
        return render(request, "games/sheet.html#preview", {"preview": preview, "game": game})
    state = game_state(game)
    panel = sheet_panel.build_panel(
        game,
        state,
        names,
        number=number if editing else None,
        form=form,
        idempotency_key=request.POST.get("idempotency_key") or None,
    )
    return render_sheet(
        request, sheet_context(request, access, state=state, panel=panel, preview=preview)
    )


@require_POST
@game_page(may="change", rows=False)
def hand_undo_view(request: HttpRequest, access: GameAccess, number: int) -> HttpResponse:
    """Undo the last hand. The number is in the URL, so a second tap cannot undo another."""
    try:
        hand_undo(game=access.game, number=number, **writer(access))
    except Hand.DoesNotExist:
        return _after_action(
            request,
            access,
            _("Hand %(hand)s is already gone: nothing undone.") % {"hand": number},
            error=True,
        )
    except ConflictError as exc:
        return _after_action(request, access, exc.message, error=True)
    # The entry shows the undone hand again: fix what was wrong and save it.
    text = _("Hand %(hand)s undone: its entry is back below to fix and save again.") % {
        "hand": number
    }
    return _after_action(request, access, text, refill=number)


def _after_action(
    request: HttpRequest,
    access: GameAccess,
    text: str,
    *,
    error: bool = False,
    refill: int | None = None,
) -> HttpResponse:
    if getattr(request, "htmx", None):
        ctx = sheet_context(
            request,
            reload_access(access),
            flash="" if error else text,
            notice=text if error else "",
            refill=refill,
        )
        return render_sheet(request, ctx, status=409 if error else 200)
    (messages.error if error else messages.success)(request, text)
    sheet_url = reverse("game_sheet", args=[access.game.pk])
    return redirect(f"{sheet_url}?refill={refill}" if refill else sheet_url)


@login_required
@require_POST
@game_page(may="manage", rows=False)
def game_close_view(request: HttpRequest, access: GameAccess) -> HttpResponse:
    try:
        game_close(game=access.game, user=access.user)
    except ConflictError as exc:
        return _after_action(request, access, exc.message, error=True)
    except RuleError as exc:
        return _after_action(request, access, exc.text({}), error=True)
    return _after_action(request, access, _("Game ended: the standings are the final ranking."))


@login_required
@require_POST
@game_page(may="manage", rows=False)
def game_reopen_view(request: HttpRequest, access: GameAccess) -> HttpResponse:
    try:
        game_reopen(game=access.game, user=access.user)
    except ConflictError as exc:
        return _after_action(request, access, exc.message, error=True)
    except RuleError as exc:
        return _after_action(request, access, exc.text({}), error=True)
    return _after_action(request, access, _("Game reopened: play on."))


@login_required
@require_http_methods(["GET", "POST"])
@game_page(may="manage")
def game_delete_view(request: HttpRequest, access: GameAccess) -> HttpResponse:
    game, pk = access.game, access.game.pk
    if request.method == "GET":
        return render(
            request,
            "games/delete.html",
            {
                "game": game,
                "seated": list(player_names(game).values()),
            },
        )
    game_delete(game=game, user=access.user)
    messages.success(
        request,
        _("%(game)s #%(number)s deleted.") % {"game": game.get_ruleset_display(), "number": pk},
    )
    if getattr(request, "htmx", None):
        return HttpResponseClientRedirect(reverse("home"))
    return redirect("home")


urlpatterns = [
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
