"""Writes: every change the pages and the API make, each in a transaction that locks
what it changes and asks the game's access once more under the lock. Services import no
pages or API."""
