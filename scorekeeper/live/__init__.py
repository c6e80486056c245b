"""Live updates of score sheets: the phones at a table see a hand as soon as it is saved.

* :mod:`.capability` — the signed, expiring ticket a sheet page hands its phone for one
  game's event stream (the events server checks it with no session and no database).
* :mod:`.notify` — writes announce a change with ``pg_notify`` in their transaction, so
  it is delivered on commit and never on rollback (PostgreSQL; nothing on SQLite).
* :mod:`.hub` — the subscribers of one events process, by game (connections, not state).
* :mod:`.sources` — where a process learns of changes: one ``LISTEN`` connection on
  PostgreSQL, or one batched version query a second on SQLite.
* :mod:`.versions` — the version of each watched game, for a stream's first event
  (from the notifications heard, or one query for all the streams opening together).
* :mod:`.asgi` — the events server (``python -m scorekeeper.live``, uvicorn): server-sent
  events at ``/events/<capability>``. It keeps nothing but its open connections, so any
  number of processes serve any phone.

An event says only which version the game is at and from which hand the sheet changed
(``{"v": 8, "from": 7}``); the phone then asks ``games/<pk>/live/`` for just those rows
(:mod:`.delta`), an answer rendered once per game version and shared by the table's
phones (``scorekeeper.web.live_answer``). A stream's first event (``hello``) says which
version its game is at (:mod:`.versions`): only a phone that is behind asks for more.
Without JavaScript the sheet refreshes itself (``<noscript>``).
"""

#: The PostgreSQL channel every change goes to (one for all games: a process fans out).
CHANNEL = "scorekeeper_live"
