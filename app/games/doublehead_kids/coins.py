"""Golden coins of a finished round (rulings, "Basic game" and "Advanced game").

Silver coins are the Doppelkopf card points; the teams are the engine's parties: Re is Team
Prince/Princess (or the lone player), Kontra Team No Crown. Who wins is the Doppelkopf rule
(``app.games.doppelkopf.scoring.winner_of``): without announcements Re needs more than 120
silver coins and 120:120 goes to Team No Crown; with the announcements option a team's own
announcements raise its target and the opponents' lower it, exactly as in Doppelkopf.

Golden coins, per member of a team (gained, never lost):

- ``won``: the winning team, 1. Advanced: ``over_150`` +1 and ``over_180`` +1 more when the
  winners took more than 150 / 180 silver coins (so 1, 2 or 3).
- Advanced, every team whether it won or not: ``foxy`` +1 for each Foxy (AD) in its loot that
  an opponent played; ``karlchen`` +1 when a member won the last duel with a Karlchen (JC);
  ``karlchen_captured`` +1 for each Karlchen an opponent played in the last duel the team won.
- Announcements option: ``announced_<value>`` +1 for each announcement step of the winning team
  (Re/Kontra, No 90 … Black, each skipped step counted as the engine lists it). An
  announcement is *successful* when its team wins the round: the winner's announcements were
  all kept (a team that announced No 90 … Black wins only by reaching them), and a losing
  team's announcements all failed (its Re/Kontra, or a No 90 it did not reach).
- ``lone_double``: a lone player's coins are doubled (every line above, repeated once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.doppelkopf.cards import CHARLIE, FOX
from app.games.doppelkopf.scoring import Tally, tally, winner_of
from app.games.doppelkopf.state import KONTRA, PARTY_NAMES, RE, State

THRESHOLDS = ((150, "over_150"), (180, "over_180"))


@dataclass(frozen=True, slots=True)
class CoinLine:
    """``coins`` golden coins for each member of ``party`` (RE or KONTRA) for ``reason``.

    duel: the index of the duel (trick) a Foxy or Karlchen line comes from, else None.
    """

    reason: str
    party: int
    coins: int
    duel: int | None = None


@dataclass(frozen=True, slots=True)
class RoundCoins:
    """The golden coins of a round: who won, each line, and the coins per seat."""

    result: Tally
    winner: int | None
    lone: bool
    lines: tuple[CoinLine, ...]
    per_seat: tuple[int, ...]


def _winner_lines(state: State, winner: int, result: Tally, advanced: bool) -> list[CoinLine]:
    lines = [CoinLine("won", winner, 1)]
    if advanced:
        lines += [CoinLine(reason, winner, 1)
                  for limit, reason in THRESHOLDS if result.card_points[winner] > limit]
    if state.rules.announcements:
        lines += [CoinLine(f"announced_{value}", winner, 1)
                  for seat, value in state.announcements if state.party_of(seat) == winner]
    return lines


def _extra_lines(state: State) -> list[CoinLine]:
    """Foxy and Karlchen (advanced game), for every team."""
    lines = []
    last = len(state.tricks) - 1
    for index, trick in enumerate(state.tricks):
        team = state.party_of(trick.winner)
        assert team is not None
        for play in trick.plays:
            if play.card == FOX and state.party_of(play.seat) != team:
                lines.append(CoinLine("foxy", team, 1, index))
        if index != last:
            continue
        winning = next(play for play in trick.plays if play.seat == trick.winner)
        if winning.card == CHARLIE:
            lines.append(CoinLine("karlchen", team, 1, index))
        for play in trick.plays:
            if play.card == CHARLIE and state.party_of(play.seat) != team:
                lines.append(CoinLine("karlchen_captured", team, 1, index))
    return lines


def round_coins(state: State) -> RoundCoins:
    """The golden coins of a finished round (``state.rules`` is a KidsRules)."""
    result = tally(state)
    winner = winner_of(state.levels, result)
    advanced = getattr(state.rules, "scoring", "basic") == "advanced"
    lines: list[CoinLine] = []
    if winner is not None:
        lines += _winner_lines(state, winner, result, advanced)
    if advanced:
        lines += _extra_lines(state)
    lone = len(state.seats_of(RE)) == 1
    if lone:
        own = sum(line.coins for line in lines if line.party == RE)
        if own:
            lines.append(CoinLine("lone_double", RE, own))
    per_party = [sum(line.coins for line in lines if line.party == party) for party in (RE, KONTRA)]
    per_seat = tuple(per_party[state.party_of(seat) or 0] for seat in range(4))
    return RoundCoins(result, winner, lone, tuple(lines), per_seat)


def lines_json(state: State, coins: RoundCoins) -> list[dict[str, Any]]:
    """The coin lines as JSON: reason, team, its seats, coins per member (and the duel)."""
    out = []
    for line in coins.lines:
        entry: dict[str, Any] = {"reason": line.reason, "party": PARTY_NAMES[line.party],
                                 "seats": state.seats_of(line.party), "coins": line.coins}
        if line.duel is not None:
            entry["duel"] = line.duel
        out.append(entry)
    return out
