"""The pages. Each area keeps its own ``urlpatterns``."""

from scorekeeper.web import accounts, games, home, leagues, rules

urlpatterns = [
    *home.urlpatterns,
    *accounts.urlpatterns,
    *rules.urlpatterns,
    *games.urlpatterns,
    *leagues.urlpatterns,
]
