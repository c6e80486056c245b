"""GET /api/v1/rulesets/, /api/v1/rulesets/{slug}/ and /api/v1/rules/: public, read-only."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import RULESETS, get_ruleset, rules

SLUGS = ["dirt", "screw-your-neighbour", "damn-you", "dirty-uno", "dirty-deals", "custom"]


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


def test_rulesets_list_is_public_and_follows_the_contract(anon: APIClient) -> None:
    response = anon.get("/api/v1/rulesets/")
    assert response.status_code == 200
    body = response.json()
    assert [r["slug"] for r in body] == SLUGS
    dirt = body[0]
    assert dirt["name"] == "Dirt on Your Neighbor"
    assert (dirt["min_players"], dirt["max_players"]) == (3, 61)
    assert {"slug": "baby", "name": "Baby Dirt", "hands": 6} in [
        {k: v[k] for k in ("slug", "name", "hands")} for v in dirt["variants"]
    ]
    assert dirt["options"]["ten_points"]["default"] == 1
    assert dirt["options"]["ten_points"]["choices"] == [1, 10]
    uno = next(r for r in body if r["slug"] == "dirty-uno")
    assert uno["options"]["scoring"]["choices"] == ["standard", "penalty"]


@pytest.mark.parametrize("slug", SLUGS)
def test_ruleset_detail_has_card_points_and_sections(anon: APIClient, slug: str) -> None:
    response = anon.get(f"/api/v1/rulesets/{slug}/")
    assert response.status_code == 200
    body = response.json()
    ruleset = get_ruleset(slug)
    assert body["slug"] == slug
    assert body["card_points"] == ruleset.card_points(ruleset.default_options(4))
    sections = body["sections"]
    assert [s["slug"] for s in sections] == [s.slug for s in rules.rules_for(slug).sections]
    for section in sections:
        assert {"slug", "title", "body", "body_html"} <= section.keys()
        assert section["body"].strip()
        assert "{{" not in section["body"]
    scoring = next(s for s in sections if s["slug"] == "scoring")
    if body["card_points"]:
        assert "| Card | Points | Note |" in scoring["body"]
        assert "<table>" in scoring["body_html"]


def test_unknown_ruleset_is_404(anon: APIClient) -> None:
    response = anon.get("/api/v1/rulesets/poker/")
    assert response.status_code == 404
    assert "poker" in response.json()["detail"]


def test_rules_search_best_match_first(anon: APIClient) -> None:
    response = anon.get("/api/v1/rules/", {"q": "left bower"})
    assert response.status_code == 200
    hits = response.json()
    assert hits[0]["ruleset"] == "dirty-deals"
    assert hits[0]["section"] == "special-cards"
    assert hits[0]["title"] == "Special cards"
    assert "<mark>bower</mark>" in hits[0]["snippet"]
    assert {"ruleset", "section", "title", "snippet"} <= hits[0].keys()


def test_rules_search_in_one_game(anon: APIClient) -> None:
    hits = anon.get("/api/v1/rules/", {"q": "skip", "ruleset": "dirty-uno"}).json()
    assert hits
    assert {h["ruleset"] for h in hits} == {"dirty-uno"}
    assert hits[0]["section"] == "special-cards"
    assert anon.get("/api/v1/rules/", {"q": "draw five"}).json()[0]["ruleset"] == "dirt"


def test_rules_search_word_forms(anon: APIClient) -> None:
    for q in ("ante", "antes", "anteing"):
        first = anon.get("/api/v1/rules/", {"q": q}).json()[0]
        assert (first["ruleset"], first["section"]) == ("damn-you", "deal")


def test_rules_search_nothing_found_is_an_empty_list(anon: APIClient) -> None:
    response = anon.get("/api/v1/rules/", {"q": "xyzzy"})
    assert response.status_code == 200
    assert response.json() == []


@pytest.mark.parametrize("params", [{}, {"q": ""}, {"q": "   "}])
def test_rules_search_needs_a_query(anon: APIClient, params: dict[str, str]) -> None:
    response = anon.get("/api/v1/rules/", params)
    assert response.status_code == 400
    assert list(response.json()) == ["q"]
    assert response.json()["q"][0].startswith("Say what to look for")


def test_rules_search_rejects_unknown_game_and_long_queries(anon: APIClient) -> None:
    response = anon.get("/api/v1/rules/", {"q": "wild", "ruleset": "poker"})
    assert response.status_code == 400
    assert "poker" in response.json()["ruleset"][0]
    response = anon.get("/api/v1/rules/", {"q": "wild " * 100})
    assert response.status_code == 400
    assert "q" in response.json()


def test_rules_search_escapes_the_query_in_snippets(anon: APIClient) -> None:
    hits = anon.get("/api/v1/rules/", {"q": "<script>joker</script>"}).json()
    assert hits
    assert all("<script>" not in h["snippet"] for h in hits)


def test_rules_endpoints_are_in_the_schema(anon: APIClient) -> None:
    schema = anon.get("/api/v1/schema/", {"format": "json"}).json()
    assert "/api/v1/rulesets/" in schema["paths"]
    assert "/api/v1/rulesets/{slug}/" in schema["paths"]
    search = schema["paths"]["/api/v1/rules/"]["get"]
    assert {p["name"] for p in search["parameters"]} >= {"q", "ruleset"}
    assert len(RULESETS) == 6
