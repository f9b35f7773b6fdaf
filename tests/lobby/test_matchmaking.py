"""Public matchmaking with a fake clock: tables by rating, bots at the deadline, no doubles."""

from __future__ import annotations

import pytest

from app.games import registry
from app.games.registry import available_games, get_game
from app.lobby.matchmaking import (
    SEAT_COUNTS,
    AlreadyQueued,
    AlreadySeated,
    Matchmaker,
    MatchmakingError,
    QueueKey,
    QueueSettings,
    Window,
)
from app.ratings.model import Bot, BotLevel, Rating


class FakeClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def at(clock: FakeClock, start: float, seconds: float) -> float:
    clock.now = start + seconds
    return clock.now


def levels(table) -> list[BotLevel]:
    return [seat.level for seat in table.seats if isinstance(seat, Bot)]


def test_nine_queued_people_form_tables_by_rating_and_bots_fill_at_the_deadline():
    clock = FakeClock()
    start = clock.now
    mm = Matchmaker(clock)
    # joined one a second, strengths interleaved: a first-come grouping would mix them
    queue = [
        ("s1", 35.0), ("m1", 25.0), ("s2", 35.5), ("m2", 24.5), ("w1", 13.0),
        ("s3", 34.5), ("m3", 25.5), ("w2", 14.0), ("s4", 35.8),
    ]
    for second, (player, mu) in enumerate(queue):
        at(clock, start, second)
        mm.join(player, "doppelkopf", "ddv", Rating(mu, 5.0))
        if player != "s4":
            assert mm.tick() == []  # nobody has four close people yet

    # s4 completes the strong table at once; nobody else is close enough to anyone
    [strong] = mm.tick(at(clock, start, 8))
    assert strong.players == ("s1", "s2", "s3", "s4")
    assert levels(strong) == []
    assert [t.player for t in mm.waiting()] == ["m1", "m2", "w1", "m3", "w2"]

    # m1 joined at +1 s: nothing before +31 s, then the three medium players and one
    # intermediate bot; the weak players (more than the 10-point maximum window away) wait
    assert mm.tick(at(clock, start, 30.9)) == []
    [medium] = mm.tick(at(clock, start, 31))
    assert medium.players == ("m1", "m2", "m3")
    assert levels(medium) == [BotLevel.INTERMEDIATE]
    assert len(medium.seats) == 4

    # w1 joined at +4 s: at +34 s the two weak players get two beginner bots
    assert mm.tick(at(clock, start, 33.9)) == []
    [weak] = mm.tick(at(clock, start, 34))
    assert weak.players == ("w1", "w2")
    assert levels(weak) == [BotLevel.BEGINNER, BotLevel.BEGINNER]
    assert mm.waiting() == []
    assert [strong.number, medium.number, weak.number] == [1, 2, 3]
    assert all(mm.is_seated(player) for player, _ in queue)


def test_a_player_queued_twice_is_refused():
    mm = Matchmaker(FakeClock())
    mm.join("ann", "doppelkopf", "ddv", Rating())
    with pytest.raises(AlreadyQueued, match=r"already waiting for Doppelkopf \(Tournament rules \(DDV\)\)"):
        mm.join("ann", "doppelkopf", "ddv", Rating())
    with pytest.raises(AlreadyQueued):
        mm.join("ann", "doppio", "standard", Rating(), seats=2)
    assert [t.key for t in mm.waiting()] == [QueueKey("doppelkopf", "ddv", 4)]


def test_a_seated_player_cannot_queue_until_released():
    clock = FakeClock()
    mm = Matchmaker(clock)
    mm.join("ann", "doppio", "standard", Rating(), seats=2)
    mm.join("bob", "doppio", "standard", Rating(), seats=2)
    [table] = mm.tick()
    assert table.players == ("ann", "bob")
    with pytest.raises(AlreadySeated):
        mm.join("ann", "doppelkopf", "ddv", Rating())
    mm.release("ann")
    assert mm.join("ann", "doppelkopf", "ddv", Rating()).player == "ann"
    # a seat taken elsewhere (an open table) blocks the queue too, and a queued person
    # cannot be seated elsewhere
    mm.mark_seated("cid")
    with pytest.raises(AlreadySeated):
        mm.join("cid", "doppelkopf", "ddv", Rating())
    with pytest.raises(AlreadyQueued):
        mm.mark_seated("ann")


def test_the_window_widens_with_waiting_time():
    clock = FakeClock()
    start = clock.now
    mm = Matchmaker(clock)
    mm.join("low", "doppio", "standard", Rating(20.0), seats=2)
    mm.join("high", "doppio", "standard", Rating(26.0), seats=2)
    # 6 points apart: window 2 + 0.25 s^-1 * waited reaches 6 after 16 s
    assert mm.tick(at(clock, start, 15.9)) == []
    [table] = mm.tick(at(clock, start, 16))
    assert table.players == ("low", "high") and levels(table) == []


def test_both_windows_must_hold_a_newcomer_is_not_pulled_far():
    clock = FakeClock()
    start = clock.now
    mm = Matchmaker(clock)
    mm.join("old", "doppio", "standard", Rating(20.0), seats=2)
    at(clock, start, 20)  # old's window is now 7
    mm.join("new", "doppio", "standard", Rating(25.0), seats=2)  # new's window is 2
    assert mm.tick() == []
    [table] = mm.tick(at(clock, start, 30))  # old's deadline: a bot, not the far newcomer
    assert table.players == ("old",) and levels(table) == [BotLevel.BEGINNER]
    assert [t.player for t in mm.waiting()] == ["new"]


def test_closest_ratings_are_grouped_with_the_longest_waiter():
    clock = FakeClock()
    start = clock.now
    mm = Matchmaker(clock)
    for player, mu in [("a", 25.0), ("far", 27.0), ("near1", 25.2), ("near2", 24.9)]:
        mm.join(player, "doppelganger_tricks", "standard", Rating(mu), seats=3)
    [table] = mm.tick(at(clock, start, 0))
    assert table.players == ("a", "near1", "near2")
    assert table.key == QueueKey("doppelganger_tricks", "standard", 3)


def test_leave_takes_a_player_out_before_tables_form():
    clock = FakeClock()
    mm = Matchmaker(clock)
    for player in ("a", "b", "c", "d"):
        mm.join(player, "doppelkopf", "ddv", Rating())
    assert mm.leave("d").player == "d"
    assert mm.leave("d") is None
    assert mm.tick() == []
    assert not mm.is_queued("d")


def test_queues_are_kept_apart_by_game_preset_and_size():
    mm = Matchmaker(FakeClock())
    mm.join("a", "doppio", "standard", Rating(), seats=2)
    mm.join("b", "doppio", "standard", Rating(), seats=3)
    mm.join("c", "doppelkopf", "ddv", Rating())
    mm.join("d", "doppelkopf", "gametwist_pub", Rating())
    assert mm.tick() == []


def test_per_queue_fill_after_setting():
    clock = FakeClock()
    start = clock.now
    fast = QueueKey("doppelkopf", "ddv", 4)
    mm = Matchmaker(clock, settings={fast: QueueSettings(fill_after=5.0, window=Window())})
    mm.join("a", "doppelkopf", "ddv", Rating(34.0))
    mm.join("b", "doppelkopf", "gametwist_pub", Rating(34.0))
    [table] = mm.tick(at(clock, start, 5))
    assert table.players == ("a",) and levels(table) == [BotLevel.EXPERT] * 3
    assert [t.player for t in mm.waiting()] == ["b"]


def test_table_sizes_are_checked_per_game():
    mm = Matchmaker(FakeClock())
    with pytest.raises(MatchmakingError, match="doppelkopf is played by 4 players, not 3"):
        mm.join("a", "doppelkopf", "ddv", Rating(), seats=3)
    with pytest.raises(MatchmakingError, match="no matchmaking for game 'skat'"):
        mm.join("a", "skat", "x", Rating())
    assert not mm.is_queued("a")


def test_seat_counts_agree_with_the_games_registry():
    """Every game the site ships (not a test-only game another test registered)."""
    shipped = [g for g in available_games() if registry.GAME_MODULES[g].startswith("app.")]
    assert len(shipped) == 4
    for game in shipped:
        assert SEAT_COUNTS[game] == get_game(game).player_counts
