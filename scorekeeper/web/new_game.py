"""Starting a game: choose the game, seat the players, set the house rules.

Starting is idempotent: the form carries a start token, so a double tap or a retry
after lost signal opens the game already started."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from games import RULESETS, RuleError, Ruleset, get_ruleset
from games.base import whole_number
from scorekeeper.models import Game, Night, Player
from scorekeeper.presenters import presenter_for
from scorekeeper.selectors.games import (
    game_with_related,
    games_visible_to,
    players_usable_by,
)
from scorekeeper.selectors.league_roles import leagues_recordable_by
from scorekeeper.services.games import (
    game_create,
)
from scorekeeper.services.nights import night_usable
from scorekeeper.services.players import player_create
from scorekeeper.validation import optional_id
from scorekeeper.web import entry_checks
from scorekeeper.web.forms import NewGameEntry, SeatEntry

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
                seat_no = {"seat": index + 1}
                if seat.player and seat.name:
                    raise RuleError(
                        _("Seat %(seat)s: pick a player or type a new name, not both") % seat_no,
                        "seats",
                    )
                if seat.player:
                    pid = optional_id(seat.player) or 0
                    if pid not in known:
                        raise RuleError(
                            _("Seat %(seat)s: pick a player from the list") % seat_no, "seats"
                        )
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
                raise RuleError(_("Seat the players: pick them or type their names"), "seats")
            teams: list[list[int]] | None = None
            if entry.partners:
                groups: dict[str, list[int]] = {}
                for (index, seat), pid in zip(rows, ids, strict=True):
                    if not seat.team:
                        raise RuleError(
                            _("Seat %(seat)s: choose a team") % {"seat": index + 1}, "teams"
                        )
                    groups.setdefault(seat.team, []).append(pid)
                teams = [groups[k] for k in sorted(groups)]
            dealer: int | None = None
            dealer_row = whole_number(entry.first_dealer) or 0
            for (index, _seat), pid in zip(rows, ids, strict=True):
                if index == dealer_row:
                    dealer = pid
            if dealer is None:
                raise RuleError(
                    _("The first dealer's seat is empty: choose a seated player"), "first_dealer"
                )
            league: int | None = None
            if entry.league:
                league = optional_id(entry.league)
                if league is None:
                    raise RuleError(_("Choose a league from the list"), "league")
            night: int | None = None
            if entry.night:
                night = optional_id(entry.night)
                if night is None:
                    raise RuleError(_("That game night is not one of yours"), "night")
            return game_create(
                owner=user,
                ruleset=rules.slug,
                players=ids,
                variant=entry.variant or None,
                options=entry.options_payload(),
                teams=teams,
                first_dealer=dealer,
                league=league,
                night=night,
                start_token=entry.start_token,
            )
    except RuleError as exc:
        text = entry_checks.option_words(exc.text(names), rules)
        raise _NewGameError(text, exc.field) from None


def _option_fields(rules: Ruleset, entry: NewGameEntry) -> list[dict[str, Any]]:
    shows = presenter_for(rules.slug)
    fields: list[dict[str, Any]] = []
    for option in rules.options:
        value = entry.options.get(option.name, "")
        if option.kind == "text":
            fields.append(
                {
                    "option": option,
                    "kind": "textarea" if option.multiline else "text",
                    "value": value,
                    "default": None,
                }
            )
            continue
        if option.minimum is not None:
            fields.append(
                {"option": option, "kind": "number", "value": value, "default": option.default}
            )
            continue
        choices = []
        if option.default is None:
            choices.append({"value": "", "label": _("Automatic (by number of players)")})
        for choice in option.choices:
            label = shows.option_choice(option.name, choice)
            if choice == option.default:
                label = _("%(choice)s (default)") % {"choice": label}
            choices.append({"value": str(choice), "label": label})
        fields.append(
            {
                "option": option,
                "kind": "select",
                "value": value,
                "choices": choices,
                "default": None
                if option.default is None
                else shows.option_choice(option.name, option.default),
            }
        )
    return fields


def _prefill_from(request: HttpRequest, rules: Ruleset, entry: NewGameEntry) -> None:
    """ "Play again" and "New game" after a game (``?from=``): its seats, league and night,
    the deal moved on — and, the same game again, its variant, options and teams; or,
    from a league's or a night's page, that league or night."""
    league = (request.GET.get("league") or "").strip()
    league_id = optional_id(league)
    if league_id is not None and leagues_recordable_by(request.user).filter(pk=league_id).exists():
        entry.league = str(league_id)
    night = _night_offered(request, optional_id(request.GET.get("night")))
    if night is not None:
        entry.night = str(night.pk)
        if night.league_id is not None and not entry.league:
            entry.league = str(night.league_id)
    pk = optional_id(request.GET.get("from"))
    if pk is None:
        return
    game = game_with_related(games_visible_to(request.user)).filter(pk=pk).first()
    if game is None:
        return
    seats = sorted(game.seats.all(), key=lambda s: s.position)[: rules.max_players]
    same_game = game.ruleset == rules.slug
    entry.seats = [
        SeatEntry(
            player=str(s.player_id),
            team=str(s.team + 1) if same_game and s.team is not None else str(i % 2 + 1),
        )
        for i, s in enumerate(seats)
    ]
    entry.seats += [
        SeatEntry(team=str(i % 2 + 1)) for i in range(len(entry.seats), rules.min_players)
    ]
    if same_game:
        entry.variant = game.variant
        for option in rules.options:
            if option.name in game.options and option.name != "decks":
                entry.options[option.name] = str(game.options[option.name])
        entry.partners = bool(game.teams)
    entry.league = str(game.league_id or "")
    # The next game of the night the earlier one was part of.
    if not entry.night and _night_offered(request, game.night_id) is not None:
        entry.night = str(game.night_id)
    # The deal moves on: whoever sits after the last game's first dealer starts.
    ids = [s.player_id for s in seats]
    if game.first_dealer_id in ids:
        entry.first_dealer = str((ids.index(game.first_dealer_id) + 1) % len(ids))


def _night_offered(request: HttpRequest, night_id: int | None) -> Night | None:
    """The night ``night_id`` if this user may add a game to it."""
    if night_id is None:
        return None
    try:
        return night_usable(request.user, night_id)  # type: ignore[arg-type]
    except RuleError:
        return None


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
        # A game the engine does not have (an old link, a hand-made form): say so.
        refused = ""
        if slug:
            try:
                get_ruleset(slug)
            except RuleError as exc:
                refused = f"{exc.field}: {exc.message}"
        return render(
            request,
            "games/new.html",
            {
                "choosing": True,
                "refused": refused,
                "league": (request.GET.get("league") or "").strip(),
                "night": (request.GET.get("night") or "").strip(),
                "from_game": (request.GET.get("from") or "").strip(),
                "rulesets": [
                    {
                        **r.metadata(),
                        "goal": presenter_for(r.slug).goal(r.default_options(r.min_players)),
                    }
                    for r in RULESETS.values()
                ],
            },
            status=400 if refused else 200,
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
                messages.info(request, _("That game was already started: here it is."))
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
                messages.success(request, _("Game started. Deal the first hand!"))
                return _to_sheet(request, game)
    else:
        entry = NewGameEntry.initial(rules, own_player=own.pk if own else None)
        _prefill_from(request, rules, entry)
    variants = [{"variant": v, "default": v.slug == rules.default_variant} for v in rules.variants]
    picked = {seat.player for seat in entry.seats}
    context = {
        "choosing": False,
        "rules": rules,
        "rules_name": _(rules.name),
        "meta": rules.metadata(),
        "shows": presenter_for(rules.slug),
        "entry": entry,
        "variants": variants,
        "option_fields": _option_fields(rules, entry),
        # Hidden players stay out of the picker, unless a seat has one (a rematch).
        "players": [p for p in known.values() if not p.hidden or str(p.pk) in picked],
        "leagues": list(leagues_recordable_by(request.user).order_by("name")),
        "night": _night_offered(
            request, optional_id(entry.night or request.POST.get("night_offer", ""))
        ),
        "error": error,
        "team_choices": [str(i) for i in range(1, max(2, rules.max_players // 2) + 1)],
        "can_add_seat": len(entry.seats) < rules.max_players,
    }
    htmx = getattr(request, "htmx", None)
    template = "games/new.html#form" if htmx and request.method == "POST" else "games/new.html"
    return render(request, template, context, status=status)


urlpatterns = [
    path("games/new/", game_new, name="game_new"),
]
