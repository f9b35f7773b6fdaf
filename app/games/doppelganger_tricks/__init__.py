"""Doppelganger Tricks (Doppelgänger-Stiche): a bidding trick game for 3 or 4 players.

Modules, one concept each: ``cards`` (cards and deck), ``options`` (rules options and presets),
``state`` (the immutable round state), ``tricks`` (following suit, annihilation, trick winner),
``flow`` (whose move, legal actions, the bonus window), ``actions`` (applying actions),
``scoring`` (round points and match winners), ``view`` (per-seat views and the debug dump) and
``game`` (the ``GAME`` object of app.games.base.Game).
"""

from app.games.doppelganger_tricks.game import GAME, DoppelgangerTricks

__all__ = ["GAME", "DoppelgangerTricks"]
