"""The one small interface every game implements (see docs/architecture.md).

A game is a module-level object with the methods of :class:`Game`. Everything here is pure:
no I/O, no clock, and no randomness except a ``random.Random`` passed in by the caller.

Actions and events are plain JSON objects (``dict``), exactly the action objects of the
scenario format (``../shared/spec/scenario-format.md``): ``{"seat": 0, "type": "play",
"card": "QC"}``. The same objects travel over the WebSocket protocol and are stored in the
event log, so a stored match replays with ``python -m app replay``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

Seat = int
Action = dict[str, Any]
Event = dict[str, Any]
JSON = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules forbid now. ``str(err)`` is a reason a player can read.

    Raised by ``Game.apply``; the state passed in is left unchanged (states are immutable
    values: ``apply`` returns a new one).
    """


class RulesError(ValueError):
    """A rules object that names an unknown option or gives an option a bad value.

    ``path`` is the JSON path below ``rules`` (e.g. ``"nines"``), ``message`` the problem.
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


#: the refusal of a number outside its option's documented range (the range is in the game's
#: ``option_ranges`` and docs/rules/)
OUT_OF_RANGE = "a number outside the allowed range"


def check_range(name: str, value: Any, bounds: tuple[float, float], *, whole: bool = True) -> None:
    """Raise RulesError unless ``value`` is a number (a whole number when ``whole``; never a
    bool, infinite or NaN) with ``low <= value <= high`` for ``bounds = (low, high)``: the
    documented range of option ``name``. Every numeric option of every game has one, so no
    option can hold a value the database, the JSON encoder or a browser cannot."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RulesError(name, "expected an integer" if whole else "expected a number")
    if whole and not isinstance(value, int):
        raise RulesError(name, "expected an integer")
    low, high = bounds
    if not low <= value <= high:  # NaN fails every comparison
        raise RulesError(name, OUT_OF_RANGE)


class DealError(ValueError):
    """A deal that does not fit the game: wrong hand sizes or not a permutation of the deck.

    ``path`` is relative to the round (``"deal[3]"``, ``"deck"``), ``message`` the problem.
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """What a round produced.

    finished: the round reached its end by the rules.
    scores: per seat, what the seat gains this round in the game's own unit (Doppelkopf game
        points, Doublehead Kids golden coins, Doppelganger Tricks points, Doppio penalties).
    details: the game's own outcome details (see each game's docs).
    redeal: the round was void (poverty nobody took, a throw-in): the same dealer deals again
        and the round does not count towards the match length.
    """

    finished: bool
    scores: tuple[int, ...]
    details: JSON = field(default_factory=dict)
    redeal: bool = False


@dataclass(frozen=True, slots=True)
class MatchStatus:
    """Whether a match is over after the given rounds, and who won (seats; ties share)."""

    game_over: bool
    winners: tuple[Seat, ...] = ()


@dataclass(frozen=True, slots=True)
class GameTraits:
    """What a game declares it is, beyond the methods every game has: one record per game
    (``Game.traits``), each optional capability named here with its default (a game without it).
    The lobby, the rooms, the clocks, the catch window, the projection, the tournaments and the
    analysis read this record; they never probe a game object for an attribute.

    reservation_phase: the state phase (``state.phase``) of a reservation decision (gesund /
        Vorbehalt), for which a move clock gives twice the time (app/rooms/clocks.py); None.
    lower_scores_win: a match's fallback verdict is the lowest total (Doppio's penalty points).
    secret_actions: action types that are themselves a secret decision, each with the type
        every other seat and spectator is told instead (the same for every choice): Doppio's
        ``{"catch": "answer", "pass": "answer"}``. Other actions are told as ``{"type",
        "seat"}`` to the others (app.rooms.projection); their public effects are in the events.
    option_ranges: each number option's documented (low, high), which make_rules enforces
        (:func:`check_range`) and the New Game form offers.
    fractional_options: those number options that take fractions (the rest step 1).
    option_choices: ``option_choices(preset) -> {option: (value, ...)}``, the options with
        named values New Game shows as a choice; None: none.
    computer_seats: ``computer_seats(rules, players, bots, deals) -> seats``, where a new
        table's computer players sit (RulesError if the table mode does not allow them); None:
        the last ``bots`` seats.
    close_catch_window: ``close_catch_window(state) -> (state, events)``, what the room calls
        when an open catch window's time runs out (Doppio; the state's ``window`` is set while
        one is open, ``rules.catch_window_seconds`` long); None: the game has no catch window.
    live_refusal: ``live_refusal(state, action) -> reason or None``, why a live table refuses
        an action the rules (a scenario file) accept, e.g. Doppelganger Tricks keeps the turn
        with a seat that may take a bonus card (app.rooms.match.MatchProgress.try_action).
    round_word: what the game calls one hand played out, "deal" (Doppelkopf) or "round"; the
        score sheets' and the replay's first column say it (the browser's plugins say the same
        as ``roundWord``).
    """

    reservation_phase: str | None = None
    lower_scores_win: bool = False
    secret_actions: Mapping[str, str] = field(default_factory=dict)
    option_ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    fractional_options: frozenset[str] = frozenset()
    option_choices: Callable[[str], dict[str, tuple[str, ...]]] | None = None
    computer_seats: Callable[[Any, int, int, int], tuple[int, ...]] | None = None
    close_catch_window: Callable[[Any], tuple[Any, list[Event]]] | None = None
    live_refusal: Callable[[Any, Mapping[str, Any]], str | None] | None = None
    round_word: str = "deal"


class Game(Protocol):
    """The interface of one game's rules core (DESIGN.md layer 1).

    ``rules`` is the game's own immutable rules object made by :meth:`make_rules`; ``state`` is
    the game's own immutable round state.
    """

    name: str
    player_counts: tuple[int, ...]
    presets: Mapping[str, Mapping[str, Any]]
    #: every optional capability of the game (:class:`GameTraits`)
    traits: GameTraits

    def make_rules(self, raw: Mapping[str, Any]) -> Any:
        """Build the rules from a scenario's ``rules`` object (``preset`` plus options).

        Raises RulesError for an unknown preset or option, or an option of the wrong type.
        """
        ...

    def rules_json(self, rules: Any) -> JSON:
        """The rules as a full JSON object of every option (round-trips through make_rules)."""
        ...

    def check_deal(
        self, rules: Any, players: int, deal: Sequence[Sequence[str]], deck: Sequence[str]
    ) -> None:
        """Raise DealError unless ``deal`` (and ``deck``) are a permutation of the game's deck."""
        ...

    def deal(self, rules: Any, players: int, rng: random.Random) -> tuple[list[list[str]], list[str]]:
        """Shuffle and deal: each seat's hand and the remaining draw pile (top card first)."""
        ...

    def new_round(
        self,
        rules: Any,
        players: int,
        deal: Sequence[Sequence[str]],
        deck: Sequence[str],
        dealer: Seat,
    ) -> Any:
        """The state at the start of a round. The deal must have passed check_deal."""
        ...

    def to_act(self, state: Any) -> tuple[Seat, ...]:
        """The seats whose move it is now (for a turn timer); empty once the round is over.

        Seats may have legal actions outside their turn (Doppelkopf announcements, Doppio
        catches); those seats are not listed here unless the game waits for them.
        """
        ...

    def legal_actions(self, state: Any, seat: Seat) -> list[Action]:
        """Every action ``seat`` may take now; empty when it has none."""
        ...

    def apply(self, state: Any, action: Mapping[str, Any]) -> tuple[Any, list[Event]]:
        """Apply one action; return the new state and the public events it caused.

        Raises IllegalAction (with a reason a player can read) for a malformed action or one
        the rules forbid now; the given state is unchanged.
        """
        ...

    def view(self, state: Any, seat: Seat | None) -> JSON:
        """What ``seat`` may see (``None``: a spectator): its own hand, never another's."""
        ...

    def is_over(self, state: Any) -> bool:
        """Whether the round has ended."""
        ...

    def outcome(self, state: Any) -> RoundOutcome:
        """Scores and details; for an unfinished round ``finished`` is False and scores are 0."""
        ...

    def state_json(self, state: Any) -> JSON:
        """The whole state, hidden cards included: for replays and debugging, never a client."""
        ...

    def match_status(
        self, rules: Any, players: int, outcomes: Sequence[RoundOutcome]
    ) -> MatchStatus:
        """Whether the match is over after these rounds, and its winners."""
        ...


def quoted(value: Any, limit: int = 24) -> str:
    """``repr(value)`` cut to ``limit`` characters: for messages that name a bad input without
    echoing whatever a hostile client sent."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def action_label(action: Mapping[str, Any]) -> str:
    """A short human label of an action for error lines: ``seat 2 play QC``.

    Never raises, whatever the action holds.
    """
    seat = action.get("seat", "?")
    kind = action.get("type", "?")
    parts = [f"seat {seat}", str(kind)]
    for key in ("card", "value", "cards", "partner", "position", "suit"):
        if key in action:
            value = action[key]
            if isinstance(value, list):
                value = ",".join(str(v) for v in value)
            parts.append(str(value))
    return " ".join(parts)


def totals(outcomes: Sequence[RoundOutcome], players: int) -> list[int]:
    """The running sum of the rounds' scores, per seat."""
    result = [0] * players
    for outcome in outcomes:
        for seat, score in enumerate(outcome.scores):
            result[seat] += score
    return result


def best_seats(values: Sequence[int], *, lowest: bool = False) -> tuple[Seat, ...]:
    """The seats holding the best value (highest, or lowest for penalty games); ties share."""
    target = min(values) if lowest else max(values)
    return tuple(seat for seat, value in enumerate(values) if value == target)
