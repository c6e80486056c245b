"""A finished game's result over HTTP in the production profile (DEBUG off, gunicorn,
PostgreSQL): its PNG is drawn with the font shipped inside the package (no static files
involved), answers 304 to its ETag, and the public page works signed out and 404s as
soon as it is switched off."""

from __future__ import annotations

import io
import re
import secrets

import pytest
from PIL import Image

from tests.production.http import Session
from tests.production.test_http import assert_page

pytestmark = pytest.mark.production

NAMES = ("مريم", "Zoë 🎉", "W" * 60)


def test_result_image_and_public_page(demo: Session, base_url: str) -> None:
    api = Session(base_url)
    token = api.post("/api/v1/auth/token/", json_body={"username": "demo", "password": "demo"})
    auth = {"Authorization": f"Token {token.json()['token']}"}
    suffix = secrets.token_hex(3)
    seats = []
    for name in NAMES:
        made = api.post("/api/v1/players/", json_body={"name": name[:54] + suffix}, headers=auth)
        assert made.status_code == 201, made.text
        seats.append(made.json()["id"])
    game = api.post(
        "/api/v1/games/",
        json_body={
            "ruleset": "screw-your-neighbour",
            "players": seats,
            "options": {"target_wins": 1},
        },
        headers=auth,
    ).json()
    gid = game["id"]
    assert api.get(f"/api/v1/games/{gid}/result/", headers=auth).status_code == 409
    hand = api.post(f"/api/v1/games/{gid}/hands/", json_body={"winner": seats[0]}, headers=auth)
    assert hand.status_code == 201, hand.text

    result = api.get(f"/api/v1/games/{gid}/result/", headers=auth)
    assert result.status_code == 200, result.text
    data = result.json()
    assert data["text"].split("\n")[1].startswith("🏆 \u2068مريم")
    assert data["public_url"] is None

    sheet = assert_page(demo, f"/games/{gid}/")
    assert 'id="result-share"' in sheet
    image = demo.get(f"/games/{gid}/result.png")
    assert image.status_code == 200, image.text[:500]
    assert image.header("Content-Type") == "image/png"
    assert Image.open(io.BytesIO(image.body)).size == (1200, 630)
    etag = image.header("ETag")
    assert etag
    assert demo.get(f"/games/{gid}/result.png", headers={"If-None-Match": etag}).status_code == 304
    assert Session(base_url).get(f"/games/{gid}/result.png").status_code == 404

    published = api.post(f"/api/v1/games/{gid}/public/", headers=auth)
    assert published.status_code == 200, published.text
    public_url = published.json()["public_url"]
    assert public_url.startswith(f"{base_url}/")
    outsider = Session(base_url)
    page = assert_page(outsider, public_url)
    assert 'content="noindex' in page
    og_image = re.search(r'<meta property="og:image" content="([^"]+)"', page)
    assert og_image is not None
    assert og_image.group(1).startswith(f"{base_url}/")
    public_png = outsider.get(og_image.group(1).replace("&amp;", "&"))
    assert public_png.status_code == 200
    assert public_png.header("Content-Type") == "image/png"

    assert api.request("DELETE", f"/api/v1/games/{gid}/public/", headers=auth).status_code == 204
    assert outsider.get(public_url).status_code == 404
