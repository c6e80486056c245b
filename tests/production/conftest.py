"""The production profile tested over HTTP.

``.ci/production-smoke.sh`` starts the app as the README's "Running it for real" says
(DEBUG off, collectstatic with compressed manifest storage, gunicorn with two workers,
the events server, PostgreSQL, the demo data, nginx in front with ``deploy/nginx/``) and
runs the tests marked ``production`` against it with ``SCOREKEEPER_BASE_URL`` set:
nginx's address for the app's root, with the prefix it is served under if any
(``http://127.0.0.1:8080/scores``), and ``SCOREKEEPER_ACCESS_LOG``, nginx's access log.
Without that variable the HTTP tests here skip (the browser ones marked ``production``
run against the test server instead).
"""

from __future__ import annotations

import os

import pytest

from tests.production.http import Session

BASE_URL_ENV = "SCOREKEEPER_BASE_URL"


@pytest.fixture(scope="session")
def base_url() -> str:
    url = os.environ.get(BASE_URL_ENV, "").rstrip("/")
    if not url:
        pytest.skip(
            f"needs the app running in production: .ci/production-smoke.sh ({BASE_URL_ENV})"
        )
    return url


@pytest.fixture
def anonymous(base_url: str) -> Session:
    return Session(base_url)


@pytest.fixture(scope="session")
def demo(base_url: str) -> Session:
    """Signed in as the demo user (seed_demo) through the real sign-in form."""
    session = Session(base_url)
    response = session.sign_in("demo", "demo")
    assert response.status_code == 302, response.text
    assert response.header("Location") == f"{session.prefix}/"
    assert "sessionid" in session.cookies
    return session


@pytest.fixture(scope="session")
def token_auth(base_url: str) -> dict[str, str]:
    """The demo user's API token, as headers."""
    answer = Session(base_url).post(
        "/api/v1/auth/token/", json_body={"username": "demo", "password": "demo"}
    )
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Token {answer.json()['token']}"}
