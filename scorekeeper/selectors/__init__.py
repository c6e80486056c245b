"""Reads: what pages and the API show, and who may see or change a game
(``selectors.access``). Selectors import no services, pages or API."""
