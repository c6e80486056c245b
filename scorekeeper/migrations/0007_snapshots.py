"""Each hand keeps what the engine made of it (``Hand.derived``), filled here for the
hands already stored, one game at a time."""

from typing import Any

from django.db import migrations, models


def fill_derived(apps: Any, schema_editor: Any) -> None:
    from games import GameConfig, RuleError, get_ruleset

    Game = apps.get_model("scorekeeper", "Game")
    Hand = apps.get_model("scorekeeper", "Hand")
    for game in Game.objects.prefetch_related("seats", "hands").iterator(chunk_size=200):
        hands = sorted(game.hands.all(), key=lambda h: h.number)
        if not hands:
            continue
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        config = GameConfig(
            ruleset=game.ruleset,
            players=tuple(s.player_id for s in seats),
            variant=game.variant or None,
            options=dict(game.options),
            teams=tuple(tuple(t) for t in game.teams) if game.teams else None,
            first_dealer=game.first_dealer_id,
        )
        try:
            state = get_ruleset(game.ruleset).play(config, [h.input for h in hands])
        except RuleError:
            continue  # left empty: read by replaying, as before
        for hand, outcome in zip(hands, state.hands, strict=True):
            # As ``scorekeeper.selectors.games.derived_of`` stores it.
            data = outcome.as_dict()
            data["carry"] = outcome.carry
            hand.derived = data
        Hand.objects.bulk_update(hands, ["derived"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0006_idempotency_body"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="derived",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(fill_derived, migrations.RunPython.noop, elidable=True),
    ]
