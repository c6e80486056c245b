"""Sign-up, sign-in and sign-out, and passwords: changing one (signed in) and resetting a
forgotten one by e-mail (Django's own auth views). Signing up also creates the player
that stands for the new user at the table, when the instance's sign-up policy
(``settings.SIGNUP``: open, by invitation or closed) allows it.

Every form that takes a password or sends mail is rate-limited per client address
(:func:`scorekeeper.security.rate_limit`, ``settings.RATE_LIMITS``) — sign-ins only when
they fail, so a club signing in on one Wi-Fi is not refused; wrong passwords also lock a
username out from that address for a while (django-axes, see settings).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.messages.views import SuccessMessageMixin
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from games import RuleError
from scorekeeper.errors import AccountRefused
from scorekeeper.security import rate_limit, redirected
from scorekeeper.services.accounts import account_create, signup_check
from scorekeeper.validation import clean_name

LOCKED = gettext_lazy(
    "This account is locked. Ask the person who runs this instance if you think it should not be."
)


class SignInForm(AuthenticationForm):
    """Django's sign-in form, saying "locked" (its own "inactive") to whoever gives a
    locked account's right password, and only to them, as Django's would."""

    error_messages = {**AuthenticationForm.error_messages, "inactive": LOCKED}

    def get_invalid_login_error(self) -> ValidationError:
        model = get_user_model()
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username and password:
            locked = model._default_manager.filter(
                **{model.USERNAME_FIELD: username}, is_active=False
            ).first()
            if locked is not None and locked.check_password(password):
                return ValidationError(self.error_messages["inactive"], code="inactive")
        return super().get_invalid_login_error()


class PasswordAskForm(forms.Form):
    """The account's password asked again before what cannot be undone, for a service
    that checks it itself (leaving a league: ``services.league_members.league_leave``)."""

    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=gettext_lazy("Asked again because this cannot be undone."),
    )


class PasswordCheckForm(PasswordAskForm):
    """The account's password asked again before what cannot be undone (deleting the
    account or a league): Django's ``check_password``, as its password-change form asks
    for the old one."""

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = str(self.cleaned_data["password"])
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("That is not your password: nothing was done."), code="password_incorrect"
            )
        return password


def signup_context(request: HttpRequest) -> dict[str, str]:
    """For the pages that offer sign-up (not when it is closed): ``settings.SIGNUP``."""
    return {"signup_policy": settings.SIGNUP}


class FocusFirstError(forms.BaseForm):
    """A form that, shown again with errors, puts the focus (``autofocus``) on the first
    field in error instead of where it starts (Django's sign-up form: the username), so
    a phone opens on what to fix and a screen reader reads it first."""

    def add_error(self, field: str | None, error: Any) -> None:
        super().add_error(field, error)
        wrong = next((name for name in self.fields if name in self.errors), None)
        if wrong is None or self.fields[wrong].widget.is_hidden:
            return
        for name, each in self.fields.items():
            each.widget.attrs.pop("autofocus", None)
            if name in self.errors:
                each.widget.attrs["aria-invalid"] = "true"
        self.fields[wrong].widget.attrs["autofocus"] = True


class SignUpForm(FocusFirstError, UserCreationForm):
    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        max_length=254,
        help_text=gettext_lazy("Only for resetting a forgotten password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    display_name = forms.CharField(
        max_length=60,
        required=False,
        label=gettext_lazy("Name at the table"),
        help_text=gettext_lazy("How you appear on score sheets. Defaults to your username."),
    )
    invite = forms.CharField(
        max_length=64,
        required=False,
        label=gettext_lazy("Invitation code"),
        widget=forms.HiddenInput,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if settings.SIGNUP == "invite":
            self.fields["invite"].widget = forms.TextInput(attrs={"autocapitalize": "none"})
            self.fields["invite"].help_text = _("Sign-up here is by invitation.")

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        try:
            return clean_name(name, "display_name", 60) if name.strip() else ""
        except RuleError as exc:
            raise forms.ValidationError(exc.message[:1].upper() + exc.message[1:]) from None

    def clean_invite(self) -> str:
        code = str(self.cleaned_data["invite"]).strip()
        try:
            signup_check(code)
        except AccountRefused as exc:
            raise forms.ValidationError(exc.message) from None
        return code


@rate_limit("sign-up")
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if settings.SIGNUP == "closed":
        return render(request, "registration/signup_closed.html", status=403)
    initial = {"invite": request.GET.get("invite", "")[:64]}
    form = SignUpForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            user = account_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
                display_name=form.cleaned_data["display_name"],
                invite=form.cleaned_data["invite"],
            )
        except AccountRefused as exc:
            form.add_error(exc.field or None, exc.message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class PasswordChangeView(SuccessMessageMixin, auth_views.PasswordChangeView):
    success_url = reverse_lazy("account")
    success_message = gettext_lazy("Your password is changed.")


urlpatterns = [
    path(
        "accounts/login/",
        rate_limit("sign-in", succeeded=redirected)(
            auth_views.LoginView.as_view(form_class=SignInForm)
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", signup, name="signup"),
    path(
        "accounts/password/",
        rate_limit("password-change")(PasswordChangeView.as_view()),
        name="password_change",
    ),
    path(
        "accounts/password/reset/",
        rate_limit("password-reset")(auth_views.PasswordResetView.as_view()),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        rate_limit("password-reset")(auth_views.PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
