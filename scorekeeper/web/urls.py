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
    table,
    table_display,
    theme,
)

urlpatterns = [
    # First the sheet's: its live answer and hands are what phones ask most often.
    *games.urlpatterns,
    *health.urlpatterns,
    *home.urlpatterns,
    *accounts.urlpatterns,
    *my_account.urlpatterns,
    *rules.urlpatterns,
    *game_list.urlpatterns,
    *new_game.urlpatterns,
    *share.urlpatterns,
    *table.urlpatterns,
    *table_display.urlpatterns,
    *results.urlpatterns,
    *join.urlpatterns,
    *backup.urlpatterns,
    *players.urlpatterns,
    *leagues.urlpatterns,
    *league_player.urlpatterns,
    *theme.urlpatterns,
]
