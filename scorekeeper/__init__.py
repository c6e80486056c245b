"""The Django side of scorekeeper: models, reads (``selectors``), writes (``services``,
``ratings``), the REST API (``api``), the htmx pages (``web``) and the events server
(``live``). The scoring itself is the engine's, ``games`` (README, "Architecture")."""
