"""A match's progress as a pure value-holder: rounds, the current round's state, the score sheet,
and the one condition that ends the match (:class:`EndCondition`).

No I/O: the actor persists each step before it calls the ``commit_*`` methods here. Rebuilding
from the event log is ``MatchProgress.replay(...)`` over the stored rounds and actions.
Dealers move left after each round, except after a ``redeal`` round (same dealer again, and
the round does not count towards the match's number of deals).

One end condition per game (docs/rules/match-length.md), stated the same way on the New Game
form, the lobby, the table, the score sheet, the result, the history and the replay:

- Doppelkopf and its GameTwist modes: a number of deals, a multiple of the players so that
  everyone deals equally often (duel mode: four);
- Doublehead Kids: the golden coins that win (5 basic, 10 advanced); no deal limit;
- Doppelganger Tricks: as many rounds as players;
- Doppio: the penalty limit (100 by default).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from app.games.base import Game, IllegalAction, RoundOutcome, best_seats, totals

#: the kinds of end condition: a number of deals, golden coins to win, one round per player,
#: a penalty limit
END_KINDS = ("deals", "coins", "rounds", "penalty")
#: the most deals a match may have (Doppelkopf's number of deals; a development server's cap):
#: the one limit of New Game's form, its model and the lobby's check, and of their refusal
MAX_DEALS = 48


class MatchLengthError(ValueError):
    """A number of deals that does not fit the game (not a multiple of the players)."""

    def __init__(self, players: int) -> None:
        super().__init__(f"a multiple of {players}, so that everyone deals equally often")
        self.players = players


@dataclass(frozen=True)
class EndCondition:
    """How a match ends.

    kind: ``deals`` (after ``target`` counted deals; redeals do not count), ``coins`` (after the
        deal in which a player reaches ``target`` golden coins), ``rounds`` (after ``target``
        rounds, one per player), ``penalty`` (after the round in which a total reaches
        ``target`` penalty points).
    target: the number that kind counts to.
    cap: a number of counted deals that ends a coins, rounds or penalty match first, or None
        (the production default: no cap). Only a table opened for development or tests
        (config ``any_deal_count``) or stored before match ends were fixed has one; it is
        stated wherever the end is ("first to 5 golden coins, at most 2 deals").
    """

    kind: str
    target: int
    cap: int | None = None

    def json(self) -> dict[str, Any]:
        """``{"kind", "target", "cap"}`` for the clients (static/js/words.js words it)."""
        return {"kind": self.kind, "target": self.target, "cap": self.cap}

    @property
    def deals(self) -> int:
        """The number of counted rounds that ends the match: the target of deals and rounds,
        else the cap, else 0 (the game's own verdict ends it). What a table stores as its
        ``deals``."""
        if self.cap is not None:
            return self.cap
        return self.target if self.kind in ("deals", "rounds") else 0


def end_condition(game: Game, rules: Any, players: int, deals: int) -> EndCondition:
    """The end condition of ``game`` at a table of ``players`` that stores ``deals``.

    ``deals`` is the match length of the deals kind (Doppelkopf). The other games fix their own
    end; for them a stored positive ``deals`` below that end is a cap (see EndCondition.cap):
    any for coins and penalty, fewer than the players for rounds.
    """
    if game.name == "doublehead_kids":
        return EndCondition("coins", int(rules.target_coins), deals or None)
    if game.name == "doppelganger_tricks":
        return EndCondition("rounds", players, deals if 0 < deals < players else None)
    if game.name == "doppio":
        return EndCondition("penalty", int(rules.game_end_total), deals or None)
    return EndCondition("deals", deals)


#: the rule option that sets the target of an end condition (New Game shows it as the end)
END_OPTIONS = {"coins": "target_coins", "penalty": "game_end_total"}


def end_form(game: Game) -> dict[str, Any]:
    """How New Game states ``game``'s end: ``{"kind", "option"}`` (``option``: the rule option
    holding the target, or None: the deals field for ``deals``, the player count for
    ``rounds``)."""
    preset = next(iter(game.presets), None)
    rules = game.make_rules({"preset": preset} if preset else {})
    kind = end_condition(game, rules, game.player_counts[-1], 0).kind
    return {"kind": kind, "option": END_OPTIONS.get(kind)}


def table_end(game_name: str, rules_raw: Any, players: int, deals: int) -> dict[str, Any]:
    """The end condition of a stored table (game name, rules JSON, players, deals) as JSON;
    ``{"kind": "deals", "target": deals}`` for a game that is not installed."""
    from app.games.registry import UnknownGame, get_game

    try:
        game = get_game(game_name)
        rules = game.make_rules(rules_raw or {})
    except (UnknownGame, ValueError):
        return EndCondition("deals", deals).json()
    return end_condition(game, rules, players, deals).json()


def table_deals(game: Game, rules: Any, players: int, deals: int) -> int:
    """The deals a new table stores: ``deals`` for a deals-kind game (Doppelkopf), else the
    game's own (one round per player; 0 where coins or a penalty limit end the match)."""
    end = end_condition(game, rules, players, 0)
    return deals if end.kind == "deals" else end.deals


@dataclass(frozen=True)
class DealsRange:
    """The numbers of deals a deals-kind match (Doppelkopf) may have at one table size: every
    multiple of ``step`` from ``min`` to ``max``. New Game's Deals field takes its min, step and
    max from here (Lobby.games); :func:`check_deals` applies the same step."""

    min: int
    max: int
    step: int

    def json(self) -> dict[str, int]:
        """``{"min", "max", "step"}`` for the New Game form (static/js/lobby.js)."""
        return {"min": self.min, "max": self.max, "step": self.step}


def deals_range(players: int, *, any_deal_count: bool = False) -> DealsRange:
    """The deals a deals-kind match at a table of ``players`` may have: a multiple of the players,
    so that everyone deals equally often, at most MAX_DEALS; with ``any_deal_count``
    (development and tests: config.Settings.any_deal_count) any number from 1 to MAX_DEALS."""
    step = 1 if any_deal_count else players
    return DealsRange(min=step, max=MAX_DEALS - MAX_DEALS % step, step=step)


def check_deals(end: EndCondition, players: int) -> None:
    """Raise MatchLengthError unless a deals-kind match lets everyone deal equally often
    (:func:`deals_range`'s step)."""
    if end.kind == "deals" and end.target % deals_range(players).step:
        raise MatchLengthError(players)


@dataclass
class RoundRecord:
    """One deal: number (0-based), dealer, cards, accepted actions, outcome once over.

    ``released``: the deal is over and the next one has begun, so its cards and actions were
    let go (:meth:`release`): they live on in the event log, and a table holds only its
    current deal's in memory, however long the match."""

    number: int
    dealer: int
    deal: list[list[str]]
    deck: list[str]
    actions: list[dict[str, Any]] = field(default_factory=list)
    outcome: RoundOutcome | None = None
    id: int | None = None
    released: bool = False

    def release(self) -> None:
        """Let go of the cards and actions of this finished deal (number, dealer, outcome and
        id stay: the score sheet, the match's end and the duplicate keys read only those)."""
        self.deal, self.deck, self.actions = [], [], []
        self.released = True


def outcome_json(outcome: RoundOutcome) -> dict[str, Any]:
    """A round outcome as stored JSON: ``{"scores", "details", "redeal", "finished"}``."""
    return {"finished": outcome.finished, "scores": list(outcome.scores),
            "details": outcome.details, "redeal": outcome.redeal}


def deal_keys(redeals: Iterable[bool]) -> list[tuple[int, int]]:
    """The duplicate key of each dealt round, given whether each round (in order) was a
    redeal: ``(counted, attempt)`` — the counted number of the deal (0-based; redeals do not
    count) and how many times it had been dealt before at this table. Every table of a
    duplicate round deals key (c, 0) the same cards; a deal dealt again after a redeal gets
    (c, 1), … — cards no other table may have had (a comparison takes equal keys only)."""
    keys, counted, attempt = [], 0, 0
    for redeal in redeals:
        keys.append((counted, attempt))
        if redeal:
            attempt += 1
        else:
            counted, attempt = counted + 1, 0
    return keys


def duplicate_rng(seed: str, key: tuple[int, int]) -> random.Random:
    """The random source of one duplicate deal: a function of the table's ``deal_seed`` and
    the deal's :func:`deal_keys` key only, so every table with that seed deals seat N the same
    cards (the dealer is the same too: the first dealer is the last seat everywhere, and the
    dealer moves on the same way)."""
    counted, attempt = key
    return random.Random(f"{seed}:{counted}:{attempt}")


class MatchProgress:
    """The rounds of a match at one table and the state of the current round.

    Invariant: ``state`` is the state after applying ``rounds[-1].actions`` to its deal.
    """

    def __init__(self, game: Game, rules: Any, players: int, deals: int) -> None:
        self.game, self.rules, self.players = game, rules, players
        self.end = end_condition(game, rules, players, deals)
        self.deals = self.end.deals
        self.rounds: list[RoundRecord] = []
        self.state: Any = None

    # --- reading ---------------------------------------------------------------------------

    @property
    def current(self) -> RoundRecord | None:
        return self.rounds[-1] if self.rounds else None

    def outcomes(self) -> list[RoundOutcome]:
        """The outcomes of finished rounds, in order."""
        return [r.outcome for r in self.rounds if r.outcome is not None]

    def counted(self) -> int:
        """Finished rounds that count towards the match (redeals do not)."""
        return sum(1 for o in self.outcomes() if not o.redeal)

    def round_over(self) -> bool:
        return self.current is not None and self.current.outcome is not None

    def match_over(self) -> bool:
        """The end condition is met: all deals played (deals kind; or a cap), or the game says
        the match is over (its coins, rounds or penalty limit)."""
        if not self.round_over():
            return False
        if self.deals and self.counted() >= self.deals:  # the deals (or a cap) are played
            return True
        return self.game.match_status(self.rules, self.players, self.outcomes()).game_over

    def next_dealer(self) -> int:
        """Dealer of the next round: left of the last dealer, or the same after a redeal.

        The first dealer is the last seat, so seat 0 (the table's creator) leads first.
        """
        last = self.current
        if last is None:
            return self.players - 1
        if last.outcome is not None and last.outcome.redeal:
            return last.dealer
        return (last.dealer + 1) % self.players

    def next_deal_key(self) -> tuple[int, int]:
        """The :func:`deal_keys` key of the next round to be dealt (after the finished ones)."""
        redeals = [r.outcome is not None and r.outcome.redeal for r in self.rounds]
        return deal_keys([*redeals, False])[-1]

    def winners(self) -> list[int]:
        """The match winners: the game's own verdict, else the best totals (when the table's
        number of deals ends the match first): the highest, or the lowest for a game whose
        scores are penalties (``traits.lower_scores_win``, e.g. Doppio)."""
        status = self.game.match_status(self.rules, self.players, self.outcomes())
        if status.winners:
            return list(status.winners)
        lowest = self.game.traits.lower_scores_win
        return list(best_seats(totals(self.outcomes(), self.players), lowest=lowest))

    def score_sheet(self) -> dict[str, Any]:
        """``{"rounds": [...], "totals": [...], "deals": N, "played": n, "current": k,
        "end": {...}}`` for the clients (``current``: :meth:`deal_number`). Each row's ``deal`` is its counted number (1-based): a redeal carries the
        number of the deal it replaces, which the next row deals again."""
        rows, counted = [], 0
        for r in self.rounds:
            if r.outcome is None:
                continue
            rows.append({"number": r.number, "deal": counted + 1, "dealer": r.dealer,
                         "scores": list(r.outcome.scores), "redeal": r.outcome.redeal,
                         "details": r.outcome.details})
            counted += 0 if r.outcome.redeal else 1
        return {"rounds": rows, "totals": totals(self.outcomes(), self.players),
                "deals": self.deals, "played": self.counted(), "current": self.deal_number(),
                "end": self.end.json()}

    def deal_number(self) -> int:
        """The counted number (1-based) of the deal being played or last played: redeals do
        not count, so a deal dealt again keeps its number."""
        last = self.current
        if last is not None and last.outcome is not None and not last.outcome.redeal:
            return self.counted()
        return self.counted() + 1

    # --- changing --------------------------------------------------------------------------

    def begin_round(self, record: RoundRecord) -> None:
        """Start a dealt round (its deal must fit the game)."""
        self.state = self.game.new_round(self.rules, self.players, record.deal, record.deck,
                                         record.dealer)
        last = self.current
        if last is not None and last.outcome is not None:
            last.release()
        self.rounds.append(record)

    def try_action(self, action: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
        """The state and events ``action`` would lead to at the live table; nothing changes.

        Raises IllegalAction (from the game) if the rules forbid it, if the game's optional
        ``live_refusal`` refuses it at a live table (Doppelganger Tricks: a seat that may take a
        bonus card keeps the turn), or if no round is running.
        """
        if self.current is None or self.round_over():
            raise IllegalAction("no deal is being played")
        refusal = self.game.traits.live_refusal
        reason = refusal(self.state, action) if refusal is not None else None
        if reason is not None:
            raise IllegalAction(reason)
        return self.game.apply(self.state, action)

    def commit_action(self, action: dict[str, Any], new_state: Any) -> RoundOutcome | None:
        """Record an accepted action and its state; return the outcome if the round ended."""
        assert self.current is not None
        self.current.actions.append(action)
        self.state = new_state
        if self.game.is_over(new_state):
            self.current.outcome = self.game.outcome(new_state)
            return self.current.outcome
        return None

    @classmethod
    def replay(cls, game: Game, rules: Any, players: int, deals: int,
               rounds: list[RoundRecord]) -> MatchProgress:
        """Rebuild from stored rounds (each with its actions). Raises IllegalAction on a log
        the rules reject (a corrupt log)."""
        progress = cls(game, rules, players, deals)
        for stored in rounds:
            record = RoundRecord(number=stored.number, dealer=stored.dealer, deal=stored.deal,
                                 deck=stored.deck, id=stored.id)
            progress.begin_round(record)
            for action in stored.actions:  # the log as the rules read it (no live refusals)
                new_state, _events = game.apply(progress.state, action)
                progress.commit_action(action, new_state)
        return progress

    def scenario(self) -> dict[str, Any]:
        """The match as a scenario document (spec/scenario-format.md), while no deal has been
        released (:meth:`RoundRecord.release`); raises ValueError after: the event log holds
        the whole match (app.rooms.store.MatchStore.load_match)."""
        if any(r.released for r in self.rounds):
            raise ValueError("the match's earlier deals are in the event log only")
        return {"game": self.game.name, "rules": self.game.rules_json(self.rules),
                "players": self.players,
                "rounds": [{"dealer": r.dealer, "deal": r.deal, "deck": r.deck,
                            "actions": r.actions} for r in self.rounds]}
