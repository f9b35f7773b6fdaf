"""The lobby: open tables, New Game, joining and leaving, invitations (service.py), friends
(friends.py), the live lobby feed (hub.py) and the public matchmaking queue, "Play now"
(matchmaking.py)."""
