"""``manage.py check --deploy`` with the production environment the README documents
prints no warning, and each security setting follows its environment variable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
#: README "Running it for real", behind a TLS proxy.
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "k3y-" + "a1b2c3d4e5f6g7h8i9j0" * 3,
    "DATABASE_URL": "postgres://scorekeeper@db.internal:5432/scorekeeper",
    "ALLOWED_HOSTS": "scores.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://scores.example.org",
    "BEHIND_TLS_PROXY": "1",
    "TRUSTED_PROXY_COUNT": "1",
}
SETTINGS = [
    "DEBUG",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_PROXY_SSL_HEADER",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "TRUSTED_PROXY_COUNT",
    "STORAGES",
]


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """manage.py in a fresh process, with only ``env`` (no pytest, no test settings)."""
    clean = {"PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8", **env}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def settings_under(env: dict[str, str]) -> dict[str, object]:
    code = (
        "import json; from django.conf import settings; "
        f"print(json.dumps({{n: getattr(settings, n) for n in {SETTINGS!r}}}, default=str))"
    )
    result = run(env, "shell", "-c", code)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_check_deploy_prints_no_warning_in_production() -> None:
    result = run(PRODUCTION_ENV, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stderr.upper()


def test_without_tls_the_check_says_what_is_missing() -> None:
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "BEHIND_TLS_PROXY"}
    result = run(env, "check", "--deploy")
    assert "security.W004" in result.stderr  # HSTS
    assert "security.W008" in result.stderr  # SSL redirect


def test_behind_tls_hsts_and_redirect_are_on() -> None:
    found = settings_under(PRODUCTION_ENV)
    assert found["DEBUG"] is False
    assert found["SECURE_SSL_REDIRECT"] is True
    assert found["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600
    assert found["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert found["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert found["SESSION_COOKIE_SECURE"] is True
    assert found["CSRF_COOKIE_SECURE"] is True
    assert found["TRUSTED_PROXY_COUNT"] == 1
    assert "CompressedManifest" in json.dumps(found["STORAGES"])


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"SECURE_HSTS_SECONDS": "3600"}, {"SECURE_HSTS_SECONDS": 3600}),
        (
            {"SECURE_SSL_REDIRECT": "0", "SECURE_HSTS_PRELOAD": "0"},
            {"SECURE_SSL_REDIRECT": False, "SECURE_HSTS_PRELOAD": False},
        ),
        ({"BEHIND_TLS_PROXY": "0"}, {"SECURE_SSL_REDIRECT": False, "SECURE_HSTS_SECONDS": 0}),
    ],
)
def test_each_setting_follows_the_environment(
    extra: dict[str, str], expected: dict[str, object]
) -> None:
    found = settings_under({**PRODUCTION_ENV, **extra})
    assert {name: found[name] for name in expected} == expected


@pytest.mark.parametrize(
    ("script_name", "expected"),
    [
        ("", "None /static/ / / [] /accounts/login/"),
        (
            "/scores/",
            "/scores /scores/static/ /scores/ /scores/ [{'url': '/scores'}] "
            "/scores/accounts/login/",
        ),
    ],
)
def test_served_under_a_prefix(script_name: str, expected: str) -> None:
    """``SCRIPT_NAME`` (which gunicorn reads too) puts every URL the app makes under the
    prefix, those made before any request included; the cookies stay there too."""
    code = (
        "from django.conf import settings as s; from django.urls import reverse; "
        "print(s.FORCE_SCRIPT_NAME, s.STATIC_URL, s.SESSION_COOKIE_PATH, s.CSRF_COOKIE_PATH, "
        "s.SPECTACULAR_SETTINGS['SERVERS'], reverse('login'))"
    )
    result = run({**PRODUCTION_ENV, "SCRIPT_NAME": script_name}, "shell", "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == expected


def test_a_bad_number_is_a_clear_error() -> None:
    result = run({**PRODUCTION_ENV, "TRUSTED_PROXY_COUNT": "one"}, "check")
    assert result.returncode != 0
    assert "TRUSTED_PROXY_COUNT must be a whole number, not 'one'." in result.stderr
