"""The Django admin: players, leagues and games for the install's administrator.

Score sheets change only through the game services (which run the engine and keep the
league statistics in step), so the admin shows games, hands and their history read-only;
deleting a game goes through ``game_delete``. Players, leagues and memberships are
plain data and can be edited. Statistics are derived and only shown.

Accounts are Django's own user admin, plus locking (``is_active`` off: the account can no
longer sign in, its API token stops working) and unlocking; sign-up invitations are made
here when sign-up is by invitation (``SIGNUP=invite``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from games import RULESETS
from scorekeeper.models import (
    Game,
    Hand,
    HandRevision,
    Invite,
    League,
    Membership,
    Player,
    PlayerMerge,
    PlayerStanding,
    RatingPoint,
    Seat,
    SignupInvitation,
)
from scorekeeper.services.games import game_delete
from scorekeeper.validation import optional_id


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """Derived or historical rows: to look at, never to edit by hand."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_by", "colour", "hidden", "created_at"]
    list_filter = ["hidden"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user", "created_by"]
    readonly_fields = ["created_at"]
    date_hierarchy = "created_at"


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]
    readonly_fields = ["joined_at"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "member_count", "game_count", "created_at"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner"]
    readonly_fields = ["created_at"]
    inlines = [MembershipInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[League]:
        return (
            super()
            .get_queryset(request)
            .select_related("owner")
            .annotate(
                n_members=Count("memberships", distinct=True),
                n_games=Count("games", distinct=True),
            )
        )

    @admin.display(description="members", ordering="n_members")
    def member_count(self, league: Any) -> int:
        return int(league.n_members)

    @admin.display(description="games", ordering="n_games")
    def game_count(self, league: Any) -> int:
        return int(league.n_games)


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "player", "team", "score", "place", "won")
    ordering = ["position"]


class HandInline(ReadOnlyInline):
    model = Hand
    fields = ("number", "input", "revision", "created_by", "created_at")
    ordering = ["number"]


class RulesetFilter(admin.SimpleListFilter):
    """Games by ruleset, named as the engine's registry names them (the field keeps no
    choices of its own)."""

    title = "ruleset"
    parameter_name = "ruleset"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(slug, rules.name) for slug, rules in RULESETS.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(ruleset=self.value()) if self.value() else queryset


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Games are made and changed on the score sheet (or the API), where the engine
    checks every hand; here they can be looked at, and deleted."""

    list_display = [
        "__str__",
        "ruleset",
        "variant",
        "league",
        "owner",
        "status",
        "hand_count",
        "created_at",
    ]
    list_filter = [RulesetFilter, "status", "league"]
    list_select_related = ["league", "owner"]
    search_fields = ["=id", "league__name", "owner__username", "seats__player__name"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, HandInline]
    fields = [
        "ruleset",
        "variant",
        "options",
        "teams",
        "first_dealer",
        "league",
        "owner",
        "closed",
        "status",
        "finished_at",
        "hand_count",
        "version",
        "created_at",
        "updated_at",
    ]

    def get_search_fields(self, request: HttpRequest) -> list[str]:
        # "=id" needs a number: a search for a name leaves it out.
        term = request.GET.get("q", "").strip()
        fields = list(self.search_fields)
        return fields if optional_id(term) is not None else [f for f in fields if f != "=id"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        # A game's hands and their history go with it (the history's own admin is
        # read-only, which would otherwise forbid deleting the game).
        deleted, model_count, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, model_count, set(), protected

    def delete_model(self, request: HttpRequest, obj: Game) -> None:
        game_delete(game=obj, user=None)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset:
            game_delete(game=game, user=None)


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyAdmin):
    list_display = ["game", "number", "revision", "action", "user", "guest", "created_at"]
    list_filter = ["action"]
    list_select_related = ["game", "user", "guest"]
    search_fields = ["=game__id"]
    raw_id_fields = ["game"]

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[HandRevision], search_term: str
    ) -> tuple[QuerySet[HandRevision], bool]:
        if search_term and not search_term.strip().isdigit():
            return queryset.none(), False
        return super().get_search_results(request, queryset, search_term)


@admin.register(Invite)
class InviteAdmin(ReadOnlyAdmin):
    """Join links; their owners revoke them from the game's Share page."""

    list_display = ["game", "role", "created_by", "created_at", "revoked_at"]
    list_filter = ["role"]
    list_select_related = ["game", "created_by"]
    raw_id_fields = ["game"]
    exclude = ["token"]


@admin.register(PlayerStanding)
class PlayerStandingAdmin(ReadOnlyAdmin):
    list_display = [
        "league",
        "ruleset",
        "player",
        "games",
        "wins",
        "place_sum",
        "rating",
        "updated_at",
    ]
    list_filter = ["ruleset", "league"]
    list_select_related = ["league", "player"]
    search_fields = ["player__name", "league__name"]
    ordering = ["league", "ruleset", "-rating"]


@admin.register(RatingPoint)
class RatingPointAdmin(ReadOnlyAdmin):
    list_display = [
        "league",
        "ruleset",
        "player",
        "game",
        "played_at",
        "place",
        "won",
        "rating",
        "games",
    ]
    list_filter = ["ruleset", "league"]
    list_select_related = ["league", "player", "game"]
    search_fields = ["player__name", "league__name"]


@admin.register(PlayerMerge)
class PlayerMergeAdmin(ReadOnlyAdmin):
    """Merges done on the players' page or the API (``services.player_admin``)."""

    list_display = ["from_name", "into", "by", "games", "merged_at"]
    list_select_related = ["into", "by"]
    search_fields = ["from_name", "into__name"]


admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    """Django's user admin, with locking: a locked account (``is_active`` off) cannot
    sign in, on the page, the admin or the API, and its API token is refused."""

    list_display = ["username", "email", "first_name", "is_active", "is_staff", "last_login"]
    list_filter = ["is_active", "is_staff", "is_superuser"]
    actions = ["lock", "unlock"]

    @admin.action(description="Lock the selected accounts (no more sign-in)")
    def lock(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        # (Not oneself: an administrator locked out of the admin has nobody to ask.)
        count = queryset.exclude(pk=getattr(request.user, "pk", None) or 0).update(is_active=False)
        self.message_user(request, f"{count} account(s) locked.", messages.SUCCESS)

    @admin.action(description="Unlock the selected accounts")
    def unlock(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        count = queryset.update(is_active=True)
        self.message_user(request, f"{count} account(s) unlocked.", messages.SUCCESS)


@admin.register(SignupInvitation)
class SignupInvitationAdmin(admin.ModelAdmin):
    """Sign-up invitations (``SIGNUP=invite``): send the link to whoever it is for."""

    list_display = ["__str__", "link", "created_by", "uses", "max_uses", "expires_at"]
    list_select_related = ["created_by"]
    search_fields = ["note", "code", "created_by__username"]
    readonly_fields = ["link", "uses", "created_by", "created_at"]
    fields = ["note", "code", "link", "max_uses", "uses", "expires_at", "created_by", "created_at"]

    @admin.display(description="sign-up link")
    def link(self, invitation: SignupInvitation) -> str:
        if not invitation.pk:
            return "(made when saved)"
        return format_html("<code>{}?invite={}</code>", reverse("signup"), invitation.code)

    def save_model(
        self, request: HttpRequest, obj: SignupInvitation, form: Any, change: bool
    ) -> None:
        if not change and isinstance(request.user, User):
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
