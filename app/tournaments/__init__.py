"""Tournaments for every game: series, duplicate series and arenas (docs/tournaments.md).

- :mod:`app.tournaments.spec` — what a tournament is made of, and every refusal of a bad one;
- :mod:`app.tournaments.pairing` — who sits where (pure: the draw, leaders meet, repeats avoided);
- :mod:`app.tournaments.scoring` — standings, tie-breaks, duplicate comparison, arena points (pure);
- :mod:`app.tournaments.store` — the tournament rows and the tables' results in the database;
- :mod:`app.tournaments.service` — create, list, show, register, leave, cancel;
- :mod:`app.tournaments.director` — starts rounds and seats players, once across processes;
- :mod:`app.tournaments.hub` — live standings to the tournament pages over the WebSocket;
- :mod:`app.tournaments.recurring` — tournaments made from a recurring config;
- :mod:`app.tournaments.cli` — ``python -m app tournament create|list|show|cancel|schedule``.

Every tournament table is an ordinary table (``tables`` row, seats, the room actor, event log,
replay, analysis, move clocks, ratings) that its players cannot leave to others: it is created
full and playing, with its seats drawn by the director.
"""
