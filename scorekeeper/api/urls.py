"""REST API v1 (see ../shared/spec/api.md). Each area keeps its own ``urlpatterns``."""

from scorekeeper.api import (
    auth,
    backup,
    games,
    guests,
    hand_pages,
    invites,
    league_members,
    leagues,
    nights,
    players,
    results,
    rulesets,
    schema,
    table,
)

urlpatterns = [
    *schema.urlpatterns,
    *auth.urlpatterns,
    *rulesets.urlpatterns,
    *players.urlpatterns,
    *backup.urlpatterns,
    *leagues.urlpatterns,
    *league_members.urlpatterns,
    *games.urlpatterns,
    *nights.urlpatterns,
    *hand_pages.urlpatterns,
    *table.urlpatterns,
    *invites.urlpatterns,
    *guests.urlpatterns,
    *results.urlpatterns,
]
