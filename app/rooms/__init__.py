"""Tables in play: one actor per table (actor.py, with its parts course.py, audiences.py,
clocks.py, catch_window.py and unloading.py; settings: config.py) over a match's progress
(match.py), the event log in the database (store.py), client connections (connection.py) and the
registry of actors (manager.py)."""
