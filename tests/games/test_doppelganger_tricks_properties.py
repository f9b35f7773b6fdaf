"""Properties of Doppelganger Tricks over random legal rounds for 3 and 4 players.

A round is driven by a seeded ``random.Random`` that picks among the legal actions of every
seat, so hypothesis shrinks the seed and the player count. The choice is biased towards
what makes rounds interesting: bids of 0 to 4 (so exact bids and zero bids happen), and bonus
cards taken only now and then (so some are still free at the round's last play).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.base import IllegalAction, best_seats, totals
from app.games.doppelganger_tricks import GAME
from app.games.doppelganger_tricks.state import RoundState
from app.scenario import load_scenario, replay

RULES = GAME.make_rules({})
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.sampled_from([3, 4])
FAST = settings(max_examples=150, deadline=None)


@dataclasses.dataclass(frozen=True)
class Round:
    """A random legal round: its deal, dealer, actions and every state along the way."""

    players: int
    deal: list[list[str]]
    dealer: int
    actions: list[dict[str, Any]]
    states: list[RoundState]

    @property
    def final(self) -> RoundState:
        return self.states[-1]


def choose(rng: random.Random, options: list[dict[str, Any]]) -> dict[str, Any]:
    low_bids = [a for a in options if a["type"] == "bid" and a["value"] <= 4]
    if low_bids and rng.random() < 0.9:
        return rng.choice(low_bids)
    plays = [a for a in options if a["type"] == "play"]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(options)


@cache
def random_round(players: int, seed: int) -> Round:
    rng = random.Random(seed)
    deal, _pile = GAME.deal(RULES, players, rng)
    dealer = rng.randrange(players)
    state = GAME.new_round(RULES, players, deal, [], dealer)
    actions, states = [], [state]
    while not GAME.is_over(state):
        options = [a for seat in range(players) for a in GAME.legal_actions(state, seat)]
        assert options, "a round that is not over must offer some action"
        action = choose(rng, options)
        state, _events = GAME.apply(state, action)
        actions.append(action)
        states.append(state)
    return Round(players, deal, dealer, actions, states)


def expected_points(bid: int, won: int, bonus: str | None) -> int:
    """The rulings' scoring, written out again independently of app.games."""
    if bid == 0:
        points = 7 if won == 0 else 0
    else:
        points = {0: 3, 1: 1}.get(abs(bid - won), 0)
    if bonus == "star":
        points += 1
    if bonus == "eye" and bid == won:
        points += 3
    return points


@given(players=PLAYERS, seed=SEEDS)
@FAST
def test_each_card_is_played_exactly_once(players: int, seed: int) -> None:
    game = random_round(players, seed)
    dump = GAME.state_json(game.final)
    played = [play["card"] for trick in dump["tricks"] for play in trick["plays"]]
    assert sorted(played) == sorted(card for hand in game.deal for card in hand)
    assert len(played) == len(set(played)) == {3: 36, 4: 40}[players]
    assert dump["hands"] == [[] for _ in range(players)]


@given(players=PLAYERS, seed=SEEDS)
@FAST
def test_tricks_won_and_void_tricks_add_up(players: int, seed: int) -> None:
    details = GAME.outcome(random_round(players, seed).final).details
    assert sum(details["tricks_won"]) + details["void_tricks"] == {3: 12, 4: 10}[players]


@given(players=PLAYERS, seed=SEEDS)
@FAST
def test_scores_follow_the_formula(players: int, seed: int) -> None:
    outcome = GAME.outcome(random_round(players, seed).final)
    details = outcome.details
    holders = {seat: name for name, seat in details["bonus"].items() if seat is not None}
    assert outcome.finished
    assert list(outcome.scores) == [
        expected_points(bid, won, holders.get(seat))
        for seat, (bid, won) in enumerate(zip(details["bids"], details["tricks_won"], strict=True))
    ]


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def shuffle_other_hands(state: RoundState, seat: int, rng: random.Random) -> RoundState:
    """The same state with the cards of the other seats dealt among them anew."""
    others = [s for s in range(state.players) if s != seat]
    pool = [card for s in others for card in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s], pool = tuple(pool[: len(hands[s])]), pool[len(hands[s]) :]
    return dataclasses.replace(state, hands=tuple(hands))


def change_other_bids(state: RoundState, seat: int) -> RoundState:
    bids = tuple(b if s == seat or b is None else (b + 5) % 13 for s, b in enumerate(state.bids))
    return dataclasses.replace(state, bids=bids)


@given(players=PLAYERS, seed=SEEDS)
@settings(max_examples=80, deadline=None)
def test_view_never_shows_another_hand_or_an_unrevealed_bid(players: int, seed: int) -> None:
    game = random_round(players, seed)
    rng = random.Random(seed)
    for state in game.states[:: max(1, len(game.states) // 12)]:
        for seat in range(players):
            view = GAME.view(state, seat)
            hidden = {str(card) for s in range(players) if s != seat for card in state.hands[s]}
            assert hidden.isdisjoint(strings(view))
            shuffled = GAME.view(shuffle_other_hands(state, seat, rng), seat)
            # the one thing the others' cards tell: whether the seat that just played may take
            # a bonus card (it holds no navy card), which a live table waits for
            # (docs/rules/doppelganger-tricks.md, "The bonus window")
            assert {key for key in view if view[key] != shuffled[key]} <= {"to_act", "bonus_pending",
                                                                     "legal_actions", "legal"}
            if view["bonus_window"] in (None, seat):
                assert view == shuffled
            if not state.bids_complete:
                assert view["bids"] is None
                assert view == GAME.view(change_other_bids(state, seat), seat)


def candidate_actions(players: int, rng: random.Random) -> list[dict[str, Any]]:
    """A sample of well-formed actions, legal or not, plus a few malformed ones."""
    seat = rng.randrange(players)
    card = f"{rng.choice('PGYN')}{rng.randint(1, 10)}"
    return [
        {"seat": seat, "type": "bid", "value": rng.randint(-1, 13)},
        {"seat": seat, "type": "play", "card": card},
        {"seat": seat, "type": "play", "card": card, "suit": rng.choice("PGYN")},
        {"seat": seat, "type": "take_bonus", "value": rng.choice(["star", "eye", "moon"])},
        {"seat": seat, "type": "decline_bonus"},
        {"seat": players, "type": "bid", "value": 1},
        {"seat": seat, "type": "pass"},
    ]


@given(players=PLAYERS, seed=SEEDS)
@settings(max_examples=80, deadline=None)
def test_actions_outside_legal_actions_raise_and_leave_the_state_alone(players: int, seed: int) -> None:
    game = random_round(players, seed)
    rng = random.Random(seed)
    for state in game.states[:: max(1, len(game.states) // 15)]:
        before = GAME.state_json(state)
        for action in candidate_actions(players, rng):
            legal = GAME.legal_actions(state, action["seat"]) if action["seat"] < players else []
            if action in legal:
                GAME.apply(state, action)
                continue
            try:
                GAME.apply(state, action)
            except IllegalAction as err:
                assert str(err)
            else:
                raise AssertionError(f"accepted {action} outside legal_actions")
            assert GAME.state_json(state) == before


@given(players=PLAYERS, seed=SEEDS)
@settings(max_examples=80, deadline=None)
def test_every_legal_action_applies(players: int, seed: int) -> None:
    game = random_round(players, seed)
    for state in game.states[:: max(1, len(game.states) // 8)]:
        for seat in range(players):
            for action in GAME.legal_actions(state, seat):
                GAME.apply(state, action)


@given(players=PLAYERS, seed=SEEDS)
@FAST
def test_replaying_the_actions_gives_the_same_outcome(players: int, seed: int) -> None:
    game = random_round(players, seed)
    document = {
        "game": "doppelganger_tricks",
        "players": players,
        "rounds": [{"dealer": game.dealer, "deal": game.deal, "actions": game.actions}],
    }
    result = replay(load_scenario(document))
    outcome = GAME.outcome(game.final)
    assert result["rounds"][0]["scores"] == list(outcome.scores)
    assert result["rounds"][0]["details"] == outcome.details


@given(players=PLAYERS, seed=SEEDS)
@settings(max_examples=40, deadline=None)
def test_a_match_lasts_as_many_rounds_as_players(players: int, seed: int) -> None:
    outcomes = [GAME.outcome(random_round(players, seed + n).final) for n in range(players)]
    for played in range(players):
        assert not GAME.match_status(RULES, players, outcomes[:played]).game_over
    status = GAME.match_status(RULES, players, outcomes)
    assert status.game_over
    assert status.winners == best_seats(totals(outcomes, players))


JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 14), st.floats(allow_nan=False), st.text(max_size=4),
    st.sampled_from(["P3", "N7", "G10", "Y1", "star", "eye", "P", "G", "N", "bid", "play"]),
    st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
)
ACTIONS = st.dictionaries(
    st.sampled_from(["seat", "type", "value", "card", "suit", "cards"]), JUNK, max_size=5
) | st.fixed_dictionaries(
    {"seat": st.integers(-1, 4), "type": st.sampled_from(["bid", "play", "take_bonus", "decline_bonus"])},
    optional={"value": JUNK, "card": JUNK, "suit": JUNK},
)


@given(players=PLAYERS, seed=SEEDS, action=ACTIONS, moment=st.floats(0, 1))
@settings(max_examples=200, deadline=None)
def test_any_action_object_is_applied_or_refused_with_illegal_action(
    players: int, seed: int, action: dict[str, Any], moment: float
) -> None:
    game = random_round(players, seed)
    state = game.states[int(moment * (len(game.states) - 1))]
    legal = {canonical(a) for seat in range(players) for a in GAME.legal_actions(state, seat)}
    try:
        GAME.apply(state, action)
    except IllegalAction:
        assert canonical(action) not in legal
    else:
        assert canonical(action) in legal


def canonical(action: dict[str, Any]) -> str:
    """JSON text, so that ``False`` and ``0`` or ``1.0`` and ``1`` stay different values."""
    return json.dumps(action, sort_keys=True)
