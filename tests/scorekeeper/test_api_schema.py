"""The OpenAPI schema documents every endpoint without warnings, and the interactive
docs page is served from our own static files under our Content Security Policy."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from drf_spectacular.drainage import reset_generator_stats
from rest_framework.test import APIClient

OUR_OPERATIONS = {
    "/api/v1/auth/token/": {"post", "delete"},
    "/api/v1/players/": {"get", "post"},
    "/api/v1/players/{player_id}/": {"get"},
    "/api/v1/games/": {"get", "post"},
    "/api/v1/games/{game_id}/": {"get", "delete"},
    "/api/v1/games/{game_id}/hands/": {"get", "post"},
    "/api/v1/games/{game_id}/hands/{number}/": {"get", "put", "delete"},
    "/api/v1/games/{game_id}/hands/pages/": {"get"},
    "/api/v1/games/{game_id}/close/": {"post"},
    "/api/v1/games/{game_id}/reopen/": {"post"},
}


@pytest.fixture
def schema(anon_api: APIClient, db: None) -> dict[str, Any]:
    response = anon_api.get("/api/v1/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def test_schema_is_public_and_documents_every_operation(schema: dict[str, Any]) -> None:
    assert schema["openapi"].startswith("3.")
    for url, methods in OUR_OPERATIONS.items():
        assert url in schema["paths"], url
        assert methods <= set(schema["paths"][url]), url
    assert "/api/v1/schema/" not in schema["paths"]


def test_a_games_hands_are_a_list_and_their_pages_a_page(schema: dict[str, Any]) -> None:
    """Each operation answers in one documented shape: every hand as a plain list (the
    contract), the pages always as a page object with its limit and offset."""
    paths = schema["paths"]

    def answer(url: str) -> dict[str, Any]:
        return paths[url]["get"]["responses"]["200"]["content"]["application/json"]["schema"]

    every = answer("/api/v1/games/{game_id}/hands/")
    assert every == {"type": "array", "items": {"$ref": "#/components/schemas/Hand"}}
    assert "limit" not in {
        p["name"] for p in paths["/api/v1/games/{game_id}/hands/"]["get"].get("parameters", [])
    }
    pages = paths["/api/v1/games/{game_id}/hands/pages/"]["get"]
    name = answer("/api/v1/games/{game_id}/hands/pages/")["$ref"].rsplit("/", 1)[1]
    page = schema["components"]["schemas"][name]
    assert {"count", "next", "previous", "results"} <= set(page["properties"])
    assert page["properties"]["results"]["items"] == {"$ref": "#/components/schemas/Hand"}
    assert {"limit", "offset"} <= {p["name"] for p in pages["parameters"]}


def test_schema_describes_the_contract(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    game = components["Game"]["properties"]
    for field in (
        "id",
        "ruleset",
        "variant",
        "options",
        "players",
        "teams",
        "status",
        "hands",
        "standings",
        "winners",
        "next_hand",
    ):
        assert field in game, field
    hand = components["Hand"]["properties"]
    for field in ("number", "dealer", "winner", "points", "input", "revision"):
        assert field in hand, field
    create = schema["paths"]["/api/v1/games/{game_id}/hands/"]["post"]
    assert any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in create["parameters"])
    assert {"201", "400", "403", "404", "409"} <= set(create["responses"])
    listing = schema["paths"]["/api/v1/games/"]["get"]["responses"]["200"]
    paginated = listing["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert set(components[paginated]["properties"]) == {"count", "next", "previous", "results"}
    assert "tokenAuth" in schema["components"]["securitySchemes"]


def test_schema_generation_is_valid_with_no_warnings(tmp_path: Path, db: None) -> None:
    out = tmp_path / "schema.yaml"
    reset_generator_stats()  # warnings of earlier schema views in this process
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    assert out.read_text().startswith("openapi: 3")


def test_docs_page_has_no_inline_script_or_style(anon_api: APIClient, db: None) -> None:
    response = anon_api.get("/api/v1/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<style" not in html
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, flags=re.S)
    assert scripts
    assert all('src="' in attrs and not body.strip() for attrs, body in scripts)
    assert "cdn" not in html.lower()
    assert "script-src 'self'" in response["Content-Security-Policy"]

    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    for url in sources:
        assert url.startswith("/"), url
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), url

    script_url = next(u for u in sources if "script" in u and u.startswith("/api/v1/docs/"))
    init = anon_api.get(script_url)
    assert init.status_code == 200
    assert init["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in init.content.decode()
    assert "/api/v1/schema/" in init.content.decode()


def test_schema_documents_limits_errors_and_the_csv_export(schema: dict[str, Any]) -> None:
    paths = schema["paths"]
    hands = paths["/api/v1/games/{game_id}/hands/"]["post"]
    key = next(p for p in hands["parameters"] if p["name"] == "Idempotency-Key")
    assert (key["schema"]["minLength"], key["schema"]["maxLength"]) == (1, 255)
    assert {"400", "401", "403", "404", "409", "413", "415", "422"} <= set(hands["responses"])
    for url in ("/api/v1/games/", "/api/v1/players/", "/api/v1/leagues/{league_id}/games/"):
        assert {"400", "401", "404"} <= set(paths[url]["get"]["responses"]), url
    export = paths["/api/v1/leagues/{league_id}/export/"]["get"]["responses"]["200"]
    assert set(export["content"]) == {"application/json", "text/csv"}
    error = paths["/api/v1/games/{game_id}/"]["get"]["responses"]["404"]
    assert error["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}


def test_api_addresses_that_match_no_route_answer_json_404(api: APIClient) -> None:
    response = api.get("/api/v1/games/not-a-number/")
    assert response.status_code == 404
    assert response.json() == {"detail": "There is no such address in the API."}
