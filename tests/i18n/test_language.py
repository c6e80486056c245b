"""Which language a phone gets: the browser's Accept-Language by default, the switch in
every page's footer (per device, and per account when signed in), the `lang` attribute
and Content-Language; an API error in the asker's language."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from django.utils.html import escape
from rest_framework.test import APIClient

from scorekeeper.models import AccountLanguage
from tests.scorekeeper.factories import make_game, make_players

COOKIE = settings.LANGUAGE_COOKIE_NAME


def said(language: str, english: str) -> str:
    """``english`` in ``language``, checked to be a translation (not English again)."""
    with translation.override(language):
        text = translation.gettext(english)
    assert text != english, f"{english!r} has no {language} translation"
    return text


def html_lang(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found
    return found[1]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "es"])
def test_a_fresh_browser_gets_its_accept_language(language: str) -> None:
    response = Client().get("/", headers={"accept-language": f"{language},en;q=0.5"})
    html = response.content.decode()
    assert html_lang(html) == language
    assert response["Content-Language"] == language
    assert "Accept-Language" in response["Vary"]
    assert f">{said(language, 'Rules')}</a>" in html
    # the scripts' words come in the same language, from a static file
    assert f"jsi18n/{language}/djangojs.js" in html


@pytest.mark.django_db
def test_an_unknown_language_falls_back_to_english() -> None:
    response = Client().get("/", headers={"accept-language": "fi"})
    assert html_lang(response.content.decode()) == "en"
    assert response["Content-Language"] == "en"


@pytest.mark.django_db
def test_a_region_gets_its_language() -> None:
    response = Client().get("/", headers={"accept-language": "es-MX"})
    assert html_lang(response.content.decode()) == "es"


@pytest.mark.django_db
def test_the_switch_keeps_the_choice_on_this_device_and_goes_back() -> None:
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/rules/"})
    assert response.status_code == 302
    assert response["Location"] == "/rules/"
    assert response.cookies[COOKIE].value == "de"
    # the cookie beats the browser's own language
    page = client.get("/rules/", headers={"accept-language": "es"})
    assert html_lang(page.content.decode()) == "de"


@pytest.mark.django_db
def test_the_switch_refuses_a_language_we_do_not_have() -> None:
    client = Client()
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert COOKIE not in client.cookies


@pytest.mark.django_db
def test_the_switch_goes_back_only_to_this_site() -> None:
    response = Client().post("/i18n/setlang/", {"language": "es", "next": "https://evil.example/"})
    assert response["Location"] == "/"


@pytest.mark.django_db
def test_every_page_offers_the_switch_with_the_current_language_marked() -> None:
    html = Client().get("/", headers={"accept-language": "es"}).content.decode()
    form = html[html.index('class="language-switch"') :]
    form = form[: form.index("</form>")]
    assert re.search(r'value="es"[^>]*aria-current="true"', form)
    for code, name in settings.LANGUAGES:
        assert f'value="{code}"' in form
        assert f'lang="{code}"' in form
        assert name in form


@pytest.mark.django_db
def test_a_signed_in_account_keeps_its_language_for_its_other_devices(user: User) -> None:
    phone = Client()
    phone.force_login(user)
    phone.post("/i18n/setlang/", {"language": "es", "next": "/"})
    assert AccountLanguage.objects.get(user=user).language == "es"

    other = Client()  # another device, which speaks German
    response = other.post(
        "/accounts/login/",
        {"username": "ana", "password": "table-talk-42"},
        headers={"accept-language": "de"},
    )
    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "es"
    page = other.get("/", headers={"accept-language": "de"})
    assert html_lang(page.content.decode()) == "es"


@pytest.mark.django_db
def test_signing_in_without_a_chosen_language_leaves_the_device_as_it_is(user: User) -> None:
    client = Client()
    response = client.post("/accounts/login/", {"username": "ana", "password": "table-talk-42"})
    assert response.status_code == 302
    assert COOKIE not in response.cookies


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "es"])
def test_an_api_error_in_the_askers_language(user: User, language: str) -> None:
    api = APIClient()
    api.force_authenticate(user)
    players = make_players("P1", "P2", "P3", created_by=user)
    game = make_game(user, "dirt", players)
    english = api.post(f"/api/v1/games/{game.pk}/hands/", {"winner": 0}, format="json")
    asked = api.post(
        f"/api/v1/games/{game.pk}/hands/",
        {"winner": 0},
        format="json",
        headers={"accept-language": language},
    )
    assert english.status_code == asked.status_code == 400
    assert asked["Content-Language"] == language
    assert english.json() != asked.json()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "es"])
@pytest.mark.parametrize(
    "slug", ["dirt", "screw-your-neighbour", "damn-you", "dirty-uno", "dirty-deals", "custom"]
)
def test_the_sheets_rules_line_is_in_the_phones_language(
    user: User, slug: str, language: str
) -> None:
    """The one line of rules above the entry (who deals, this hand's dirt, the bowers…)
    is said in the page's language, the players by their names."""
    from games import get_ruleset
    from games.rules_hints import context_hint
    from scorekeeper.selectors.games import game_state

    players = make_players("Ana", "Bo", "Cy", "Di", created_by=user)
    options = {"name": "Hearts"} if slug == "custom" else None
    game = make_game(user, slug, players, options=options)
    state = game_state(game)
    names = {p.pk: p.name for p in players}
    english = context_hint(slug, state.next_hand, names)
    assert english
    assert get_ruleset(slug).rules_hint(state.next_hand, names) == english
    with translation.override(language):
        spoken = context_hint(slug, state.next_hand, names, translation.gettext)
    assert spoken
    if (slug, language) != ("dirty-deals", "es"):  # (Spanish tables say "bowers" too)
        assert spoken != english
    phone = Client(headers={"accept-language": language})
    phone.force_login(user)
    html = phone.get(f"/games/{game.pk}/").content.decode()
    assert html_lang(html) == language
    assert 'class="banner-reminder"' in html or 'class="reminder small"' in html
    if slug == "dirty-uno":  # the line gives way to the hand's reminder, in its language
        english = state.next_hand["reminder"]
        spoken = said(language, english)
    assert escape(spoken) in html
    if spoken != english:
        assert escape(english) not in html


@pytest.mark.parametrize(
    ("language", "day", "limit"),
    [
        ("en", "28 Nov 2026", "100,000"),
        ("de", "28. Nov 2026", "100.000"),
        ("es", "28 nov 2026", "100\xa0000"),
    ],
)
def test_dates_and_numbers_are_written_the_readers_way(language: str, day: str, limit: str) -> None:
    """A page's dates and the engine's numbers in a message, as the reader's language
    writes them."""
    import datetime

    from django.template import Context, Template

    from games.errors import Words
    from games.i18n import Count
    from scorekeeper.engine_text import speak

    with translation.override(language):
        shown = Template('{{ d|date:"DATE_FORMAT" }}').render(
            Context({"d": datetime.date(2026, 11, 28)})
        )
        said = Words.of("at most %(most)s", most=Count(100_000)).say({}, speak)
    assert shown == day
    assert said == f"At most {limit}"


@pytest.mark.parametrize(
    ("language", "small_words", "word"),
    [("en", "what is it", "jack"), ("de", "was ist das", "Bube"), ("es", "qué es la", "jota")],
)
def test_the_rules_search_knows_the_small_words_of_the_readers_language(
    language: str, small_words: str, word: str
) -> None:
    """Searching the rules in German passes over German's small words (and the offline
    search is told the same), and finds a German card name."""
    from scorekeeper import rules_index

    with translation.override(language):
        assert rules_index.search(small_words) == []
        hits = rules_index.search(f"{small_words} {word}")
        offline = rules_index.index_json()
    assert hits
    assert set(small_words.split()) <= set(offline["stopwords"])


@pytest.mark.django_db
def test_a_guest_who_joins_by_a_link_gets_their_own_phones_language(user: User) -> None:
    """The owner reads German; a guest whose phone asks for Spanish joins the game by its
    score link and keeps the table in Spanish: the join page, the sheet, its refusals."""
    from django.urls import reverse

    from scorekeeper.services.invites import invite_create

    AccountLanguage.objects.create(user=user, language="de")
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players)
    invite = invite_create(game=game, user=user, role="score")
    guest = Client(headers={"accept-language": "es-ES,es;q=0.9"})
    page = guest.get(reverse("join", args=[invite.token]))
    assert page.status_code == 200
    assert html_lang(page.content.decode()) == "es"
    assert guest.post(reverse("join", args=[invite.token]), {"name": "Maya"}).status_code == 302
    sheet = guest.get(f"/games/{game.pk}/").content.decode()
    assert html_lang(sheet) == "es"
    assert said("es", "Table tools") in sheet
    refused = guest.post(f"/games/{game.pk}/hands/", {"number": "1", "winner": "nobody"})
    assert refused.status_code in (200, 422)
    assert html_lang(refused.content.decode()) == "es"
