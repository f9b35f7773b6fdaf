"""Doppelganger Tricks rules core: options, deals, bidding, views, events and trick resolution."""

from __future__ import annotations

import random

import pytest

from app.games.base import DealError, IllegalAction, RulesError
from app.games.doppelganger_tricks import GAME
from app.games.doppelganger_tricks.cards import Card, Suit, parse_card
from app.games.doppelganger_tricks.scoring import bid_points
from app.games.doppelganger_tricks.state import Play
from app.games.doppelganger_tricks.tricks import annihilated_plays, playable_cards, resolve_trick
from app.games.registry import get_game

RULES = GAME.make_rules({})
SUITED = [[f"{suit}{rank}" for rank in range(1, 11)] for suit in "PGYN"]


def cards(*names: str) -> list[Card]:
    return [parse_card(name) for name in names]


def plays(*specs: str, named: Suit | None = None) -> list[Play]:
    """Plays by seats 0, 1, 2, ... of the given cards; ``named`` is a navy lead's suit."""
    return [Play(seat, parse_card(name), named if seat == 0 else None) for seat, name in enumerate(specs)]


def bid_all(state, values):
    for seat, value in enumerate(values):
        state, _ = GAME.apply(state, {"seat": seat, "type": "bid", "value": value})
    return state


def test_registry_finds_the_game() -> None:
    assert get_game("doppelganger_tricks") is GAME
    assert GAME.player_counts == (3, 4)
    assert "standard" in GAME.presets


@pytest.mark.parametrize("raw", [{}, {"preset": "standard"}])
def test_rules_accept_no_options_and_the_standard_preset(raw) -> None:
    rules = GAME.make_rules(raw)
    assert GAME.rules_json(rules) == {}
    assert GAME.make_rules(GAME.rules_json(rules)) == rules


@pytest.mark.parametrize(
    ("raw", "path"), [({"bonus_cards": False}, "bonus_cards"), ({"preset": "ddv"}, "preset"), ({"preset": 1}, "preset")]
)
def test_rules_reject_unknown_options_and_presets(raw, path) -> None:
    with pytest.raises(RulesError) as err:
        GAME.make_rules(raw)
    assert err.value.path == path


@pytest.mark.parametrize("players", [3, 4])
def test_deal_splits_the_deck_evenly(players: int) -> None:
    deal, pile = GAME.deal(RULES, players, random.Random(7))
    assert pile == []
    assert [len(hand) for hand in deal] == [{3: 12, 4: 10}[players]] * players
    GAME.check_deal(RULES, players, deal, pile)
    assert ("P10" in sum(deal, [])) is (players == 4)
    assert deal == GAME.deal(RULES, players, random.Random(7))[0]


@pytest.mark.parametrize(
    ("players", "deal", "pile", "path", "message"),
    [
        (4, [*SUITED[:3], SUITED[3][:9]], [], "deal[3]", "9 cards, expected 10"),
        (4, [*SUITED[:3], [*SUITED[3][:9], "P1"]], [], "deal[3][9]", "P1 dealt twice"),
        (4, [*SUITED[:3], [*SUITED[3][:9], "X1"]], [], "deal[3][9]", "unknown card 'X1'"),
        (4, SUITED, ["N1"], "deck", "expected no draw pile, got 1 card(s)"),
        (3, [SUITED[0][:9] + ["N1", "N2", "N3"], SUITED[1][:9] + ["N4", "N5", "N6"],
             SUITED[2][:9] + ["N7", "N8", "N10"]], [], "deal[2][11]",
         "N10 is not in the 3-player deck (the 10s are removed)"),
    ],
)
def test_check_deal_names_the_first_problem(players, deal, pile, path, message) -> None:
    with pytest.raises(DealError) as err:
        GAME.check_deal(RULES, players, deal, pile)
    assert (err.value.path, err.value.message) == (path, message)


@pytest.mark.parametrize("name", ["P0", "P11", "P01", "p3", "N", "Z5", 7, None])
def test_parse_card_rejects_bad_names(name) -> None:
    with pytest.raises(ValueError):
        parse_card(name)


def test_bidding_is_secret_until_all_are_in() -> None:
    state = GAME.new_round(RULES, 4, SUITED, [], 3)
    assert GAME.to_act(state) == (0, 1, 2, 3)
    state, events = GAME.apply(state, {"seat": 2, "type": "bid", "value": 5})
    assert events == [{"type": "bid", "seat": 2}]
    assert GAME.to_act(state) == (0, 1, 3)
    assert GAME.legal_actions(state, 2) == []
    view = GAME.view(state, 1)
    assert view["bids"] is None and view["own_bid"] is None
    assert view["has_bid"] == [False, False, True, False]
    assert GAME.view(state, 2)["own_bid"] == 5
    for seat, value in ((0, 1), (1, 0)):
        state, _ = GAME.apply(state, {"seat": seat, "type": "bid", "value": value})
    state, events = GAME.apply(state, {"seat": 3, "type": "bid", "value": 12})
    assert events[-1] == {"type": "bids_revealed", "bids": [1, 0, 5, 12]}
    assert GAME.view(state, 1)["bids"] == [1, 0, 5, 12]
    assert GAME.to_act(state) == (0,)


@pytest.mark.parametrize("value", [-1, 13, 2.0, "3", True, None])
def test_bids_must_be_whole_numbers_0_to_12(value) -> None:
    state = GAME.new_round(RULES, 3, [SUITED[0][:9] + ["N1", "N2", "N3"],
                                      SUITED[1][:9] + ["N4", "N5", "N6"],
                                      SUITED[2][:9] + ["N7", "N8", "N9"]], [], 0)
    with pytest.raises(IllegalAction, match="a bid is a whole number from 0 to 12"):
        GAME.apply(state, {"seat": 0, "type": "bid", "value": value})


def test_malformed_actions_are_illegal() -> None:
    state = GAME.new_round(RULES, 4, SUITED, [], 3)
    for action, reason in [
        ({"seat": 4, "type": "bid", "value": 1}, "no such seat 4"),
        ({"seat": True, "type": "bid", "value": 1}, "no such seat True"),
        ({"seat": 0, "type": "declare", "value": 1}, "unknown action type 'declare'"),
        ({"seat": 0, "type": "bid", "value": 1, "card": "P1"}, "unexpected field 'card' in a bid action"),
    ]:
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, action)
        assert str(err.value) == reason


def test_navy_lead_offers_each_suit_and_following_is_checked() -> None:
    state = bid_all(GAME.new_round(RULES, 4, SUITED, [], 2), [1, 1, 1, 1])
    assert GAME.to_act(state) == (3,)
    leads = GAME.legal_actions(state, 3)
    assert {"seat": 3, "type": "play", "card": "N7", "suit": "G"} in leads
    assert len(leads) == 30
    state, events = GAME.apply(state, {"seat": 3, "type": "play", "card": "N7", "suit": "G"})
    assert events == [{"type": "play", "seat": 3, "card": "N7", "suit": "G"}]
    assert GAME.view(state, 0)["lead_suit"] == "G"
    assert len(GAME.legal_actions(state, 0)) == 10
    state, _ = GAME.apply(state, {"seat": 0, "type": "play", "card": "P3"})
    assert [a["card"] for a in GAME.legal_actions(state, 1)] == SUITED[1]
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(state, {"seat": 2, "type": "play", "card": "Y3"})


def test_a_complete_trick_reports_winner_annihilation_and_next_leader() -> None:
    state = bid_all(GAME.new_round(RULES, 4, SUITED, [], 3), [1, 1, 1, 1])
    for seat, card in enumerate(["P7", "G2", "Y3"]):
        state, _ = GAME.apply(state, {"seat": seat, "type": "play", "card": card})
    state, events = GAME.apply(state, {"seat": 3, "type": "play", "card": "N7"})
    assert events[-1] == {"type": "trick", "index": 0, "winner": 2, "annihilated": ["P7", "N7"], "next_leader": 2}
    view = GAME.view(state, 0)
    assert view["last_trick"]["winner"] == 2
    assert view["annihilated"] == [{"trick": 0, "cards": ["P7", "N7"]}]
    assert view["tricks_won"] == [0, 0, 1, 0]
    assert "hands" not in view and view["hand"] == SUITED[0][:6] + SUITED[0][7:]


def test_spectator_view_has_no_hand_and_no_actions() -> None:
    state = GAME.new_round(RULES, 4, SUITED, [], 3)
    view = GAME.view(state, None)
    assert view["hand"] == [] and view["legal_actions"] == [] and view["seat"] is None
    assert view["hand_sizes"] == [10, 10, 10, 10]


def test_following_rule() -> None:
    hand = cards("P2", "G5", "N4")
    assert playable_cards(hand, Suit.PINK) == cards("P2", "N4")
    assert playable_cards(hand, Suit.YELLOW) == hand
    assert playable_cards(cards("G5", "N4"), Suit.PINK) == cards("G5", "N4")
    assert playable_cards(hand, None) == hand


def test_pairs_annihilate_per_rank_in_play_order() -> None:
    trick = plays("P3", "N7", "P7", "N3")
    assert [str(p.card) for p in annihilated_plays(trick, Suit.PINK)] == ["P3", "N7", "P7", "N3"]
    # Navy cards never annihilate each other, nor cards of a suit that is not the lead suit.
    assert annihilated_plays(plays("N4", "N2", "G4", "P2"), Suit.YELLOW) == []
    # Hypothetical second copies (impossible with one deck): the first navy pairs with the first
    # real card of that rank, and the unpaired copy stays in the trick.
    doubled = plays("G5", "N5", "G5", "G9")
    assert [p.seat for p in annihilated_plays(doubled, Suit.GREEN)] == [0, 1]


def test_trick_winner_rules() -> None:
    assert resolve_trick(plays("Y10", "N10", "P7", "G7")).winner == 2
    assert resolve_trick(plays("P3", "N7", "P7", "N3")).winner is None
    navy_lead = resolve_trick(plays("N4", "P8", "N2", "P10", named=Suit.YELLOW))
    assert (navy_lead.lead_suit, navy_lead.winner) == (Suit.YELLOW, 0)
    with pytest.raises(ValueError):
        resolve_trick(plays("N4", "P8", "N2"))


@pytest.mark.parametrize(
    ("bid", "won", "points"),
    [(0, 0, 7), (0, 1, 0), (0, 4, 0), (3, 3, 3), (3, 2, 1), (3, 4, 1), (3, 5, 0), (1, 0, 1), (12, 10, 0)],
)
def test_bid_points(bid: int, won: int, points: int) -> None:
    assert bid_points(bid, won) == points


def test_unfinished_round_scores_nothing_and_is_not_over() -> None:
    state = GAME.new_round(RULES, 4, SUITED, [], 3)
    outcome = GAME.outcome(state)
    assert not outcome.finished and outcome.scores == (0, 0, 0, 0)
    assert not GAME.is_over(state)
