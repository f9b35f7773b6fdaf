"""Standings: each format's score, its tie-breaks, the duplicate comparison and the arena's
points by placing. Pure: the tables' results come in as values (app/tournaments/store.py
loads them), the ranked rows go out.

What counts (docs/tournaments.md, "Scoring"):

- **Series**: the sum of the game's own score over the player's tables — Doppelkopf game
  points, Doublehead Kids golden coins, Doppelganger Tricks points, Doppio penalty points
  (fewer is better). Doppelkopf may instead count *game points + 50 per deal won*
  (``won_bonus``; a deal is won when it scores above 0 for the seat).
  Tie-breaks: tables won (the table's own winner), then the best single table's score.
- **Duplicate series**: per deal, the seat's score minus the average score of the same seat
  at the round's other tables that played the same cards (people and computer players alike);
  for Doppio the other way round (their average minus yours). A deal no other table played
  (a single table, a redeal, a table that ended before it) compares with nothing and adds 0.
  Tie-breaks: the game's own score (as in a series), then tables won.
- **Arena**: per finished match, 2 points for every seat one finished ahead of and 1 for
  every seat one tied with (by the match's total; Doppio: fewer is ahead).
  Tie-breaks: matches won (first place alone or shared), then the game's own score.

Computer players are scored for the comparison but never ranked. Equal on every count share a
place (1, 2, 2, 4).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.rooms.match import deal_keys

#: the outcome details a duplicate board shows per table: how the cards were played
PLAYED = ("contract", "declarer", "card_points", "game_value")
#: the bonus of a deal won under ``won_bonus`` scoring (spec.WON_BONUS)
WON_BONUS = 50


@dataclass(frozen=True)
class SeatHolder:
    """Who held a seat of a tournament table: a person (user_id, name) or a computer."""

    seat: int
    user_id: int | None
    name: str
    bot_level: str | None = None
    absent: bool = False


@dataclass(frozen=True)
class DealResult:
    """One dealt round of a table: its scores per seat and whether it was void (redeal)."""

    scores: tuple[int, ...]
    redeal: bool = False
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TableResult:
    """A tournament table as scoring needs it: ``round`` (None in an arena), its finished
    deals in order, whether its match is over, and its winners (seats)."""

    table_id: int
    number: int
    round: int | None
    seats: tuple[SeatHolder, ...]
    deals: tuple[DealResult, ...]
    finished: bool
    winners: tuple[int, ...] = ()

    def totals(self) -> list[int]:
        """Each seat's score over the table's deals so far."""
        out = [0] * len(self.seats)
        for deal in self.deals:
            for seat, score in enumerate(deal.scores):
                out[seat] += score
        return out

    def keyed(self) -> list[tuple[tuple[int, int], DealResult]]:
        """The counted deals with their duplicate key (app.rooms.match.deal_keys)."""
        keys = deal_keys(d.redeal for d in self.deals)
        return [(key, d) for key, d in zip(keys, self.deals, strict=True) if not d.redeal]


def better(lower_wins: bool, a: float, b: float) -> bool:
    """Whether score ``a`` is better than ``b`` (fewer is better for penalty games)."""
    return a < b if lower_wins else a > b


def seat_score(table: TableResult, seat: int, scoring: str) -> int:
    """A seat's game score at a table (``won_bonus``: plus 50 per deal it won)."""
    score = table.totals()[seat]
    if scoring == "won_bonus":
        score += WON_BONUS * sum(1 for _k, d in table.keyed() if d.scores[seat] > 0)
    return score


def duplicate_scores(tables: Sequence[TableResult], lower_wins: bool
                     ) -> dict[tuple[int, int], tuple[float, int]]:
    """Per (table id, seat): (the sum of its deals' differences to the average of the same
    seat's same cards at the other tables, how many of its deals had a comparison)."""
    groups: dict[tuple[Any, ...], list[tuple[int, int]]] = defaultdict(list)
    for table in tables:
        for key, deal in table.keyed():
            for seat, score in enumerate(deal.scores):
                groups[(table.round, key, seat)].append((table.table_id, score))
    out: dict[tuple[int, int], tuple[float, int]] = {}
    for (_round, _key, seat), entries in groups.items():
        for table_id, score in entries:
            others = [s for t, s in entries if t != table_id]
            diff, compared = 0.0, 0
            if others:
                average = sum(others) / len(others)
                diff = (average - score) if lower_wins else (score - average)
                compared = 1
            total, count = out.get((table_id, seat), (0.0, 0))
            out[(table_id, seat)] = (total + diff, count + compared)
    return out


def arena_points(table: TableResult, seat: int, lower_wins: bool) -> int:
    """2 per seat the seat finished ahead of, 1 per seat it tied with (a finished match)."""
    totals = table.totals()
    mine = totals[seat]
    points = 0
    for other, score in enumerate(totals):
        if other == seat:
            continue
        if better(lower_wins, mine, score):
            points += 2
        elif score == mine:
            points += 1
    return points


@dataclass
class Standing:
    """A person's line of the standings."""

    user_id: int
    name: str
    score: float = 0.0
    game_score: int = 0
    tables_won: int = 0
    best: int | None = None
    played: int = 0
    compared: int = 0
    rounds: dict[int, float] = field(default_factory=dict)
    absent: int = 0
    rank: int = 0
    status: str = "active"

    def json(self) -> dict[str, Any]:
        return {"rank": self.rank, "user_id": self.user_id, "name": self.name,
                "score": round(self.score, 2), "game_score": self.game_score,
                "tables_won": self.tables_won, "best": self.best, "played": self.played,
                "compared": self.compared, "absent": self.absent, "status": self.status,
                "rounds": {str(k): round(v, 2) for k, v in sorted(self.rounds.items())}}


def standings(fmt: str, scoring: str, lower_wins: bool, tables: Iterable[TableResult],
              people: Sequence[tuple[int, str, str]]) -> list[Standing]:
    """The ranked standings of ``people`` ((user id, name, status) of everyone registered)
    from ``tables`` (finished and running: a running table counts its deals so far, except
    in an arena, where a match counts once it is over)."""
    tables = list(tables)
    rows = {uid: Standing(user_id=uid, name=name, status=status) for uid, name, status in people}
    dup = duplicate_scores(tables, lower_wins) if fmt == "duplicate" else {}
    for table in tables:
        totals = table.totals()
        for holder in table.seats:
            row = rows.get(holder.user_id) if holder.user_id is not None else None
            if row is None:
                continue
            if fmt == "arena" and not table.finished:
                continue
            game = seat_score(table, holder.seat, scoring if fmt == "series" else "game")
            row.game_score += totals[holder.seat]
            # a table counts as played once a deal of it is over (a table just seated is not)
            row.played += 1 if table.finished or table.deals else 0
            row.absent += 1 if holder.absent else 0
            if table.finished and holder.seat in table.winners:
                row.tables_won += 1
            if table.finished and (row.best is None or better(lower_wins, game, row.best)):
                row.best = game
            if fmt == "duplicate":
                diff, compared = dup.get((table.table_id, holder.seat), (0.0, 0))
                gained: float = diff
                row.compared += compared
            elif fmt == "arena":
                gained = arena_points(table, holder.seat, lower_wins)
            else:
                gained = game
            row.score += gained
            key = table.round if table.round is not None else table.number
            row.rounds[key] = row.rounds.get(key, 0.0) + gained
    return rank(list(rows.values()), fmt, lower_wins)


def sort_key(row: Standing, fmt: str, lower_wins: bool) -> tuple[float, ...]:
    """The standings order (smaller first): the format's score, then its tie-breaks."""
    sign = 1 if lower_wins else -1
    best = row.best if row.best is not None else (10**9 if lower_wins else -10**9)
    if fmt == "duplicate":
        return (-row.score, sign * row.game_score, -row.tables_won)
    if fmt == "arena":
        return (-row.score, -row.tables_won, sign * row.game_score)
    return (sign * row.score, -row.tables_won, sign * best)


def rank(rows: list[Standing], fmt: str, lower_wins: bool) -> list[Standing]:
    """Sort and number the rows; rows equal on every count share a place (1, 2, 2, 4)."""
    rows.sort(key=lambda r: (sort_key(r, fmt, lower_wins), r.name.casefold()))
    previous = None
    for index, row in enumerate(rows):
        key = sort_key(row, fmt, lower_wins)
        row.rank = rows[index - 1].rank if key == previous else index + 1
        previous = key
    return rows


def boards(tables: Sequence[TableResult], lower_wins: bool) -> list[dict[str, Any]]:
    """The duplicate results page: per round and deal (first dealing only), how every table
    played those cards — each table's scores by seat and who held the seats — and whether a
    comparison was possible (two tables or more)."""
    grouped: dict[tuple[int | None, int], list[dict[str, Any]]] = defaultdict(list)
    for table in tables:
        for (counted, attempt), deal in table.keyed():
            if attempt:
                continue
            grouped[(table.round, counted)].append({
                "table": table.table_id, "number": table.number,
                "scores": list(deal.scores),
                "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot_level}
                          for s in table.seats],
                # how the table played the cards (Doppelkopf: the contract, who declared it,
                # the card points of Re and Kontra); other games' deals carry none of these
                "played": {k: deal.details[k] for k in PLAYED if k in deal.details}})
    out = []
    for (round_number, counted), rows in sorted(grouped.items(), key=lambda kv: (kv[0][0] or 0,
                                                                                 kv[0][1])):
        seats = len(rows[0]["scores"])
        averages = [sum(r["scores"][s] for r in rows) / len(rows) for s in range(seats)]
        out.append({"round": round_number, "deal": counted + 1, "tables": rows,
                    "compared": len(rows) > 1, "averages": [round(a, 2) for a in averages],
                    "lower_wins": lower_wins})
    return out
