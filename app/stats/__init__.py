"""Statistics of every player: counters per game derived from the event logs of finished
matches (facts.py, one small module per game in games/), kept as a projection per player and
game (projection.py) that grows as each match finishes and can be rebuilt from scratch
(service.py, ``python -m app stats rebuild``); the figures people read (figures.py), the
leaderboards by period (boards.py). docs/statistics.md explains the whole."""
