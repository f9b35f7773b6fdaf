"""Doppio: a positional card game for 2 to 4 players with a live catch window.

Modules, one concept each: ``cards`` (names, the 48-card deck), ``rules`` (table options),
``deal`` (dealing and checking a deal), ``layout`` (positions, pairs, hand value, discard with
shift and refill), ``state`` (the immutable round state), ``catch`` (the catch window),
``turns`` (discard and Doppio), ``actions`` (checking and dispatching actions, legal actions),
``scoring`` (penalties, outcome, match end), ``view`` (a seat's view, the omniscient dump) and
``game`` (the ``GAME`` object). Rulings and decisions: docs/rules/doppio.md.
"""

from app.games.doppio.game import GAME, DoppioGame

__all__ = ["GAME", "DoppioGame"]
