"""The pages. Each area keeps its own ``urlpatterns``."""

from scorekeeper.web import (
    accounts,
    backup,
    game_list,
    games,
    health,
    home,
    join,
    league_player,
    leagues,
    my_account,
    new_game,
    players,
    results,
    rules,
    share,
    theme,
)

urlpatterns = [
    *health.urlpatterns,
    *home.urlpatterns,
    *accounts.urlpatterns,
    *my_account.urlpatterns,
    *rules.urlpatterns,
    *game_list.urlpatterns,
    *new_game.urlpatterns,
    *games.urlpatterns,
    *share.urlpatterns,
    *results.urlpatterns,
    *join.urlpatterns,
    *backup.urlpatterns,
    *players.urlpatterns,
    *leagues.urlpatterns,
    *league_player.urlpatterns,
    *theme.urlpatterns,
]
