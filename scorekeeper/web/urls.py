"""The pages. Each area keeps its own ``urlpatterns``."""

from scorekeeper.web import accounts, backup, games, home, join, leagues, rules, share

urlpatterns = [
    *home.urlpatterns,
    *accounts.urlpatterns,
    *rules.urlpatterns,
    *games.urlpatterns,
    *share.urlpatterns,
    *join.urlpatterns,
    *backup.urlpatterns,
    *leagues.urlpatterns,
]
