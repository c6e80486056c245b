"""The rules pages: index, a game, search (full page and htmx partial), the sheet's
overlay panel and tags, the offline pieces (index JSON, service worker, manifest)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import Client

from games import RULESETS, get_ruleset, rules
from scorekeeper import rules_index

SLUGS = list(RULESETS)


@pytest.fixture
def client() -> Client:
    return Client()


@pytest.mark.django_db
def test_index_lists_the_five_games_with_a_search_box(client: Client) -> None:
    response = client.get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    for slug in SLUGS:
        assert f'href="/rules/{slug}/"' in html
    assert 'role="search"' in html
    assert 'action="/rules/search/"' in html
    assert '<option value="dirt">' in html


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_game_page_has_contents_every_section_and_quick_reference(
    client: Client, slug: str
) -> None:
    response = client.get(f"/rules/{slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    game = rules.rules_for(slug)
    for section in game.contents:
        assert f'id="{section.slug}"' in html
        assert f'href="#{section.slug}"' in html
    assert 'id="quick-reference"' in html
    assert f'<input type="hidden" name="ruleset" value="{slug}">' in html
    assert "css/rules.css" in html


@pytest.mark.django_db
def test_game_page_shows_the_engine_table(client: Client) -> None:
    html = client.get("/rules/dirt/").content.decode()
    assert "<td>Joker</td>" in html
    assert "<td>50</td>" in html


@pytest.mark.django_db
def test_unknown_game_page_is_404(client: Client) -> None:
    assert client.get("/rules/poker/").status_code == 404
    assert client.get("/rules/poker/panel/").status_code == 404


@pytest.mark.django_db
def test_search_page_without_javascript(client: Client) -> None:
    response = client.get("/rules/search/", {"q": "draw five"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html
    first = html.index('class="rules-hit"')
    assert html.index('href="/rules/dirt/#special-cards-2"') > first  # the joker's row
    assert "<mark>draws 5</mark>" in html
    assert 'value="draw five"' in html


@pytest.mark.django_db
def test_a_hit_opens_its_paragraph(client: Client) -> None:
    html = client.get("/rules/search/", {"q": "widow"}).content.decode()
    assert 'href="/rules/damn-you/#scoring-13"' in html
    page = client.get("/rules/damn-you/").content.decode()
    assert '<p id="scoring-13"><strong>Widow rule' in page


@pytest.mark.django_db
def test_search_partial_for_htmx(client: Client) -> None:
    response = client.get("/rules/search/", {"q": "bower"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<div id="rules-results"')
    assert "Dirty Deals" in html
    assert "HX-Request" in response["Vary"]


@pytest.mark.django_db
def test_htmx_history_restore_gets_the_full_page(client: Client) -> None:
    response = client.get(
        "/rules/search/",
        {"q": "bower"},
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "<html" in response.content.decode()


@pytest.mark.django_db
def test_search_with_no_result_says_so_and_suggests(client: Client) -> None:
    html = client.get("/rules/search/", {"q": "jokr", "ruleset": "dirt"}).content.decode()
    assert "Nothing in the rules matches “jokr” in Dirt on Your Neighbor." in html
    assert 'data-suggest-q="joker"' in html
    assert "/rules/search/?q=joker&amp;ruleset=dirt" in html
    elsewhere = client.get("/rules/search/", {"q": "bower", "ruleset": "dirt"}).content.decode()
    assert "Search all games" in elsewhere


@pytest.mark.django_db
def test_search_escapes_what_was_typed(client: Client) -> None:
    html = client.get("/rules/search/", {"q": "<b>zz</b>"}).content.decode()
    assert "<b>zz</b>" not in html
    assert "&lt;b&gt;zz&lt;/b&gt;" in html


@pytest.mark.django_db
def test_search_page_with_unknown_game_searches_everything(client: Client) -> None:
    response = client.get("/rules/search/", {"q": "bower", "ruleset": "poker"})
    assert response.status_code == 200
    assert "Dirty Deals" in response.content.decode()


@pytest.mark.django_db
def test_empty_search_page_is_a_prompt(client: Client) -> None:
    response = client.get("/rules/search/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<!--rules-results-->" in html
    assert "Nothing in the rules" not in html


@pytest.mark.django_db
def test_panel_is_a_fragment_with_prefixed_ids(client: Client) -> None:
    response = client.get("/rules/damn-you/panel/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert 'id="rp-scoring"' in html
    assert 'id="rp-scoring-13"' in html
    assert 'id="rp-quick-reference"' in html
    assert 'id="scoring"' not in html
    assert 'id="scoring-13"' not in html
    assert 'name="panel" value="1"' in html


@pytest.mark.django_db
def test_search_from_the_panel_links_into_the_panel(client: Client) -> None:
    html = client.get(
        "/rules/search/",
        {"q": "ante", "ruleset": "damn-you", "panel": "1"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert html.strip().startswith('<div id="rules-panel-results"')
    assert 'href="#rp-deal-1"' in html


def test_rules_button_tag() -> None:
    html = Template('{% load rules_tags %}{% rules_button "dirt" %}').render(Context())
    assert 'data-rules-open="rules-dialog-dirt"' in html
    assert 'data-rules-panel-url="/rules/dirt/panel/"' in html
    assert 'href="/rules/dirt/"' in html
    assert 'target="_blank"' in html
    assert '<dialog id="rules-dialog-dirt"' in html
    assert "js/rules-overlay.js" in html


def test_rules_hint_tags() -> None:
    damn = get_ruleset("damn-you")
    state = damn.play(damn.configure(players=[7, 8, 9, 10]), [])
    template = Template("{% load rules_tags %}{% rules_hint state names %}")
    html = template.render(Context({"state": state, "names": {7: "Ana", 10: "Dee <3"}}))
    assert "Ana and Dee &lt;3 ante an extra chip" in html
    players = [{"id": 7, "name": "Ana"}, {"id": 10, "name": "Dee"}]
    html = Template('{% load rules_tags %}{% rules_hint_for "damn-you" next names %}').render(
        Context({"next": state.next_hand, "names": players})
    )
    assert "Ana and Dee ante" in html
    assert Template("{% load rules_tags %}{% rules_hint None %}").render(Context()) == ""


@pytest.mark.django_db
def test_search_index_json(client: Client) -> None:
    response = client.get("/rules/index.json")
    assert response.status_code == 200
    index = response.json()
    assert index["version"] == rules_index.version()
    # Every paragraph but the tables' header rows (they only name the columns).
    headers = sum(
        len(re.findall(r'<tr id="[^"]+">\s*<th', section.anchored_html))
        for slug in SLUGS
        for section in rules.rules_for(slug).contents
    )
    assert (
        len(index["documents"])
        == sum(
            len(section.paragraphs) for slug in SLUGS for section in rules.rules_for(slug).contents
        )
        - headers
    )
    widow = next(d for d in index["documents"] if d["text"].startswith("Widow rule"))
    assert widow["url"] == "/rules/damn-you/#scoring-13"
    assert widow.keys() >= {"id", "game", "section", "title", "keywords", "text"}
    again = client.get("/rules/index.json", headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304


@pytest.mark.django_db
def test_service_worker_is_served_at_the_root(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "Service-Worker-Allowed" not in response  # its scope is its folder: the app
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    found = re.search(r"var PRECACHE = (\[.*?\]);", body)
    assert found
    precache = json.loads(found.group(1))
    for slug in SLUGS:
        assert f"/rules/{slug}/" in precache
        assert f"/rules/{slug}/panel/" in precache
    assert {"/rules/", "/rules/search/", "/rules/index.json", "/offline/"} <= set(precache)
    assert "/static/css/app.css" in precache
    assert "&quot;" not in body
    for url in precache:
        assert client.get(url).status_code == 200, url


@pytest.mark.django_db
def test_pwa_head_and_manifest(client: Client) -> None:
    html = client.get("/rules/").content.decode()
    assert 'rel="manifest"' in html
    assert "js/pwa.js" in html
    assert 'data-sw="/sw.js?lang=en"' in html
    assert "<script>" not in html  # nothing inline: the CSP allows none
    assert 'href="/manifest.webmanifest"' in html
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone"
    assert (manifest["id"], manifest["start_url"], manifest["scope"]) == ("/", "/", "/")
    assert manifest["shortcuts"][0]["url"] == "/rules/"
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        path = Path(settings.BASE_DIR) / icon["src"].lstrip("/")
        assert path.is_file(), icon["src"]
        if icon["type"] == "image/png":
            head = path.read_bytes()[:24]
            assert head[:8] == b"\x89PNG\r\n\x1a\n"
            width = int.from_bytes(head[16:20], "big")
            assert f"{width}x{width}" == icon["sizes"]


@pytest.mark.django_db
def test_offline_page(client: Client) -> None:
    response = client.get("/offline/")
    assert response.status_code == 200
    assert 'href="/rules/dirt/"' in response.content.decode()
