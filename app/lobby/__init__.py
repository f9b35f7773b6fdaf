"""Open tables, New Game, joining and leaving (service.py), friends (friends.py), and the live
lobby feed (hub.py)."""
