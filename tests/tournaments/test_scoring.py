"""Standings, tie-breaks, the duplicate comparison and the arena's points
(app/tournaments/scoring.py), with each game's own scoring direction."""

from __future__ import annotations

from app.tournaments.scoring import (
    DealResult,
    SeatHolder,
    TableResult,
    arena_points,
    boards,
    duplicate_scores,
    standings,
)


def table(table_id, people, deals, *, round_=1, finished=True, winners=(), number=None):
    seats = tuple(SeatHolder(seat=i, user_id=p, name=f"U{p}" if p else f"C{i}",
                             bot_level=None if p else "beginner")
                  for i, p in enumerate(people))
    return TableResult(table_id=table_id, number=number or table_id, round=round_,
                       seats=seats, deals=tuple(DealResult(tuple(d)) if not isinstance(d, DealResult)
                                                else d for d in deals),
                       finished=finished, winners=tuple(winners))


PEOPLE = [(1, "U1", "active"), (2, "U2", "active"), (3, "U3", "active"), (4, "U4", "active")]


def test_series_sums_game_points_and_ranks_the_highest_first():
    t1 = table(10, [1, 2, None, None], [[3, 3, -3, -3], [-1, 1, 1, -1]], winners=[1])
    t2 = table(11, [3, 4, None, None], [[2, -2, 2, -2]], winners=[0, 2])
    rows = standings("series", "game", False, [t1, t2], PEOPLE)
    # U1 and U3 both have 2: U3 won a table (the first tie-break)
    assert [(r.user_id, r.score, r.rank) for r in rows] == [(2, 4, 1), (3, 2, 2), (1, 2, 3),
                                                            (4, -2, 4)]


def test_series_tie_break_is_tables_won_then_best_table():
    t1 = table(10, [1, None, None, None], [[2, 0, 0, -2]], winners=[0])
    t2 = table(11, [2, None, None, None], [[2, 0, 0, -2]], winners=[1])  # not a winner
    rows = standings("series", "game", False, [t1, t2], PEOPLE[:2])
    assert [(r.user_id, r.rank, r.tables_won) for r in rows] == [(1, 1, 1), (2, 2, 0)]


def test_equal_on_every_count_share_the_place():
    t1 = table(10, [1, None, None, None], [[2, 0, 0, -2]], winners=[0])
    t2 = table(11, [2, None, None, None], [[2, 0, 0, -2]], winners=[0])
    t3 = table(12, [3, None, None, None], [[1, 0, 0, -1]], winners=[0])
    rows = standings("series", "game", False, [t1, t2, t3], PEOPLE[:3])
    assert [r.rank for r in rows] == [1, 1, 3]


def test_doppio_fewer_penalty_points_rank_first():
    t1 = table(10, [1, 2, 3], [[10, 40, 25]], winners=[0])
    rows = standings("series", "game", True, [t1], PEOPLE[:3])
    assert [(r.user_id, r.score, r.rank) for r in rows] == [(1, 10, 1), (3, 25, 2), (2, 40, 3)]


def test_won_bonus_adds_fifty_per_deal_won():
    t1 = table(10, [1, 2, None, None], [[3, -3, 3, -3], [-2, 2, 2, -2], [1, -1, -1, 1]])
    rows = {r.user_id: r for r in standings("series", "won_bonus", False, [t1], PEOPLE[:2])}
    assert rows[1].score == 3 - 2 + 1 + 2 * 50
    assert rows[2].score == -3 + 2 - 1 + 1 * 50
    assert rows[1].game_score == 2  # the game's own points stay as they were


def test_duplicate_compares_each_seat_with_the_same_cards_elsewhere():
    # two tables, same deals; seat 0 scored 3 here and -1 there: +4 and -4 (difference to
    # the other table's average)
    a = table(10, [1, None, None, None], [[3, 3, -3, -3], [2, -2, 2, -2]])
    b = table(11, [2, None, None, None], [[-1, 1, 1, -1], [2, -2, 2, -2]])
    c = table(12, [3, None, None, None], [[1, -1, 1, -1], [0, 0, 0, 0]])
    scores = duplicate_scores([a, b, c], lower_wins=False)
    # deal 1, seat 0: a=3, others' average (−1+1)/2=0 → +3; deal 2: a=2, others (2+0)/2=1 → +1
    assert scores[(10, 0)] == (4.0, 2)
    assert scores[(11, 0)] == (-1 - 2 + 2 - 1, 2)  # −1 vs 2 → −3; 2 vs 1 → +1
    rows = {r.user_id: r for r in standings("duplicate", "game", False, [a, b, c], PEOPLE[:3])}
    assert rows[1].score == 4 and rows[1].compared == 2
    assert rows[1].rank == 1


def test_duplicate_with_a_single_table_compares_nothing():
    a = table(10, [1, 2, None, None], [[3, -3, 3, -3]])
    scores = duplicate_scores([a], lower_wins=False)
    assert scores[(10, 0)] == (0.0, 0)
    assert boards([a], False)[0]["compared"] is False


def test_duplicate_leaves_a_redealt_deal_out_of_the_comparison():
    # table a dealt deal 1 again after a redeal: its second dealing has other cards
    a = table(10, [1, None, None, None], [DealResult((0, 0, 0, 0), redeal=True), [5, -5, 5, -5]])
    b = table(11, [2, None, None, None], [[1, -1, 1, -1]])
    scores = duplicate_scores([a, b], lower_wins=False)
    assert scores[(10, 0)] == (0.0, 0)
    assert scores[(11, 0)] == (0.0, 0)


def test_duplicate_penalty_games_count_fewer_as_better():
    a = table(10, [1, None], [[10, 30]])
    b = table(11, [2, None], [[20, 20]])
    assert duplicate_scores([a, b], lower_wins=True)[(10, 0)] == (10.0, 1)


def test_duplicate_compares_only_within_a_round():
    a = table(10, [1, None, None, None], [[3, -3, 3, -3]], round_=1)
    b = table(11, [2, None, None, None], [[-3, 3, -3, 3]], round_=2)
    assert duplicate_scores([a, b], lower_wins=False)[(10, 0)] == (0.0, 0)


def test_arena_points_are_two_per_seat_beaten_and_one_per_tie():
    t = table(10, [1, 2, 3, None], [[5, 5, -2, -8]])
    assert [arena_points(t, s, False) for s in range(4)] == [5, 5, 2, 0]
    doppio = table(11, [1, 2, 3], [[10, 40, 25]])
    assert [arena_points(doppio, s, True) for s in range(3)] == [4, 0, 2]


def test_arena_counts_a_match_only_once_it_is_over():
    done = table(10, [1, 2, None, None], [[5, -5, 1, -1]], round_=None, winners=[0])
    running = table(11, [1, 3, None, None], [[9, -9, 0, 0]], round_=None, finished=False)
    rows = {r.user_id: r for r in standings("arena", "game", False, [done, running], PEOPLE[:3])}
    assert rows[1].score == 6 and rows[1].played == 1 and rows[1].tables_won == 1
    assert rows[3].score == 0 and rows[3].played == 0


def test_computer_players_are_never_ranked():
    t = table(10, [1, None, None, None], [[3, 3, -3, -3]])
    rows = standings("series", "game", False, [t], PEOPLE[:1])
    assert [r.user_id for r in rows] == [1]


def test_a_table_just_seated_is_not_played_yet():
    """The standings' "Played" counts a running table once a deal of it is over: right after
    the round is seated nobody has played anything (it said "Played 1")."""
    seated = table(10, [1, 2, None, None], [], finished=False)
    rows = {r.user_id: r for r in standings("series", "game", False, [seated], PEOPLE[:2])}
    assert rows[1].played == 0 and rows[2].played == 0
    one_deal = table(10, [1, 2, None, None], [[3, 3, -3, -3]], finished=False)
    rows = {r.user_id: r for r in standings("series", "game", False, [one_deal], PEOPLE[:2])}
    assert rows[1].played == 1 and rows[2].played == 1
