"""Pages travel gzipped, and compressing them gives nothing away (BREACH): the CSRF token
in a page is masked afresh in every response, and Django's gzip pads each body with a
random number of bytes."""

from __future__ import annotations

import gzip
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.mark.django_db
def test_html_is_gzipped_for_browsers_that_accept_it(user: User) -> None:
    client = Client()
    client.force_login(user)
    response = client.get("/games/new/", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    html = gzip.decompress(response.content)
    assert b"</html>" in html
    assert len(response.content) < len(html) / 2

    plain = client.get("/games/new/")
    assert not plain.has_header("Content-Encoding")
    assert b"</html>" in plain.content


@pytest.mark.django_db
def test_every_response_masks_the_csrf_token_afresh(user: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    pages = [
        gzip.decompress(client.get("/games/new/", headers={"Accept-Encoding": "gzip"}).content)
        for _ in range(2)
    ]
    tokens = [TOKEN.search(page).group(1).decode() for page in pages]  # type: ignore[union-attr]
    assert tokens[0] != tokens[1]
    # Different on the wire, the same secret: both are good for this session.
    for token in tokens:
        response = client.post("/games/new/", {"csrfmiddlewaretoken": token})
        assert response.status_code == 200  # the form again, with what is missing
    assert client.post("/games/new/", {"csrfmiddlewaretoken": "x" * 64}).status_code == 403


@pytest.mark.django_db
def test_compressed_lengths_vary_even_for_the_same_page() -> None:
    client = Client()
    sizes = {
        len(client.get("/rules/dirt/", headers={"Accept-Encoding": "gzip"}).content)
        for _ in range(6)
    }
    assert len(sizes) > 1


@pytest.mark.django_db
def test_the_search_index_still_answers_304_when_gzipped() -> None:
    client = Client()
    first = client.get("/rules/index.json", headers={"Accept-Encoding": "gzip"})
    assert first["Content-Encoding"] == "gzip"
    assert first["ETag"].startswith('W/"')
    again = client.get(
        "/rules/index.json", headers={"Accept-Encoding": "gzip", "If-None-Match": first["ETag"]}
    )
    assert again.status_code == 304
