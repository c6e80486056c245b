"""League roles in league backups: each member's role is exported and imported as it
was, an export written before roles imports its members as members who record games,
and a bad role is refused (naming its place) before anything is written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import RuleError
from scorekeeper.models import League, MemberRole, Membership, Player
from scorekeeper.selectors.access import LeagueRole, league_access
from scorekeeper.services.backup import league_export_json, league_import_json
from tests.scorekeeper.test_backup import canonical, counts, empty_the_install, league

pytestmark = pytest.mark.django_db

__all__ = ["league"]  # the fixture, shared with test_backup

ROLES = [MemberRole.ADMIN, MemberRole.RECORDER, MemberRole.VIEWER]


def _roles(league: League) -> dict[str, str]:
    return dict(Membership.objects.filter(league=league).values_list("player__name", "role"))


def _club(owner: User, roles: dict[str, str]) -> League:
    """A league without games whose members (named as in ``roles``) hold those roles;
    ``Bo`` plays for the account ``bo``."""
    league = League.objects.create(name="Roles club", owner=owner)
    bo = User.objects.create_user("bo")
    for name, role in roles.items():
        player = Player.objects.create(
            name=name, user=bo if name == "Bo" else None, created_by=owner
        )
        Membership.objects.create(league=league, player=player, role=role)
    return league


def test_roles_survive_export_and_import_into_an_empty_install(league: League) -> None:
    Membership.objects.filter(league=league, player__name="Cy").update(role=MemberRole.VIEWER)
    Membership.objects.filter(league=league, player__name="Di").update(role=MemberRole.ADMIN)
    roles = _roles(league)
    assert roles == {
        "Ana": "recorder",
        "Bo": "admin",
        "Cy": "viewer",
        "Di": "admin",
        "Ed": "recorder",
    }
    before = league_export_json(league)
    assert {m["role"] for m in before["members"]} == {"admin", "recorder", "viewer"}
    empty_the_install()
    owner = User.objects.create_user("ana")

    imported = league_import_json(
        json.loads(json.dumps(before)), owner=owner, trusted=True, create_users=True
    )

    assert _roles(imported) == roles
    assert canonical(league_export_json(imported)) == canonical(before)  # 0 differences
    # Bo's account is an admin of the imported league, as of the one exported.
    bo = User.objects.get(username="bo")
    assert league_access(bo, imported).role is LeagueRole.ADMIN
    assert league_access(bo, imported).may_manage


def test_an_export_without_roles_imports_its_members_as_recorders(user: User) -> None:
    league = _club(user, {"Ana": "admin", "Bo": "viewer", "Cy": "recorder"})
    data = league_export_json(league)
    for member in data["members"]:
        del member["role"]  # as exports were written before there were roles

    imported = league_import_json(data, owner=user)

    assert _roles(imported) == {"Ana": "recorder", "Bo": "recorder", "Cy": "recorder"}


@pytest.mark.parametrize(
    "bad", ["boss", "Admin", "owner", "", None, 2, True, ["admin"], {"role": "admin"}]
)
def test_a_bad_role_is_refused_naming_it_and_nothing_is_written(user: User, bad: Any) -> None:
    league = _club(user, {"Ana": "admin", "Bo": "viewer", "Cy": "recorder"})
    data = league_export_json(league)
    data["members"][2]["role"] = bad
    before = counts()

    with pytest.raises(RuleError) as caught:
        league_import_json(json.loads(json.dumps(data)), owner=user)

    assert caught.value.field == "members"
    assert caught.value.message.startswith(
        "members[2].role: must be one of admin, recorder, viewer"
    )
    assert counts() == before


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(chosen=st.lists(st.sampled_from(ROLES), min_size=1, max_size=6))
def test_any_roles_round_trip(user: User, chosen: list[str]) -> None:
    empty_the_install()
    owner = User.objects.create_user("ana")
    roles = {f"P{i}": role for i, role in enumerate(chosen)}
    data = league_export_json(_club(owner, roles))
    empty_the_install()
    owner = User.objects.create_user("ana")

    imported = league_import_json(
        json.loads(json.dumps(data)), owner=owner, trusted=True, create_users=True
    )

    assert _roles(imported) == roles
