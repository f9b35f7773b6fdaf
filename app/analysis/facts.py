"""What one sampled deal's end tells about an action, for the reasons of the analysis.

The estimators play every legal action out over sampled deals (app.analysis.playouts, and the
expert's search: app.bots.doppelkopf.search.fact); each playout leaves one *fact*, a plain
dict of what happened to the analysed seat in that deal:

- ``w``: the deal's weight (1.0 unless the sampler weighs deals), ``score``: the seat's score
  of the round in the game's unit, ``won``: whether the seat reached the round's goal;
- Doppelkopf and Doublehead Kids: ``points`` (the own party's card points), ``trick`` and
  ``trick_points`` (whether the own party took the trick in play, and its card points);
- Doppelganger Tricks: ``tricks`` (tricks the seat took), ``bid`` (its bid), ``trick``
  (whether it took the trick in play; None before the play);
- Doppio: ``hand_value`` (the seat's hand value at the end), ``doppio`` (a Doppio declared by
  the seat: whether it succeeded; None without one).

``won`` is the goal of each game: a positive score (Doppelkopf, Doublehead Kids: the own party
won the deal), the bid made exactly (Doppelganger Tricks), the lowest penalty of the table,
ties included (Doppio).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Fact = dict[str, Any]
#: (the view at the decision, the end state of the playout, the seat's score) → its fact
Reader = Callable[[Mapping[str, Any], Any, Any], Fact]


def doppelganger_fact(view: Mapping[str, Any], end: Any, outcome: Any) -> Fact:
    """A Doppelganger Tricks playout's fact (see the module docstring)."""
    me = view["seat"]
    details = outcome.details
    tricks = details["tricks_won"][me]
    bid = details["bids"][me]
    trick = None
    if view.get("phase") == "playing":
        index = view["tricks_played"]
        trick = index < len(end.tricks) and end.tricks[index].winner == me
    return {"w": 1.0, "score": outcome.scores[me], "won": tricks == bid, "tricks": tricks,
            "bid": bid, "trick": trick}


def doppio_fact(view: Mapping[str, Any], end: Any, outcome: Any) -> Fact:
    """A Doppio playout's fact (see the module docstring)."""
    me = view["seat"]
    details = outcome.details
    call = details.get("doppio")
    return {"w": 1.0, "score": outcome.scores[me], "won": outcome.scores[me] == min(outcome.scores),
            "hand_value": details["hand_values"][me],
            "doppio": call["success"] if call is not None and call["seat"] == me else None}


READERS: dict[str, Reader] = {
    "doppelganger_tricks": doppelganger_fact,
    "doppio": doppio_fact,
}
