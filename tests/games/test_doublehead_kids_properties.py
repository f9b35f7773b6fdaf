"""Property tests over random legal Doublehead Kids rounds of both presets."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.base import RoundOutcome, RulesError
from app.games.doppelkopf.cards import ALL_CARDS, deck
from app.games.doublehead_kids import GAME
from app.scenario import load_scenario, replay
from tests.games.randomplay import cards_in, play_random_round, scenario_of

RULE_SETS: list[dict[str, Any]] = [
    {"preset": "basic"},
    {"preset": "advanced"},
    {"preset": "advanced", "announcements": True},
]

games = st.tuples(st.sampled_from(range(len(RULE_SETS))), st.integers(0, 2**32 - 1), st.integers(0, 3))


def kids_choice(rng: random.Random, options: list[dict[str, Any]]) -> dict[str, Any]:
    """Uniform, but a holder of both Prince/Princess cards marries half the time, and
    announcements are rarer than plays."""
    if options[0]["type"] == "declare":
        return rng.choice(options)
    plays = [a for a in options if a["type"] != "announce"]
    if plays and rng.random() < 0.9:
        return rng.choice(plays)
    return rng.choice(options)


def _play(case: tuple[int, int, int]):
    index, seed, dealer = case
    rules = GAME.make_rules(RULE_SETS[index])
    played = play_random_round(GAME, rules, 4, random.Random(seed), dealer=dealer,
                               out_of_turn=0.03, choose=kids_choice)
    return rules, played


@settings(max_examples=150, derandomize=True, deadline=None)
@given(games)
def test_every_card_is_played_once_and_silver_coins_sum_to_240(case):
    _, played = _play(case)
    state = played.states[-1]
    outcome = GAME.outcome(state)
    assert outcome.finished and not outcome.redeal
    assert state.contract in ("normal", "wedding", "silent_solo")
    assert Counter(p.card for t in state.tricks for p in t.plays) == Counter(deck(True))
    assert sum(t.points for t in state.tricks) == 240
    details = outcome.details
    assert details["card_points"]["re"] + details["card_points"]["kontra"] == 240
    assert details["tricks"]["re"] + details["tricks"]["kontra"] == 12


@settings(max_examples=150, derandomize=True, deadline=None)
@given(games)
def test_golden_coins_are_never_negative_and_are_the_scores(case):
    rules, played = _play(case)
    outcome = GAME.outcome(played.states[-1])
    details = outcome.details
    assert all(coins >= 0 for coins in outcome.scores)
    assert list(outcome.scores) == details["golden_coins"]
    # each seat's coins are the sum of its team's lines; score lines add up to game_value
    for seat in range(4):
        party = "re" if seat in details["parties"]["re"] else "kontra"
        assert outcome.scores[seat] == sum(x["coins"] for x in details["coin_lines"] if x["party"] == party)
    assert sum(x["points"] for x in details["score_lines"]) == details["game_value"] == sum(outcome.scores)
    # somebody wins unless announcements made both teams miss; the winners gain at least 1
    if details["winner"] is not None:
        winners = details["parties"][details["winner"]]
        assert all(outcome.scores[s] >= (2 if len(winners) == 1 else 1) for s in winners)
    elif not rules.announcements:
        pytest.fail("without announcements a round always has a winner")
    if not rules.advanced:
        assert set(outcome.scores) <= {0, 1, 2}
        assert sum(outcome.scores) in (2, 3)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(games)
def test_a_view_never_holds_another_seats_card(case):
    _, played = _play(case)
    for state in played.states[:: max(1, len(played.states) // 12)]:
        public = Counter(p.card for t in state.tricks for p in t.plays) + Counter(p.card for p in state.trick)
        for seat in (0, 1, 2, 3, None):
            view = GAME.view(state, seat)
            assert view["game"] == "doublehead_kids"
            own = Counter(state.hands[seat]) if seat is not None else Counter()
            assert sorted(view["hand"]) == sorted(own.elements())
            leaked = cards_in(view, ALL_CARDS, ("trumps", "hand", "legal", "last_trick", "card_names")) - (public + own)
            assert not leaked, f"seat {seat} sees {dict(leaked)}"


@settings(max_examples=60, derandomize=True, deadline=None)
@given(games)
def test_the_exported_action_list_replays_to_the_same_outcome(case):
    rules, played = _play(case)
    result = replay(load_scenario(scenario_of(GAME, rules, 4, played)))
    expected = GAME.outcome(played.states[-1])
    assert result["rounds"][0]["scores"] == list(expected.scores)
    assert result["rounds"][0]["details"] == expected.details


@given(st.lists(st.lists(st.integers(0, 6), min_size=4, max_size=4), max_size=8),
       st.sampled_from(["basic", "advanced"]), st.booleans())
def test_the_game_ends_at_the_target_and_the_leaders_share(rounds, preset, play_on):
    rules = GAME.make_rules({"preset": preset, "play_on_until_leader": play_on})
    outcomes = [RoundOutcome(True, tuple(r)) for r in rounds]
    status = GAME.match_status(rules, 4, outcomes)
    totals = [sum(r[s] for r in rounds) for s in range(4)]
    target = 5 if preset == "basic" else 10
    top = max(totals)
    leaders = tuple(s for s in range(4) if totals[s] == top)
    if top < target or (play_on and len(leaders) > 1):
        assert not status.game_over and status.winners == ()
    else:
        assert status.game_over and status.winners == leaders


@pytest.mark.parametrize("raw, path", [
    ({"preset": "expert"}, "preset"),
    ({"poverty": True}, "poverty"),
    ({"solos": []}, "solos"),
    ({"announcements": True}, "announcements"),
    ({"preset": "advanced", "announcements": "yes"}, "announcements"),
    ({"target_coins": 0}, "target_coins"),
    ({"scoring": "expert"}, "scoring"),
])
def test_unknown_or_bad_options_are_rules_errors(raw, path):
    with pytest.raises(RulesError) as err:
        GAME.make_rules(raw)
    assert err.value.path == path


def test_presets_and_options_round_trip():
    for raw in ({}, {"preset": "advanced"}, {"preset": "advanced", "announcements": True},
                {"play_on_until_leader": True, "target_coins": 7}):
        rules = GAME.make_rules(raw)
        assert GAME.make_rules(GAME.rules_json(rules)) == rules
        assert rules.wedding_clarification == "named" and rules.solos == () and not rules.poverty
    assert GAME.make_rules({}).target_coins == 5 and not GAME.make_rules({}).advanced
    assert GAME.make_rules({"preset": "advanced"}).target_coins == 10
    assert not GAME.make_rules({"preset": "advanced"}).announcements


def test_card_names_cover_the_deck_and_the_royal_order_is_the_engines_trump_order():
    from app.games.doppelkopf.contracts import card_order
    from app.games.doublehead_kids.names import CARD_NAMES, ROYAL_ORDER, card_name, family_of

    assert set(CARD_NAMES) == set(ALL_CARDS)
    assert card_order("normal", True).trumps == ROYAL_ORDER
    assert [family_of(c) for c in ("TH", "AD", "AC", "TS", "KH")] == ["royal", "royal", "cross", "spade", "heart"]
    assert card_name("QC") == "Prince / Princess" and card_name("AS") == "Castle (spade)"
    view = GAME.view(GAME.new_round(GAME.make_rules({}), 4, *GAME.deal(GAME.make_rules({}), 4, random.Random(1)), 3), 0)
    assert view["card_names"]["JC"] == "Karlchen" and view["teams"]["kontra"] == "Team No Crown"
