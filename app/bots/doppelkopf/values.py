"""The value of a finished deal from a short summary of its tricks, for the endgame solver.

The solver (``solver``) must score millions of finished deals. Everything the scoring of a
deal reads from its tricks fits in a :data:`Summary`: Re's card points, whether each party
took a trick, and the special points each party earned (fox caught, Doppelkopf, Charlie,
Charlie caught; only those the game counts). :class:`DealValue` turns a summary into the
score with the engine's own rules (``app.games.doppelkopf.scoring`` for game points,
``app.games.doublehead_kids.coins`` for golden coins), memoised per summary;
tests/bots/test_solver.py checks it against the engine's scoring on random deals.

Summary: ``(re_points, re_took_a_trick, kontra_took_a_trick, specials_re, specials_kontra)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.bots.doppelkopf.table import golden_coins
from app.games.doppelkopf.contracts import TEAM_CONTRACTS
from app.games.doppelkopf.rules import Rules
from app.games.doppelkopf.scoring import Line, Tally, game_lines, re_net, winner_of
from app.games.doppelkopf.state import KONTRA, RE

Summary = tuple[int, bool, bool, int, int]
TOTAL_POINTS = 240


class _Levels:
    """The two fields of a State that game_lines reads."""

    __slots__ = ("levels", "rules")

    def __init__(self, levels: tuple[int, int], rules: Rules) -> None:
        self.levels = levels
        self.rules = rules


class DealValue:
    """Scores of finished deals of one contract with fixed parties and announcements.

    rules: the table's rules (a KidsRules scores golden coins). solo: one Re player (a solo
    or a wedding without partner: scores x3 for the soloist in Doppelkopf, lone double in
    Kids). levels: the announcement levels (RE, KONTRA). contract: the contract played.
    announcements: the announcement steps per party (Kids counts each for the winner).

    ``net(summary)`` is Re's score minus Kontra's per player (Doppelkopf: the signed game
    value; Kids: golden coins of a Re member minus a Kontra member): the quantity Re maximises
    and Kontra minimises. ``seat_score(summary, party)`` is what one player of ``party`` gets.
    The counting flags say which special points the trick loop must collect.
    """

    def __init__(self, rules: Rules, contract: str, solo: bool, levels: Sequence[int],
                 announcements: Sequence[int] = (0, 0)) -> None:
        self.rules = rules
        self.kids = golden_coins(rules)
        self.advanced = self.kids and getattr(rules, "scoring", "basic") == "advanced"
        self.solo = solo
        self.levels = (levels[RE], levels[KONTRA])
        self.steps = (announcements[RE], announcements[KONTRA])
        team = contract in TEAM_CONTRACTS and not solo
        if self.kids:
            self.specials = self.advanced
            self.count_doppelkopf = False
            self.count_charlie_caught = True
        else:
            self.specials = team
            self.count_doppelkopf = True
            self.count_charlie_caught = rules.charlie_caught
        self._fake = _Levels(self.levels, rules)
        self._memo: dict[Summary, tuple[int, int]] = {}

    def scores(self, summary: Summary) -> tuple[int, int]:
        """(score of a Re player, score of a Kontra player) for a finished deal."""
        found = self._memo.get(summary)
        if found is None:
            found = self._coins(summary) if self.kids else self._points(summary)
            self._memo[summary] = found
        return found

    def net(self, summary: Summary) -> int:
        re, kontra = self.scores(summary)
        return re - kontra if self.kids else (re if not self.solo else re // 3)

    def seat_score(self, summary: Summary, party: int) -> int:
        return self.scores(summary)[party]

    def _tally(self, summary: Summary) -> Tally:
        re_points, re_trick, kontra_trick, _, _ = summary
        return Tally((re_points, TOTAL_POINTS - re_points), (int(re_trick), int(kontra_trick)))

    def _points(self, summary: Summary) -> tuple[int, int]:
        result = self._tally(summary)
        winner = winner_of(self.levels, result)
        lines = game_lines(self._fake, winner, result)  # type: ignore[arg-type]
        if self.specials:
            if winner == KONTRA:
                lines.append(Line("against_the_elders", KONTRA, 1))
            lines.append(Line("specials", RE, summary[3]))
            lines.append(Line("specials", KONTRA, summary[4]))
        net_re = re_net(self.rules, winner, lines)
        return (3 * net_re if self.solo else net_re), -net_re

    def _coins(self, summary: Summary) -> tuple[int, int]:
        result = self._tally(summary)
        winner = winner_of(self.levels, result)
        coins = [0, 0]
        if winner is not None:
            coins[winner] += 1
            if self.advanced:
                coins[winner] += sum(1 for limit in (150, 180) if result.card_points[winner] > limit)
            if self.rules.announcements:
                coins[winner] += self.steps[winner]
        if self.advanced:
            coins[RE] += summary[3]
            coins[KONTRA] += summary[4]
        if self.solo:
            coins[RE] *= 2
        return coins[RE], coins[KONTRA]


def announcement_steps(announcements: Sequence[Any], party_of: Sequence[int | None]) -> tuple[int, int]:
    """How many announcement steps each party made, from ``[(seat, value), ...]``."""
    steps = [0, 0]
    for seat, _value in announcements:
        party = party_of[seat]
        if party is not None:
            steps[party] += 1
    return steps[RE], steps[KONTRA]
