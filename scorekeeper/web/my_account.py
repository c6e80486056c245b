"""My account (``/accounts/``): my name and e-mail address, my password, my data to
download, the API tokens I hold, the sign-up invitations I made (when the instance lets
users invite), and deleting the account.

Each action is a plain form posted to its own address, answered by a redirect back with
a message, or by the page again with the form's errors. What cannot be undone (revoking
the API token, withdrawing an invitation, deleting the account) first shows a page
saying what it does (a GET of the same address), whose button makes the POST; deleting
the account also asks for the password again."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import RuleError
from scorekeeper.downloads import in_chunks, started
from scorekeeper.errors import AccountRefused
from scorekeeper.models import Player
from scorekeeper.security import rate_limit
from scorekeeper.selectors.accounts import account_data_pieces, account_invitations, account_tokens
from scorekeeper.services.accounts import (
    account_delete,
    account_update,
    invitation_create,
    may_make_invitations,
)
from scorekeeper.web.accounts import PasswordCheckForm


class ProfileForm(forms.Form):
    name = forms.CharField(
        max_length=60,
        required=False,
        label=gettext_lazy("Name at the table"),
        help_text=gettext_lazy("How you appear on score sheets."),
    )
    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        max_length=254,
        help_text=gettext_lazy("Only for resetting a forgotten password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )


class InvitationForm(forms.Form):
    note = forms.CharField(
        max_length=120, required=False, label=gettext_lazy("For whom (a note for you)")
    )
    uses = forms.IntegerField(
        min_value=1, max_value=50, initial=1, label=gettext_lazy("Accounts it makes")
    )
    days = forms.IntegerField(
        min_value=1, max_value=90, initial=14, label=gettext_lazy("Good for (days)")
    )


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # (login_required)
    return request.user


def _page(request: HttpRequest, status: int = 200, **forms_: forms.Form) -> HttpResponse:
    user = _user(request)
    player = Player.objects.filter(user=user).first()
    context: dict[str, Any] = {
        "player": player,
        "profile_form": forms_.get("profile")
        or ProfileForm(initial={"name": player.name if player else "", "email": user.email}),
        "tokens": account_tokens(user),
        "may_invite": may_make_invitations(user),
    }
    if context["may_invite"]:
        signup = request.build_absolute_uri(reverse("signup"))
        context["invitation_form"] = forms_.get("invitation") or InvitationForm()
        context["invitations"] = [
            (invitation, f"{signup}?invite={invitation.code}")
            for invitation in account_invitations(user)
        ]
        context["now"] = timezone.now()
    return render(request, "accounts/account.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return _page(request)
    form = ProfileForm(request.POST)
    if form.is_valid():
        try:
            account_update(
                user=_user(request),
                name=form.cleaned_data["name"].strip(),
                email=form.cleaned_data["email"],
            )
        except RuleError as exc:
            form.add_error("name", exc.message[:1].upper() + exc.message[1:])
        else:
            messages.success(request, _("Your name and e-mail address are saved."))
            return redirect("account")
    return _page(request, 400, profile=form)


@login_required
@require_GET
def account_download(request: HttpRequest) -> StreamingHttpResponse:
    """The account's data as one JSON file, written a chunk of games at a time while it
    is sent (the worker's memory stays flat whatever the account holds)."""
    user = _user(request)
    chunks = started(in_chunks(account_data_pieces(user)), f"The data of account {user.pk}")
    response = StreamingHttpResponse(chunks, content_type="application/json")
    filename = f"scorekeeper-{user.get_username()}-{timezone.now():%Y-%m-%d}.json"
    response["Content-Disposition"] = content_disposition_header(True, filename) or ""
    response["Cache-Control"] = "private, no-store"
    return response


def _confirm(request: HttpRequest, **context: Any) -> HttpResponse:
    return render(request, "accounts/confirm.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def token_revoke(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        if not account_tokens(_user(request)).exists():
            return redirect("account")
        return _confirm(
            request,
            heading=_("Revoke your API token?"),
            points=[
                _(
                    "Every app or script that uses it is signed out at once and cannot read "
                    "or change anything of yours with it again."
                ),
                _(
                    "This cannot be undone: an app gets a new token only by signing in to "
                    "the API again."
                ),
            ],
            action=reverse("account_token_revoke"),
            button=_("Revoke the token"),
        )
    # (DRF keeps one token per account: revoking it is revoking them all.)
    if account_tokens(_user(request)).delete()[0]:
        messages.success(request, _("The API token is revoked: clients using it are signed out."))
    return redirect("account")


@login_required
@require_POST
def invitation_new(request: HttpRequest) -> HttpResponse:
    form = InvitationForm(request.POST)
    if form.is_valid():
        try:
            invitation_create(user=_user(request), **form.cleaned_data)
        except AccountRefused as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Invitation made: send its link to whoever it is for."))
        return redirect("account")
    return _page(request, 400, invitation=form)


@login_required
@require_http_methods(["GET", "POST"])
def invitation_delete(request: HttpRequest, invitation_id: int) -> HttpResponse:
    if request.method == "GET":
        invitation = account_invitations(_user(request)).filter(pk=invitation_id).first()
        if invitation is None:
            return redirect("account")
        made = {"used": invitation.uses, "uses": invitation.max_uses}
        return _confirm(
            request,
            heading=_("Withdraw this invitation?"),
            points=[
                _("Its link (for %(note)s) stops working at once: nobody else can sign up with it.")
                % {"note": invitation.note}
                if invitation.note
                else _("Its link stops working at once: nobody else can sign up with it."),
                _("The accounts already made with it (%(used)s of %(uses)s used) stay as they are.")
                % made,
                _("This cannot be undone: to invite someone again, make a new invitation."),
            ],
            action=reverse("account_invitation_delete", args=[invitation.pk]),
            button=_("Withdraw the invitation"),
        )
    if account_invitations(_user(request)).filter(pk=invitation_id).delete()[0]:
        messages.success(request, _("The invitation is withdrawn."))
    return redirect("account")


@login_required
@rate_limit("sign-in")
@require_http_methods(["GET", "POST"])
def delete(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    form = PasswordCheckForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        try:
            account_delete(user=user)
        except AccountRefused as exc:
            form.add_error(None, exc.message)
        else:
            logout(request)
            messages.success(request, _("Your account is deleted."))
            return redirect("home")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/delete.html", {"form": form}, status=status)


urlpatterns = [
    path("accounts/", account, name="account"),
    path("accounts/data/", account_download, name="account_download"),
    path("accounts/delete/", delete, name="account_delete"),
    path("accounts/token/revoke/", token_revoke, name="account_token_revoke"),
    path("accounts/invitations/", invitation_new, name="account_invitation_new"),
    path(
        "accounts/invitations/<int:invitation_id>/delete/",
        invitation_delete,
        name="account_invitation_delete",
    ),
]
