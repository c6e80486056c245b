"""A league's members and their roles on the league page: the owner and admins set what
each member with an account may do (admin, records games, only looks: the table of
rights is ``selectors.access``), and a member leaves the league after giving their
password again. Plain forms answered by a redirect back with a message."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import RuleError
from scorekeeper.models import League, MemberRole
from scorekeeper.security import rate_limit
from scorekeeper.selectors.access import LeagueAccess, league_access
from scorekeeper.selectors.games import leagues_visible_to
from scorekeeper.selectors.league_roles import league_role_lines
from scorekeeper.services.league_members import league_leave, member_set_role
from scorekeeper.web.accounts import PasswordAskForm


def member_roles_context(access: LeagueAccess) -> dict[str, Any]:
    """What the league page's roles list needs: the members with an account and their
    roles, whether the viewer may change them, and the viewer's own role."""
    return {
        "role_lines": league_role_lines(access.league),
        "role_choices": MemberRole.choices,
        "can_manage": access.may_manage,
        "my_role": access.role.value,
        "can_leave": access.may_leave,
    }


def _league(request: HttpRequest, league_id: int) -> League:
    league = leagues_visible_to(request.user).filter(pk=league_id).first()
    if league is None:
        raise Http404("There is no such league, or you are not in it.")
    return league


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # (login_required)
    return request.user


@login_required
@require_POST
def member_role(request: HttpRequest, league_id: int, player_id: int) -> HttpResponse:
    """Set a member's role (``role``)."""
    league = _league(request, league_id)
    try:
        membership = member_set_role(
            league=league, player=player_id, role=request.POST.get("role"), user=_user(request)
        )
    except RuleError as exc:
        messages.error(request, exc.message[:1].upper() + exc.message[1:] + ".")
    except PermissionDenied as exc:
        messages.error(request, str(exc))
    else:
        label = MemberRole(membership.role).label.lower()
        messages.success(request, f"{membership.player.name}: {label}.")
    return redirect(reverse("league_detail", args=[league.pk]) + "#roles")


@login_required
@rate_limit("sign-in")
@require_http_methods(["GET", "POST"])
def leave(request: HttpRequest, league_id: int) -> HttpResponse:
    """Leave the league: a page saying what it does, whose form asks for the password."""
    league = _league(request, league_id)
    user = _user(request)
    access = league_access(user, league)
    if not access.may_leave:
        messages.error(request, _("The league's owner cannot leave it."))
        return redirect(reverse("league_detail", args=[league.pk]) + "#roles")
    form = PasswordAskForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league_leave(league=league, user=user, password=form.cleaned_data["password"])
        except RuleError as exc:
            form.add_error(exc.field, exc.message)
        except PermissionDenied as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("You have left %(league)s.") % {"league": league.name})
            return redirect("league_list")
    status = 400 if request.method == "POST" else 200
    return render(request, "leagues/leave.html", {"league": league, "form": form}, status=status)


urlpatterns = [
    path(
        "leagues/<int:league_id>/members/<int:player_id>/role/",
        member_role,
        name="league_member_role",
    ),
    path("leagues/<int:league_id>/leave/", leave, name="league_leave"),
]
