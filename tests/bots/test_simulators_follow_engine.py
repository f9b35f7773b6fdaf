"""The bots' simulators play by the engine's rules: random deals of every trick game played
through the engine and, card for card, through the simulator the bots search with
(app/bots/doppelkopf/table.py for Doppelkopf and Doublehead Kids, the playouts of
app/bots/doppelganger_tricks.py; for Doppelkopf also the exact solver's moves and winners by
card index), comparing every set of playable cards, every trick's winner
and (Doppelkopf) what the wedding's clarification trick decides: a partner, the bride alone, or
(duel mode) a cancelled deal."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.bots import doppelganger_tricks as dt_bot
from app.bots.doppelkopf.table import Table
from app.games.doppelkopf.bits import INDEX, NAMES, mask_of
from app.games.doppelkopf.state import RE
from app.games.registry import get_game

DOPPELKOPF_RULES: list[dict[str, Any]] = [
    {"preset": "ddv"},
    {"preset": "gametwist"},
    {"preset": "ddv", "swines": True, "heart_ten_second_beats_first": True},
    {"preset": "ddv", "heart_ten_second_beats_first": True, "heart_ten_first_wins_last_trick": True},
    {"preset": "ddv", "nines": False, "poverty": True, "extra_solos": True},
    {"preset": "ddv", "wedding_clarification": "first_non_trump"},
    {"preset": "ddv", "wedding_clarification": "first_trump"},
    {"preset": "ddv", "wedding_clarification": "named"},
    {"preset": "gametwist", "table_mode": "duel"},
    {"preset": "gametwist", "table_mode": "tournament"},
]
KIDS_RULES: list[dict[str, Any]] = [{"preset": "basic"}, {"preset": "advanced", "announcements": True}]


def _choose(rng: random.Random, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A random action: weddings often (they are what the clarification rule is about), no
    announcements (they change no card rule)."""
    weddings = [a for a in actions if a["type"] == "declare" and a["value"] == "wedding"]
    if weddings and rng.random() < 0.9:
        return weddings[0]
    if actions[0]["type"] == "declare" and rng.random() < 0.7:
        return next((a for a in actions if a["value"] == "healthy"), actions[0])
    return rng.choice([a for a in actions if a["type"] != "announce"] or actions)


def _wedding_as_engine(state: Any) -> tuple[str, tuple[int, ...]]:
    """What the engine's wedding is after a trick: ``open``, ``decided`` (with the Re seats)
    or ``cancelled``."""
    if state.contract == "redeal":
        return "cancelled", ()
    if state.standing.clarified_at is None:
        return "open", ()
    return "decided", tuple(seat for seat in range(4) if state.standing.re_party[seat])


def _wedding_as_simulated(table: Table) -> tuple[str, tuple[int, ...]]:
    if table.contract == "redeal":
        return "cancelled", ()
    if not table.clarified:
        return "open", ()
    return "decided", tuple(seat for seat in range(4) if table.party[seat] == RE)


def _play_doppelkopf(game_name: str, raw: dict[str, Any], seed: int) -> None:
    game = get_game(game_name)
    rules = game.make_rules(raw)
    rng = random.Random(seed)
    deal, deck = game.deal(rules, 4, rng)
    state = game.new_round(rules, 4, deal, deck, seed % 4)
    table: Table | None = None
    while not game.is_over(state):
        seat = state.to_move
        actions = game.legal_actions(state, seat)
        if state.phase == "play":
            if table is None:  # the simulator of a player's view, with every hand (the
                # view of the swines' holder, who knows them from the start)
                knows = seat if state.standing.swines is None else state.standing.swines
                table = Table.from_view(game.view(state, knows), rules).world(state.hands)
            engine_cards = sorted(a["card"] for a in actions if a["type"] == "play")
            assert sorted(table.playable(seat)) == engine_cards, (seed, raw, state.trick)
            # the solver's view of the same: the kernel by card index
            led = INDEX[state.trick[0][1]] if state.trick else None
            moves = table.kernel.moves(mask_of(state.hands[seat]), led)
            assert sorted(NAMES[card] for card in moves) == engine_cards
        action = _choose(rng, actions)
        wedding_open = state.phase == "play" and state.contract == "wedding" and (
            state.standing.clarified_at is None)
        state, _ = game.apply(state, action)
        if table is None or action["type"] != "play":
            continue
        table.play(seat, action["card"])
        if state.trick or table.trick:
            assert list(table.trick) == [tuple(play) for play in state.trick]
            continue
        if state.contract != "redeal":
            trick = state.tricks[-1]
            assert table.tricks[-1].winner == trick.winner, (seed, raw, trick)
            last = len(state.tricks) == table.n_tricks
            by_index = [(play.seat, INDEX[play.card]) for play in trick.plays]
            assert table.kernel.best_index(by_index, last)[0] == trick.winner
        if wedding_open:
            assert _wedding_as_simulated(table) == _wedding_as_engine(state), (
                seed, raw, [t.winner for t in state.tricks])


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.sampled_from(DOPPELKOPF_RULES), st.integers(0, 2**32 - 1))
def test_doppelkopf_simulator_plays_as_the_engine(raw, seed):
    _play_doppelkopf("doppelkopf", raw, seed)


@settings(max_examples=100, derandomize=True, deadline=None)
@given(st.sampled_from(KIDS_RULES), st.integers(0, 2**32 - 1))
def test_kids_simulator_plays_as_the_engine(raw, seed):
    _play_doppelkopf("doublehead_kids", raw, seed)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.sampled_from((3, 4)), st.integers(0, 2**32 - 1))
def test_doppelganger_playouts_play_as_the_engine(players, seed):
    game = get_game("doppelganger_tricks")
    rules = game.make_rules({})
    rng = random.Random(seed)
    deal, deck = game.deal(rules, players, rng)
    state = game.new_round(rules, players, deal, deck, seed % players)
    plays: list[tuple[int, str, str | None]] = []
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        cards = [a for a in actions if a["type"] == "play"]
        if cards:
            hand = [str(card) for card in state.hands[seat]]
            simulated = sorted(dt_bot.options_of(hand, plays), key=str)
            assert simulated == sorted(((a["card"], a.get("suit")) for a in cards), key=str)
        action = rng.choice(actions)
        state, _ = game.apply(state, action)
        if action["type"] != "play":
            continue
        plays.append((seat, action["card"], action.get("suit")))
        if len(plays) == players:
            assert dt_bot.winner(plays) == state.tricks[-1].winner, (seed, plays)
            plays = []
