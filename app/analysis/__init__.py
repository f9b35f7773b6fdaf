"""Post-game analysis: the expert's estimate of every decision a seat made (issue 20).

For each decision of one seat (reservations, announcements, cards, bids, discards) the game's
estimator, seeing only that seat's view at that moment, gives the expected score of every
legal action; the analysis compares the action taken with the best one.

Modules: ``decisions`` (a seat's decisions and views, walked from a scenario), ``estimators``
(per game: which decisions can be valued and how), ``playouts`` (the game-agnostic estimator:
policy playouts over sampled worlds), ``worlds`` (hidden cards that fit a view, per game),
``report`` (the analysis document), ``cli`` (``python -m app analyse``).
"""
