"""One link for the whole night: a phone that joined a night by its score link records
hands in every game of that night without a new link (and in no other game); a watch
link follows; revoking the link or removing the guest shuts the phone out of them all;
the night's page shows the current game, the standings and (to its owner) the links."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.test import APIClient

from scorekeeper.models import Game, Guest, HandRevision, Invite, Player
from scorekeeper.services.games import game_close, game_create, hand_record
from scorekeeper.services.invites import guest_remove, invite_revoke, night_invite_create
from scorekeeper.services.nights import night_create
from tests.scorekeeper.factories import make_players
from tests.scorekeeper.test_web_games import text

SYN = "screw-your-neighbour"


@pytest.fixture
def three(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", created_by=user)


def new_game(user: User, players: list[Player], night: int | None) -> Game:
    return game_create(
        owner=user,
        ruleset=SYN,
        players=[p.pk for p in players],
        options={"target_wins": 0},
        night=night,
    )


def record(client: Client, game: Game, winner: Player) -> Any:
    sheet = client.get(f"/games/{game.pk}/")
    assert sheet.status_code == 200
    return client.post(f"/games/{game.pk}/hands/", {"winner": str(winner.pk)})


def test_a_score_guest_of_the_night_records_in_each_game_without_a_new_link(
    user: User, three: list[Player]
) -> None:
    night = night_create(owner=user, name="Friday at Jo's")
    first = new_game(user, three, night.pk)
    invite = night_invite_create(night=night, user=user, role="score")
    phone = Client()
    page = phone.get(f"/join/{invite.token}/")
    assert page.status_code == 200
    assert "Join Friday at Jo's" in text(page)
    joined = phone.post(f"/join/{invite.token}/", {"name": "Maya"})
    assert joined.status_code == 302
    assert joined["Location"] == f"/games/{first.pk}/"
    assert record(phone, first, three[1]).status_code in (200, 302)
    assert first.hands.count() == 1

    second = new_game(user, three, night.pk)  # "Play again": the next game of the night
    assert record(phone, second, three[2]).status_code in (200, 302)
    assert second.hands.count() == 1
    guest = Guest.objects.get()
    assert HandRevision.objects.filter(guest=guest).count() == 2
    # The same link opens the night's current game now.
    assert phone.get(f"/join/{invite.token}/")["Location"] == f"/games/{second.pk}/"

    elsewhere = new_game(user, three, None)
    assert phone.get(f"/games/{elsewhere.pk}/").status_code in (302, 404)


def test_a_watch_link_of_the_night_only_watches(user: User, three: list[Player]) -> None:
    night = night_create(owner=user, name="Friday")
    game = new_game(user, three, night.pk)
    invite = night_invite_create(night=night, user=user, role="watch")
    phone = Client()
    assert phone.get(f"/join/{invite.token}/")["Location"] == f"/games/{game.pk}/"
    sheet = phone.get(f"/games/{game.pk}/")
    assert sheet.status_code == 200
    assert 'id="entry-heading"' not in sheet.content.decode()
    refused = phone.post(f"/games/{game.pk}/hands/", {"winner": str(three[0].pk)})
    assert refused.status_code in (302, 403)
    assert game.hands.count() == 0


def test_revoking_the_night_link_or_removing_its_guest_shuts_every_game(
    user: User, three: list[Player]
) -> None:
    night = night_create(owner=user, name="Friday")
    games = [new_game(user, three, night.pk) for _ in range(2)]
    invite = night_invite_create(night=night, user=user, role="score")
    maya, ben = Client(), Client()
    maya.post(f"/join/{invite.token}/", {"name": "Maya"})
    ben.post(f"/join/{invite.token}/", {"name": "Ben"})
    assert maya.get(f"/nights/{night.pk}/").status_code == 200
    guest_remove(guest=Guest.objects.get(name="Maya"), user=user)
    for game in games:
        assert maya.get(f"/games/{game.pk}/").status_code != 200
        assert ben.get(f"/games/{game.pk}/").status_code == 200
    # The night's page too: a removed guest no longer sees the evening.
    assert maya.get(f"/nights/{night.pk}/").status_code == 404
    assert maya.get(f"/nights/{night.pk}/?part=current").status_code == 404
    assert ben.get(f"/nights/{night.pk}/").status_code == 200
    invite_revoke(invite=invite, user=user)
    for game in games:
        assert ben.get(f"/games/{game.pk}/").status_code != 200
    assert ben.get(f"/nights/{night.pk}/").status_code == 404
    assert Client().get(f"/join/{invite.token}/").status_code == 404


def test_a_link_is_for_a_game_or_a_night_never_both(user: User, three: list[Player]) -> None:
    night = night_create(owner=user, name="Friday")
    game = new_game(user, three, night.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        Invite.objects.create(game=game, night=night, role="score", token="x" * 32)
    with pytest.raises(IntegrityError), transaction.atomic():
        Invite.objects.create(role="score", token="y" * 32)


def test_night_invites_over_the_api(
    api: APIClient, user: User, other_user: User, three: list[Player]
) -> None:
    night = api.post("/api/v1/nights/", {"name": "Friday"}, format="json").json()["id"]
    made = api.post(f"/api/v1/nights/{night}/invites/", {"role": "score"}, format="json")
    assert made.status_code == 201
    body = made.json()
    assert body["role"] == "score"
    assert body["url"].endswith(f"/join/{Invite.objects.get().token}/")
    assert body["qr_svg"].endswith("/qr.svg")
    assert api.get(f"/api/v1/nights/{night}/invites/").json() == [body]
    bad = api.post(f"/api/v1/nights/{night}/invites/", {"role": "owner"}, format="json")
    assert bad.status_code == 400
    assert "role" in bad.json()
    stranger = APIClient()
    stranger.force_authenticate(other_user)
    assert stranger.post(f"/api/v1/nights/{night}/invites/", {"role": "watch"}).status_code == 404
    assert api.delete(f"/api/v1/nights/{night}/invites/{body['id']}/").status_code == 204
    assert api.get(f"/api/v1/nights/{night}/invites/").json() == []
    assert api.delete(f"/api/v1/nights/{night}/invites/{body['id']}/").status_code == 404


def test_the_night_page_leads_to_the_current_game_and_shares_the_night(
    user: User, three: list[Player]
) -> None:
    night = night_create(owner=user, name="Friday at Jo's")
    owner = Client()
    owner.force_login(user)
    empty = owner.get(f"/nights/{night.pk}/")
    assert empty.status_code == 200
    assert "No game yet" in text(empty)
    game = new_game(user, three, night.pk)
    page = owner.get(f"/nights/{night.pk}/")
    assert f'href="/games/{game.pk}/"' in page.content.decode()
    made = owner.post(f"/nights/{night.pk}/", {"role": "watch"})
    assert made.status_code == 302
    shown = owner.get(made["Location"])
    assert "/join/" in shown.content.decode()
    assert Invite.objects.get().night_id == night.pk
    bad = owner.post(f"/nights/{night.pk}/", {"role": "boss"}, follow=True)
    assert "is not a role" in text(bad)
    # A stranger sees nothing; a phone that joined by the link sees the night.
    assert Client().get(f"/nights/{night.pk}/").status_code == 404
    phone = Client()
    phone.get(f"/join/{Invite.objects.get().token}/")
    seen = phone.get(f"/nights/{night.pk}/")
    assert seen.status_code == 200
    assert "One link for the whole night" not in text(seen)


def test_a_finished_game_of_the_night_keeps_listening_then_points_to_the_next(
    user: User, three: list[Player]
) -> None:
    night = night_create(owner=user, name="Friday")
    first = game_create(
        owner=user,
        ruleset=SYN,
        players=[p.pk for p in three],
        options={"target_wins": 1},
        night=night.pk,
    )
    invite = night_invite_create(night=night, user=user, role="watch")
    phone = Client()
    phone.get(f"/join/{invite.token}/")
    owner = Client()
    owner.force_login(user)
    assert record(owner, first, three[0]).status_code in (200, 302)
    first.refresh_from_db()
    assert first.status == "finished"
    over = phone.get(f"/games/{first.pk}/").content.decode()
    assert "every 2s" in over  # the night has no next game: the sheet keeps asking
    assert "data-follow" not in over
    seen = first.version

    # "Play again" offers the night; the game it starts is the night's next.
    again = owner.get(f"/games/new/?ruleset={SYN}&from={first.pk}").content.decode()
    assert f'name="night" value="{night.pk}" checked' in again
    second = new_game(user, three, night.pk)
    first.refresh_from_db()
    assert first.version == seen + 1
    answer = phone.get(f"/games/{first.pk}/live/?v={seen}&hand=0", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert f'data-follow="/games/{second.pk}/"' in answer.content.decode()
    page = phone.get(f"/games/{first.pk}/").content.decode()
    assert f'data-follow="/games/{second.pk}/"' in page
    assert "every 2s" not in page  # over, and its night moved on: nothing to wait for
    display = phone.get(f"/games/{first.pk}/display/").content.decode()
    assert f'data-follow="/games/{second.pk}/display/"' in display


def test_the_new_game_form_starts_a_game_in_the_night(user: User, three: list[Player]) -> None:
    night = night_create(owner=user, name="Friday")
    owner = Client()
    owner.force_login(user)
    chooser = owner.get(f"/games/new/?night={night.pk}").content.decode()
    assert f"night={night.pk}" in chooser
    form = owner.get(f"/games/new/?ruleset={SYN}&night={night.pk}").content.decode()
    assert "Part of “Friday”" in form
    body = {
        "ruleset": SYN,
        "seat_count": "3",
        **{f"seat-{i}-player": str(p.pk) for i, p in enumerate(three)},
        "first_dealer": "0",
        "night": str(night.pk),
        "night_offer": str(night.pk),
    }
    started = owner.post("/games/new/", body)
    assert started.status_code == 302, text(started)
    assert Game.objects.get().night_id == night.pk
    other = night_create(owner=User.objects.create_user("cy"), name="Theirs")
    refused = owner.post("/games/new/", {**body, "night": str(other.pk), "start_token": "a" * 32})
    assert refused.status_code == 422
    assert f"Night {other.pk} does not exist or is not yours" in text(refused)


def test_the_night_tells_its_evening_and_each_game_end_shows_its_standings(
    user: User, three: list[Player]
) -> None:
    ana, bo, cy = three
    night = night_create(owner=user, name="Friday")
    owner = Client()
    owner.force_login(user)
    for winner in (bo, bo, ana):
        game = game_create(
            owner=user,
            ruleset=SYN,
            players=[p.pk for p in three],
            options={"target_wins": 2},
            night=night.pk,
        )
        loser = cy if winner is not cy else ana
        for who in (winner, loser, winner):
            assert record(owner, game, who).status_code in (200, 302)
    page = text(owner.get(f"/nights/{night.pk}/"))
    assert "Champion Bo" in page
    assert "Games played 3" in page
    assert "Closest finish Bo ahead of Cy by 1 win" in page
    card = owner.get(f"/nights/{night.pk}/").content.decode()
    assert "Champion: Bo (2 wins)" in card
    assert "1. Bo 2 wins" in card
    assert "scored with scorekeeper" in card
    end = text(owner.get(f"/games/{game.pk}/"))
    assert "Friday: tonight's standings" in end
    # The evening as an image: drawn once per ETag, then 304; nobody else's to see.
    image_url = f"/nights/{night.pk}/card.png"
    assert f'src="{image_url}"' in card
    image = owner.get(image_url)
    assert image.status_code == 200
    assert image["Content-Type"] == "image/png"
    assert image.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert owner.get(image_url, HTTP_IF_NONE_MATCH=image["ETag"]).status_code == 304
    assert Client().get(image_url).status_code == 404
    # Another game changes what it shows, and so its ETag.
    game = game_create(
        owner=user, ruleset=SYN, players=[p.pk for p in three], options={"target_wins": 2},
        night=night.pk,
    )  # fmt: skip
    for who in (cy, cy):
        assert record(owner, game, who).status_code in (200, 302)
    assert owner.get(image_url)["ETag"] != image["ETag"]


def test_the_night_page_asks_for_its_now_playing_part_alone(
    user: User, three: list[Player]
) -> None:
    night = night_create(owner=user, name="Friday")
    invite = night_invite_create(night=night, user=user, role="watch")
    phone = Client()
    assert phone.get(f"/join/{invite.token}/")["Location"] == f"/nights/{night.pk}/"
    waiting = phone.get(f"/nights/{night.pk}/?part=current").content.decode()
    assert waiting.lstrip().startswith('<section class="card" id="night-current"')
    assert "data-follow" not in waiting
    game = new_game(user, three, night.pk)
    now = phone.get(f"/nights/{night.pk}/?part=current").content.decode()
    assert f'data-follow="/games/{game.pk}/"' in now
    assert "Tonight's standings" not in now
    assert Client().get(f"/nights/{night.pk}/?part=current").status_code == 404


def test_new_game_after_a_game_of_the_night_keeps_its_seats_and_moves_the_deal(
    user: User, three: list[Player]
) -> None:
    night = night_create(owner=user, name="Friday")
    game = new_game(user, three, night.pk)
    hand_record(game=game, user=user, hand_input={"winner": three[1].pk})
    game_close(game=game, user=user)  # an open-ended game, closed by hand
    owner = Client()
    owner.force_login(user)
    sheet = owner.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/new/?from={game.pk}&amp;night={night.pk}"' in sheet
    chooser = owner.get(f"/games/new/?from={game.pk}&night={night.pk}").content.decode()
    assert f"ruleset=dirt&amp;night={night.pk}&amp;from={game.pk}" in chooser
    form = owner.get(f"/games/new/?ruleset=dirt&night={night.pk}&from={game.pk}").content
    page = form.decode()
    assert "Part of “Friday”" in page
    for i, player in enumerate(three):
        assert f'<option value="{player.pk}" selected' in page.split(f'id="seat-{i}-player"')[1]
    assert 'name="first_dealer" value="1" checked' in page  # Bo deals after Ana


def test_the_nights_owner_removes_one_guest_from_the_night_page(
    user: User, three: list[Player]
) -> None:
    night = night_create(owner=user, name="Friday at Jo's")
    game = new_game(user, three, night.pk)
    invite = night_invite_create(night=night, user=user, role="score")
    maya, ben = Client(), Client()
    maya.post(f"/join/{invite.token}/", {"name": "Maya"})
    ben.post(f"/join/{invite.token}/", {"name": "Ben"})
    owner = Client()
    owner.force_login(user)
    maya_guest = Guest.objects.get(name="Maya")
    remove = f"/nights/{night.pk}/guests/{maya_guest.pk}/remove/"
    page = owner.get(f"/nights/{night.pk}/")
    assert f'href="{remove}"' in page.content.decode()
    # Ben, a guest, may neither see nor use the remove page.
    assert ben.get(remove).status_code == 403
    assert ben.post(remove).status_code == 403
    asked = owner.get(remove)
    assert asked.status_code == 200
    assert "Remove Maya?" in text(asked)
    assert "nor see tonight's games" in text(asked)
    assert "for Ben" in text(asked)
    done = owner.post(remove, follow=True)
    assert "Maya was removed" in text(done)
    assert maya.get(f"/games/{game.pk}/").status_code != 200
    assert ben.get(f"/games/{game.pk}/").status_code == 200
    assert f'href="{remove}"' not in owner.get(f"/nights/{night.pk}/").content.decode()
    again = owner.post(remove, follow=True)
    assert "already removed" in text(again)
    assert owner.get(remove).status_code == 404
