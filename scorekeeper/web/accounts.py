"""Sign-up, sign-in and sign-out (Django auth). Signing up also creates the player that
stands for the new user at the table.

Both forms are rate-limited per client address (:func:`scorekeeper.security.rate_limit`,
``settings.RATE_LIMITS``); wrong passwords also lock a username out from that address for
a while (django-axes, see settings).
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_http_methods

from games import RuleError
from scorekeeper.security import rate_limit
from scorekeeper.services.players import player_create
from scorekeeper.validation import clean_name


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(
        max_length=60,
        required=False,
        label="Name at the table",
        help_text="How you appear on score sheets. Defaults to your username.",
    )

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        try:
            return clean_name(name, "display_name", 60) if name.strip() else ""
        except RuleError as exc:
            raise forms.ValidationError(exc.message[:1].upper() + exc.message[1:]) from None


@rate_limit("sign-up")
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            player_create(
                name=form.cleaned_data["display_name"] or user.get_username(),
                created_by=user,
                user=user,
            )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


urlpatterns = [
    path("accounts/login/", rate_limit("sign-in")(auth_views.LoginView.as_view()), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", signup, name="signup"),
]
