"""What the statistics count in hand-made matches of every game (tests/scenarios/stats/README.md
says how each number was read from the rounds), and the figures made of the counts."""

from __future__ import annotations

import json

import pytest

from app.i18n import set_language
from app.scenario import ScenarioError
from app.stats.facts import match_facts, placings, plugin_for
from app.stats.figures import game_figures
from tests.conftest import SCENARIOS


def facts_of(path: str):
    return match_facts(json.loads((SCENARIOS / path).read_text()))


def test_doppelkopf_match_counts_solo_wedding_silent_solo_poverty_announcements_and_specials():
    facts = facts_of("stats/doppelkopf_match.json")
    assert facts.totals == [21, -9, -1, -11] and facts.placings == [1, 3, 2, 4]
    anna, bert, carl, dora = facts.seats
    assert anna == {
        "matches": 1, "place_1": 1, "deals": 8, "points": 21, "won": 7,
        "re_deals": 7, "re_won": 6, "kontra_deals": 1, "kontra_won": 1,
        "solo:solo_queens": 1, "solo_won:solo_queens": 1,  # a solo won
        "silent_solo": 1, "silent_solo_won": 1, "wedding": 1, "wedding_won": 1,
        "announced:re": 1, "announced:no90": 1,  # a failed No 90 (and its Re): no successes
        "fox_caught": 4, "fox_lost": 2}
    assert bert["poverty"] == 1 and "poverty_won" not in bert
    assert bert["announced:kontra"] == bert["announced_won:kontra"] == 1
    assert (bert["fox_caught"], bert["fox_lost"]) == (1, 2)
    assert (carl["fox_caught"], carl["charlie"], carl["doppelkopf"]) == (1, 1, 1)
    assert dora["poverty_taken"] == 1 and dora["fox_lost"] == 2 and "fox_caught" not in dora
    # the void deal (a poverty nobody took) is no deal of anybody's
    assert all(seat["deals"] == 8 for seat in facts.seats)
    # head to head: seat 0 and seat 2 were partners in 5 deals (won 4), opponents in 3
    assert facts.pairs[0][2] == {"matches": 1, "ahead": 1, "partner_deals": 5, "partner_won": 4,
                                 "opponent_deals": 3, "opponent_won": 3}
    assert facts.pairs[2][0]["behind"] == 1 and facts.pairs[2][0]["opponent_lost"] == 3


def test_kids_match_counts_weddings_lone_players_and_golden_coins():
    facts = facts_of("stats/kids_match.json")
    assert facts.totals == [3, 2, 4, 4] and facts.placings == [3, 4, 1, 1]
    anna, _bert, carl, dora = facts.seats
    assert (anna["wedding"], anna["wedding_won"], anna["lone"], anna["lone_won"]) == (1, 1, 2, 1)
    assert anna["points"] == 3 and anna["deals"] == 6
    assert carl["partner"] == 2 and "wedding" not in carl
    assert (dora["wedding"], dora["wedding_won"], dora["place_1"]) == (1, 1, 1)
    assert carl["place_1"] == 1  # a shared first place


def test_doppio_match_counts_catches_made_and_missed_and_doppio_calls():
    facts = facts_of("stats/doppio_match.json")
    assert facts.totals == [43, 47, 68, 65] and facts.placings == [1, 2, 4, 3]  # lowest first
    counts = [(s.get("caught", 0), s.get("catch_missed", 0), s.get("doppio", 0), s.get("doppio_won", 0))
              for s in facts.seats]
    assert counts == [(0, 0, 1, 1), (1, 1, 0, 0), (0, 1, 1, 0), (1, 1, 0, 0)]
    assert [s.get("points", 0) for s in facts.seats] == [43, 47, 68, 65]
    assert "partner_deals" not in facts.pairs[0][1]  # no sides in Doppio


def test_doppelganger_tricks_counts_exact_bids_zero_bids_and_bonus_cards():
    facts = facts_of("doppelganger_tricks/shared_example.json")
    assert facts.placings == [4, 3, 1, 2]
    keys = ("bid_exact", "zero_bid", "zero_bid_made", "star", "eye", "eye_scored")
    assert [[s.get(k, 0) for k in keys] for s in facts.seats] == [
        [0, 1, 0, 0, 2, 0], [0, 1, 0, 1, 1, 0], [1, 2, 0, 2, 1, 0], [0, 0, 0, 1, 0, 0]]
    assert [s["deals"] for s in facts.seats] == [4, 4, 4, 4]


def test_placings_share_equal_totals_and_penalties_count_lowest_first():
    assert placings("doppelkopf", [3, -1, 3, -5]) == [1, 3, 1, 4]
    assert placings("doppio", [40, 12, 40]) == [2, 1, 2]


def test_a_match_that_does_not_replay_is_refused_with_its_reason():
    document = json.loads((SCENARIOS / "stats/doppio_match.json").read_text())
    document["rounds"][0]["actions"][0]["seat"] = 2  # out of turn
    with pytest.raises(ScenarioError, match="round 0, action 0"):
        match_facts(document)


def test_figures_say_what_they_rest_on():
    set_language("en")
    anna = facts_of("stats/doppelkopf_match.json").seats[0]
    figures = {f["key"]: f for f in game_figures(plugin_for("doppelkopf"), anna)}
    assert figures["won_as_re"] == {
        "key": "won_as_re", "group": "parties", "label": "Won as Re", "kind": "share",
        "value": 0.857, "count": 6, "base": 7, "unit": "deals", "shown": "86%",
        "rests_on": "6 of 7 deals", "short": None}
    assert (figures["fox_caught"]["shown"], figures["fox_caught"]["rests_on"]) == ("4", "in 8 deals")
    assert figures["points_per_deal"]["value"] == 2.62 and figures["points_per_deal"]["base"] == 8
    assert figures["solo_won:solo_queens"]["label"] == "Queens solo won"
    assert (figures["solo_won:solo_queens"]["value"], figures["solo_won:solo_queens"]["unit"]) == (1.0, "solos")
    assert figures["announced_won:no90"]["value"] == 0.0 and figures["announced_won:no90"]["base"] == 1
    assert figures["fox_caught"]["value"] == 4 and figures["fox_caught"]["base"] == 8
    assert figures["place_1"]["value"] == 1.0 and figures["matches"]["value"] == 1
    assert "solo:solo_jacks" not in figures  # only the kinds played are listed
    assert figures["poverty"]["value"] == 0 and "poverty_won" not in figures  # a share of none
    set_language("de")
    german = {f["key"]: f["label"] for f in game_figures(plugin_for("doppelkopf"), anna)}
    assert german["solo_won:solo_queens"] == "Damensolo gewonnen"
    assert german["won_as_re"] == "Als Re gewonnen"
    fox = next(f for f in game_figures(plugin_for("doppelkopf"), anna) if f["key"] == "fox_caught")
    assert fox["rests_on"] == "in 8 Spielen"
    points = next(f for f in game_figures(plugin_for("doppelkopf"), anna) if f["key"] == "points_per_deal")
    assert points["shown"] == "2,62"
    set_language("en")
