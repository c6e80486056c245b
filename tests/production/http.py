"""A small HTTP client for the production smoke tests: the standard library only, no
redirects followed, cookies kept by name (a stand-in for a browser, which would be on
https in production; the ``Secure`` flag is therefore not enforced here).

Paths are the app's (``/rules/``), below its base URL, whose path is the prefix the app
is served under (``http://127.0.0.1:8000/scores``); an address a page gives is a full
URL (:meth:`Session.link`)."""

from __future__ import annotations

import gzip
import html as htmllib
import http.client
import json
import re
import secrets
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit


@dataclass
class Response:
    status_code: int
    headers: http.client.HTTPMessage
    raw: bytes

    def header(self, name: str) -> str:
        return self.headers.get(name, "")

    @property
    def body(self) -> bytes:
        """The body, gunzipped when the server compressed it."""
        if self.header("Content-Encoding") == "gzip":
            return gzip.decompress(self.raw)
        return self.raw

    @property
    def text(self) -> str:
        return self.body.decode()

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Session:
    #: The app's root, without the final slash: ``http://host:port`` plus any prefix.
    base_url: str
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 30.0
    #: The local address to send from (``127.0.0.9``: another client to nginx's limits).
    source: str = ""

    @property
    def prefix(self) -> str:
        """The path the app is served under: ``""`` at the host's root, or ``/scores``."""
        return urlsplit(self.base_url).path

    def link(self, href: str) -> str:
        """The full URL of an address a page or the API gave (``/scores/static/…``)."""
        return urljoin(self.base_url, href)

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, Any] | None = None,
        json_body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        url = urlsplit(path if path.startswith(("http://", "https://")) else self.base_url + path)
        sent = {"Host": url.netloc, "Accept-Encoding": "identity", **(headers or {})}
        body: bytes | None = None
        if form is not None:
            body = urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        elif json_body is not None:
            body = json.dumps(json_body).encode()
            sent["Content-Type"] = "application/json"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection = http.client.HTTPConnection(
            url.hostname or "",
            url.port,
            timeout=self.timeout,
            source_address=(self.source, 0) if self.source else None,
        )
        try:
            target = url.path + (f"?{url.query}" if url.query else "")
            connection.request(method, target, body=body, headers=sent)
            answer = connection.getresponse()
            raw = answer.read()
        finally:
            connection.close()
        for line in answer.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(line)
            for name, morsel in cookie.items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return Response(answer.status, answer.headers, raw)

    def get(self, path: str, **kwargs: Any) -> Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Response:
        return self.request("POST", path, **kwargs)

    def sign_in(self, username: str, password: str) -> Response:
        self.get("/accounts/login/")
        return self.post(
            "/accounts/login/",
            form={
                "username": username,
                "password": password,
                "csrfmiddlewaretoken": self.cookies["csrftoken"],
            },
        )


def new_game(base_url: str, auth: dict[str, str]) -> tuple[int, list[int]]:
    """A fresh Screw Your Neighbour game of three new players, made through the API:
    (its id, its seats)."""
    api = Session(base_url)
    suffix = secrets.token_hex(3)
    seats = [
        api.post("/api/v1/players/", json_body={"name": f"P{i} {suffix}"}, headers=auth).json()[
            "id"
        ]
        for i in range(3)
    ]
    game = api.post(
        "/api/v1/games/",
        json_body={"ruleset": "screw-your-neighbour", "players": seats},
        headers=auth,
    )
    assert game.status_code == 201, game.text
    return int(game.json()["id"]), seats


def event_stream(session: Session, game: int) -> tuple[str, str]:
    """The live event stream the game's sheet names, as (origin, path), on the page's
    own origin through nginx."""
    found = re.search(r'data-events="([^"]+)"', session.get(f"/games/{game}/").text)
    assert found is not None, "the sheet names no event stream"
    url = urlsplit(session.link(htmllib.unescape(found.group(1))))
    return f"{url.scheme}://{url.netloc}", url.path
