"""Doppelrunde: Doppelkopf and its family of card games, played in the browser."""

from app import compiled as _compiled

# DOPPELRUNDE_COMPILED=1: the hot modules from their mypyc build (app/compiled.py), which must
# be in place before any of them is imported
_compiled.install()
