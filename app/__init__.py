"""Doppelrunde: Doppelkopf and its family of card games, played in the browser."""
