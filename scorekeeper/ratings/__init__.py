"""League ratings and standings, derived from the rankings of finished league games.

* :mod:`.model` — the rating model: openskill, the rating shown, when it is provisional.
  Pure Python: selectors and pages read its constants without importing any writes.
* :mod:`.replay` — the steps of a replay: lock a league, read its finished games in
  rating order, rate them, write rating points and standings.
* :mod:`.hooks` — what the game services call inside their transaction when a league
  game changes: re-rate now when cheap, else leave a mark for the background task.
* :mod:`.backlog` — the marks, and the background task's replay of a league from its
  mark in short chunks.
* :mod:`.rebuild` — recompute every derived number from the stored hands.

Nothing is imported here, so importing :mod:`.model` loads no more than it.
"""
