"""The pages. Each area keeps its own ``urlpatterns``."""

from scorekeeper.web import accounts, backup, games, home, leagues, rules

urlpatterns = [
    *home.urlpatterns,
    *accounts.urlpatterns,
    *rules.urlpatterns,
    *games.urlpatterns,
    *backup.urlpatterns,
    *leagues.urlpatterns,
]
