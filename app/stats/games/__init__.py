"""One plugin per game (app/stats/facts.py ``PLUGINS``): the game's counters of a finished deal
and the figures made of them. parties.py holds what the Doppelkopf family shares."""
