"""What one finished match says about each seat: counters derived from its event log.

    facts = match_facts(document)       # the match as a scenario document (its download)
    facts.seats[2]["deals"], facts.seats[2]["solo:solo_queens"], facts.pairs[0][2]["partner_deals"]

The match is replayed through its game's rules core, deal by deal. Each finished deal (a void
deal, ``redeal``, does not count) goes with its final state, its events and its outcome to
the game's plugin (app/stats/games/), which adds that game's counters per seat and says who
played together and who won (:class:`Sides`). This module adds what every game has:

- per seat: ``matches`` 1, ``place_<n>`` 1 (n = 1 for the best total; equal totals share a
  place, "1224"; Doppio's penalties: the lowest is best), ``deals`` (finished deals or rounds
  played), ``points`` (the sum of the seat's scores in the game's unit: Doppelkopf game points,
  golden coins, points, penalty points) and, where the plugin names sides, ``won`` (deals won);
- per ordered pair of seats (a, b), from a's side: ``matches`` 1, ``ahead``/``level``/
  ``behind`` (a placed better, the same, worse than b), and where the plugin names sides
  ``partner_deals``/``partner_won`` (deals on one side, and won) and ``opponent_deals``/
  ``opponent_won``/``opponent_lost`` (deals on opposite sides: a's side won, b's side won).

Pure: no I/O, no clock (it runs in the bots' process pool, app/stats/jobs.py).
Counters are plain ``{name: int}`` dicts whose zero entries are left out.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from app.games.base import Event, Game, IllegalAction, RoundOutcome, action_label, totals
from app.games.registry import get_game
from app.ratings.model import RANK_GAMES, competition_ranks
from app.scenario import ScenarioError

Counters = dict[str, int]

#: game → module of its plugin (a module-level ``PLUGIN``); a game without one (the tests'
#: highcard) gets the counters every game has
PLUGINS = {
    "doppelkopf": "app.stats.games.doppelkopf",
    "doublehead_kids": "app.stats.games.doublehead_kids",
    "doppelganger_tricks": "app.stats.games.doppelganger_tricks",
    "doppio": "app.stats.games.doppio",
}


class Deal:
    """One finished deal (round) as a plugin reads it: the game, its rules object, the number
    of players, the outcome (scores and the game's details), the final state and every event
    the round's actions caused, in order. ``state_json``: the game's whole-state JSON (tricks
    with their cards and winners), made once when first read."""

    __slots__ = ("game", "rules", "players", "outcome", "state", "events", "_state_json")

    def __init__(self, game: Game, rules: Any, players: int, outcome: RoundOutcome, state: Any,
                 events: Sequence[Event]) -> None:
        self.game, self.rules, self.players = game, rules, players
        self.outcome, self.state, self.events = outcome, state, events
        self._state_json: dict[str, Any] | None = None

    @property
    def details(self) -> Mapping[str, Any]:
        return self.outcome.details

    @property
    def state_json(self) -> dict[str, Any]:
        if self._state_json is None:
            self._state_json = self.game.state_json(self.state)
        return self._state_json


@dataclass(frozen=True, slots=True)
class Sides:
    """Who played together in a deal and who won it: ``teams[seat]`` names each seat's side
    (Re 0, Kontra 1); ``winners``: the seats whose side won (empty when nobody won)."""

    teams: tuple[int, ...]
    winners: frozenset[int]


class GameStats(Protocol):
    """A game's plugin: ``add_deal`` adds the game's counters of one finished deal to each
    seat's ``Counter`` and returns the deal's :class:`Sides` (None for a game without sides);
    ``figures``: what the profile shows of the counters (app/stats/figures.py)."""

    game: str

    def add_deal(self, deal: Deal, seats: list[Counter[str]]) -> Sides | None: ...


@cache
def plugin_for(game: str) -> Any:
    """The plugin of ``game`` (a :class:`GameStats`), or None when it has none."""
    module = PLUGINS.get(game)
    return importlib.import_module(module).PLUGIN if module else None


@dataclass
class MatchFacts:
    """The counters of one finished match (see the module docstring). ``placings[seat]``
    counts from 1; ``pairs[a][b]`` is from a's side (``pairs[a][a]`` is empty)."""

    game: str
    players: int
    totals: list[int]
    placings: list[int]
    seats: list[Counters]
    pairs: list[list[Counters]] = field(default_factory=list)


def lower_is_better(game: str) -> bool:
    """Whether ``game``'s totals are penalties (Doppio): the lowest total places first."""
    return RANK_GAMES.get(game, False)


def placings(game: str, match_totals: Sequence[int]) -> list[int]:
    """Each seat's place by the totals, from 1; equal totals share a place ("1224")."""
    ranks = competition_ranks(match_totals, lower_is_better=lower_is_better(game))
    return [rank + 1 for rank in ranks]


def _replay(document: Mapping[str, Any]) -> tuple[Game, int, list[Deal], list[RoundOutcome]]:
    """The document's game, players, finished deals, and every round's outcome (for the
    totals). A stored match was checked when it was played, so the document is not checked
    against the scenario format again (app.scenario.load_scenario: a sixth of the time);
    an action the rules refuse still raises ScenarioError, as does an unknown game."""
    try:
        game = get_game(document["game"])
        rules = game.make_rules(document.get("rules") or {})
        players = document["players"]
        rounds = document["rounds"]
    except (KeyError, TypeError, ValueError) as err:  # UnknownGame, RulesError, a bad document
        raise ScenarioError(f"not a match of a known game: {err!r}") from None
    deals, outcomes = [], []
    for index, round_doc in enumerate(rounds):
        state = game.new_round(rules, players, round_doc["deal"], round_doc.get("deck") or [],
                               round_doc["dealer"])
        events: list[Event] = []
        for a_index, action in enumerate(round_doc.get("actions") or ()):
            try:
                state, caused = game.apply(state, action)
            except IllegalAction as err:
                raise ScenarioError(f"round {index}, action {a_index} ({action_label(action)}): "
                                    f"{err}") from None
            events.extend(caused)
        outcome = game.outcome(state)
        outcomes.append(outcome)
        if outcome.finished and not outcome.redeal:
            deals.append(Deal(game, rules, players, outcome, state, events))
    return game, players, deals, outcomes


def match_facts(document: Mapping[str, Any]) -> MatchFacts:
    """The counters of the finished match ``document`` (a scenario document: game, rules,
    players, rounds with their actions). Raises ScenarioError for one that does not replay."""
    rules_core, players, deals, outcomes = _replay(document)
    game = rules_core.name
    plugin = plugin_for(game)
    seats: list[Counter[str]] = [Counter() for _ in range(players)]
    pairs: list[list[Counter[str]]] = [[Counter() for _ in range(players)] for _ in range(players)]
    for deal in deals:
        for seat, score in enumerate(deal.outcome.scores):
            seats[seat]["deals"] += 1
            seats[seat]["points"] += score
        sides = plugin.add_deal(deal, seats) if plugin is not None else None
        if sides is not None:
            _add_sides(sides, seats, pairs)
    match_totals = totals(outcomes, players)
    places = placings(game, match_totals)
    for seat in range(players):
        seats[seat]["matches"] += 1
        seats[seat][f"place_{places[seat]}"] += 1
        for other in range(players):
            if other != seat:
                pair = pairs[seat][other]
                pair["matches"] += 1
                pair["ahead" if places[seat] < places[other] else
                     "behind" if places[seat] > places[other] else "level"] += 1
    return MatchFacts(game=game, players=players, totals=match_totals, placings=places,
                      seats=[_plain(c) for c in seats],
                      pairs=[[_plain(c) for c in row] for row in pairs])


def _add_sides(sides: Sides, seats: list[Counter[str]], pairs: list[list[Counter[str]]]) -> None:
    teams, winners = sides.teams, sides.winners
    for seat, counter in enumerate(seats):
        if seat in winners:
            counter["won"] += 1
        for other, team in enumerate(teams):
            if other == seat:
                continue
            pair = pairs[seat][other]
            if team == teams[seat]:
                pair["partner_deals"] += 1
                pair["partner_won"] += seat in winners
            else:
                pair["opponent_deals"] += 1
                pair["opponent_won"] += seat in winners
                pair["opponent_lost"] += other in winners


def _plain(counter: Counter[str]) -> Counters:
    return {name: int(value) for name, value in sorted(counter.items()) if value}


def add(into: Counters, more: Mapping[str, int]) -> Counters:
    """``into`` with every counter of ``more`` added (zero results are left out); a new dict."""
    out = dict(into)
    for name, value in more.items():
        total = out.get(name, 0) + value
        if total:
            out[name] = total
        else:
            out.pop(name, None)
    return dict(sorted(out.items()))
