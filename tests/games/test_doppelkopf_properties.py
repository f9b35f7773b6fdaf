"""Property tests over random legal Doppelkopf deals of every preset and option."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.base import IllegalAction
from app.games.doppelkopf import GAME, bits, engine
from app.games.doppelkopf.cards import ALL_CARDS, deck
from app.games.doppelkopf.tricks import playable_cards
from app.scenario import load_scenario, replay
from tests.games.randomplay import cards_in, play_random_round, scenario_of

RULE_SETS: list[dict[str, Any]] = [
    {"preset": "ddv"},
    {"preset": "gametwist"},
    {"preset": "gametwist_pub"},
    {"preset": "ddv", "poverty": True, "swines": True, "heart_ten_second_beats_first": True},
    {"preset": "ddv", "nines": False, "poverty": True, "throw_in": True, "extra_solos": True},
    {"preset": "ddv", "re_kontra_doubles": True, "no_back_door": True, "charlie_caught": True,
     "wedding_clarification": "first_non_trump", "solo_leads": "soloist"},
    {"preset": "ddv", "wedding_clarification": "first_trump", "solo_requires_no90": True},
]

settings.register_profile("doppelkopf", deadline=None, suppress_health_check=[HealthCheck.too_slow])

games = st.tuples(st.sampled_from(range(len(RULE_SETS))), st.integers(0, 2**32 - 1), st.integers(0, 3))


def mostly_healthy(rng: random.Random, options: list[dict[str, Any]]) -> dict[str, Any]:
    """Uniform, except that a declaration is ``healthy`` four times in five (so normal games,
    weddings and poverties are common, not only solos) and announcements are rarer."""
    if options[0]["type"] == "declare" and rng.random() < 0.8:
        reservations = [a for a in options if a["value"] in ("wedding", "poverty")]
        if reservations and rng.random() < 0.7:
            return rng.choice(reservations)
        return options[0]
    plays = [a for a in options if a["type"] != "announce"]
    if plays and rng.random() < 0.9:
        return rng.choice(plays)
    return rng.choice(options)


def _play(case: tuple[int, int, int]):
    index, seed, dealer = case
    rules = GAME.make_rules(RULE_SETS[index])
    rng = random.Random(seed)
    return rules, play_random_round(GAME, rules, 4, rng, dealer=dealer, out_of_turn=0.02,
                                    choose=mostly_healthy)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(games)
def test_every_card_is_played_once_and_points_sum_to_240(case):
    rules, played = _play(case)
    state = played.states[-1]
    outcome = GAME.outcome(state)
    assert outcome.finished
    if outcome.redeal:
        assert sum(len(hand) for hand in state.hands) == len(deck(rules.nines))
        return
    cards = [p.card for trick in state.tricks for p in trick.plays]
    assert Counter(cards) == Counter(deck(rules.nines))
    assert sum(trick.points for trick in state.tricks) == 240
    details = outcome.details
    assert details["card_points"]["re"] + details["card_points"]["kontra"] == 240
    assert details["tricks"]["re"] + details["tricks"]["kontra"] == rules.hand_size


@settings(max_examples=150, derandomize=True, deadline=None)
@given(games)
def test_scores_sum_to_zero_and_score_lines_to_game_value(case):
    _, played = _play(case)
    outcome = GAME.outcome(played.states[-1])
    assert sum(outcome.scores) == 0
    if outcome.redeal:
        return
    details = outcome.details
    assert sum(line["points"] for line in details["score_lines"]) == details["game_value"]
    solo = len(details["parties"]["re"]) == 1
    assert max(abs(s) for s in outcome.scores) == details["game_value"] * (3 if solo else 1)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(games, st.integers(0, 2**32 - 1))
def test_an_action_outside_legal_actions_is_refused_and_changes_nothing(case, pick):
    _, played = _play(case)
    rng = random.Random(pick)
    for state in rng.sample(played.states, min(8, len(played.states))):
        seat = rng.randrange(4)
        legal = GAME.legal_actions(state, seat)
        before = GAME.state_json(state)
        candidates = [
            {"seat": seat, "type": "play", "card": rng.choice(ALL_CARDS)},
            {"seat": seat, "type": "announce", "value": rng.choice(["re", "kontra", "no90", "black"])},
            {"seat": seat, "type": "declare", "value": rng.choice(["healthy", "wedding", "solo_queens"])},
            {"seat": seat, "type": "poverty_answer", "value": "accept"},
            {"seat": 7, "type": "play", "card": "QC"},
            {"seat": seat, "type": "bogus"},
            {"seat": seat, "type": "play"},
        ]
        for action in candidates:
            if action in legal:
                continue
            with pytest.raises(IllegalAction):
                GAME.apply(state, action)
            assert GAME.state_json(state) == before


@settings(max_examples=60, derandomize=True, deadline=None)
@given(games)
def test_a_view_never_holds_another_seats_card(case):
    _, played = _play(case)
    for state in played.states[:: max(1, len(played.states) // 12)]:
        if GAME.is_over(state):
            continue
        public: Counter[str] = Counter(p.card for t in state.tricks for p in t.plays)
        public += Counter(p.card for p in state.trick)
        for seat in range(4):
            view = GAME.view(state, seat)
            assert sorted(view["hand"]) == sorted(state.hands[seat])
            allowed = public + Counter(state.hands[seat])
            if seat in (state.declarer, state.partner):
                allowed += Counter(state.poverty_cards)
            if view["tricks"]:
                assert view["last_trick"]["cards"] == view["tricks"][-1]["cards"]
            leaked = cards_in(view, ALL_CARDS, ("trumps", "hand", "legal", "last_trick")) - allowed
            legal_cards = Counter(c for a in view["legal"] for c in a.get("cards", [a.get("card")]) if c)
            assert set(legal_cards) <= set(state.hands[seat])
            assert not leaked, f"seat {seat} sees {dict(leaked)}"


@settings(max_examples=80, derandomize=True, deadline=None)
@given(games)
def test_the_exported_action_list_replays_to_the_same_outcome(case):
    rules, played = _play(case)
    document = scenario_of(GAME, rules, 4, played)
    result = replay(load_scenario(document))
    expected = GAME.outcome(played.states[-1])
    assert result["rounds"][0]["scores"] == list(expected.scores)
    assert result["rounds"][0]["details"] == expected.details


@settings(max_examples=60, derandomize=True, deadline=None)
@given(games)
def test_the_bit_set_hands_agree_with_the_card_names(case):
    """The engine's fast representation (hand masks, app.games.doppelkopf.bits) says what the
    plain one says: the same cards in hand, and the cards the follow-suit rule of
    app.games.doppelkopf.tricks.playable_cards allows."""
    _, played = _play(case)
    for state in played.states:
        for seat in range(4):
            assert Counter(bits.cards_of(state.masks[seat])) == Counter(state.hands[seat])
        if state.phase == "play":
            seat = state.to_move
            expected = playable_cards(state.hands[seat], state.trick, state.order)
            assert sorted(engine.playable(state, seat)) == sorted(expected)
