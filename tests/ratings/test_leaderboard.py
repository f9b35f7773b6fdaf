"""Leaderboard eligibility: provisional and inactive players are left out; own rank anywhere."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.ratings.leaderboard import (
    ACTIVE_DAYS,
    TOP,
    Ineligible,
    RatingRecord,
    leaderboard,
    own_rank,
)
from app.ratings.model import Rating

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
RECENT = NOW - timedelta(days=1)


def record(player, mu, sigma=2.0, *, game="doppelkopf", last_active=RECENT):
    return RatingRecord.of(player, game, Rating(mu, sigma), last_active)


def test_top_is_ordered_by_ordinal_not_by_mu():
    # b has the higher mu but is less certain: 30 - 3*4 = 18 < 27 - 3*2 = 21
    board = leaderboard([record("b", 30.0, 4.0), record("a", 27.0, 2.0)], "doppelkopf", NOW)
    assert [(e.rank, e.player) for e in board.entries] == [(1, "a"), (2, "b")]
    assert board.entries[0].ordinal == pytest.approx(21.0)


def test_provisional_players_are_left_out():
    provisional = record("new", 40.0, 6.0)
    assert provisional.provisional
    board = leaderboard([provisional, record("old", 20.0)], "doppelkopf", NOW, player="new")
    assert [e.player for e in board.entries] == ["old"]
    assert board.own.rank is None and board.own.reason is Ineligible.PROVISIONAL


def test_players_inactive_for_more_than_30_days_are_left_out():
    assert ACTIVE_DAYS == 30
    edge = record("edge", 30.0, last_active=NOW - timedelta(days=30))
    gone = record("gone", 35.0, last_active=NOW - timedelta(days=30, seconds=1))
    board = leaderboard([edge, gone], "doppelkopf", NOW)
    assert [e.player for e in board.entries] == ["edge"]
    assert own_rank([edge, gone], "doppelkopf", "gone", NOW).reason is Ineligible.INACTIVE
    # the same record is back on the board when "now" is earlier: the clock is the caller's
    assert own_rank([gone], "doppelkopf", "gone", NOW - timedelta(seconds=1)).rank == 1


def test_top_100_and_own_rank_outside_it():
    records = [record(f"p{i:03}", 40.0 - i * 0.1) for i in range(150)]
    board = leaderboard(records, "doppelkopf", NOW, player="p120")
    assert len(board.entries) == TOP == 100
    assert board.entries[-1].player == "p099" and board.entries[-1].rank == 100
    assert board.own.rank == 121 and board.own.reason is None
    assert "p120" not in {e.player for e in board.entries}


def test_own_rank_counts_only_eligible_players_above():
    records = [
        record("top", 35.0),
        record("provisional", 45.0, 7.0),
        record("inactive", 45.0, last_active=NOW - timedelta(days=31)),
        record("me", 30.0),
    ]
    assert own_rank(records, "doppelkopf", "me", NOW).rank == 2


def test_equal_ordinals_share_a_rank_and_are_listed_by_player():
    board = leaderboard(
        [record("c", 25.0), record("b", 30.0), record("a", 25.0), record("d", 20.0)],
        "doppelkopf",
        NOW,
    )
    assert [(e.rank, e.player) for e in board.entries] == [(1, "b"), (2, "a"), (2, "c"), (4, "d")]


def test_only_the_requested_game_counts_and_an_unrated_player_is_told_so():
    records = [record("a", 30.0, game="doppio"), record("b", 20.0)]
    board = leaderboard(records, "doppelkopf", NOW, player="a")
    assert [e.player for e in board.entries] == ["b"]
    assert board.own.reason is Ineligible.UNRATED


def test_two_records_of_one_player_in_one_game_are_an_error():
    with pytest.raises(ValueError, match="two doppelkopf ratings"):
        leaderboard([record("a", 30.0), record("a", 31.0)], "doppelkopf", NOW)
