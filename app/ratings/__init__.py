"""Ratings (openskill) per game and the leaderboards built from them; pure, no I/O."""
