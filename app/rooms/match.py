"""A match's progress as a pure value-holder: rounds, the current round's state, the score sheet.

No I/O: the actor persists each step before it calls the ``commit_*`` methods here. Rebuilding
from the event log is ``MatchProgress.replay(...)`` over the stored rounds and actions.
Dealers move left after each round, except after a ``redeal`` round (same dealer again, and
the round does not count towards the match's number of deals).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.games.base import Game, RoundOutcome, best_seats, totals


@dataclass
class RoundRecord:
    """One deal: number (0-based), dealer, cards, accepted actions, outcome once over."""

    number: int
    dealer: int
    deal: list[list[str]]
    deck: list[str]
    actions: list[dict[str, Any]] = field(default_factory=list)
    outcome: RoundOutcome | None = None
    id: int | None = None


def outcome_json(outcome: RoundOutcome) -> dict[str, Any]:
    """A round outcome as stored JSON: ``{"scores", "details", "redeal", "finished"}``."""
    return {"finished": outcome.finished, "scores": list(outcome.scores),
            "details": outcome.details, "redeal": outcome.redeal}


class MatchProgress:
    """The rounds of a match at one table and the state of the current round.

    Invariant: ``state`` is the state after applying ``rounds[-1].actions`` to its deal.
    """

    def __init__(self, game: Game, rules: Any, players: int, deals: int) -> None:
        self.game, self.rules, self.players, self.deals = game, rules, players, deals
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
        """All deals played, or the game says the match is over."""
        if not self.round_over():
            return False
        if self.counted() >= self.deals:
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

    def winners(self) -> list[int]:
        """The match winners: the game's own verdict, else the highest totals."""
        status = self.game.match_status(self.rules, self.players, self.outcomes())
        if status.winners:
            return list(status.winners)
        return list(best_seats(totals(self.outcomes(), self.players)))

    def score_sheet(self) -> dict[str, Any]:
        """``{"rounds": [...], "totals": [...], "deals": N, "played": n}`` for the clients."""
        rows = [{"number": r.number, "dealer": r.dealer, "scores": list(r.outcome.scores),
                 "redeal": r.outcome.redeal, "details": r.outcome.details}
                for r in self.rounds if r.outcome is not None]
        return {"rounds": rows, "totals": totals(self.outcomes(), self.players),
                "deals": self.deals, "played": self.counted()}

    # --- changing --------------------------------------------------------------------------

    def begin_round(self, record: RoundRecord) -> None:
        """Start a dealt round (its deal must fit the game)."""
        self.state = self.game.new_round(self.rules, self.players, record.deal, record.deck,
                                         record.dealer)
        self.rounds.append(record)

    def try_action(self, action: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
        """The state and events ``action`` would lead to; nothing changes here.

        Raises IllegalAction (from the game) if the rules forbid it, or if no round is running.
        """
        from app.games.base import IllegalAction

        if self.current is None or self.round_over():
            raise IllegalAction("no deal is being played")
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
            for action in stored.actions:
                new_state, _events = progress.try_action(action)
                progress.commit_action(action, new_state)
        return progress

    def scenario(self) -> dict[str, Any]:
        """The match as a scenario document (spec/scenario-format.md)."""
        return {"game": self.game.name, "rules": self.game.rules_json(self.rules),
                "players": self.players,
                "rounds": [{"dealer": r.dealer, "deal": r.deal, "deck": r.deck,
                            "actions": r.actions} for r in self.rounds]}
