"""MatchProgress, the pure part of a table: dealers, redeals, the end of a match."""

from __future__ import annotations

import pytest

from app.games.base import RoundOutcome
from app.games.registry import get_game
from app.rooms.match import MatchProgress, RoundRecord
from tests.platform_helpers import register_highcard

#: a HighCard deal of two seats and its deck
DEAL = [["AC", "9C", "TC"], ["KC", "QC", "JC"]]
DECK = ["9S", "TS", "JS", "QS", "KS", "AS"] + [r + s for s in "HD" for r in "9TJQKA"]


def highcard():
    """The test game HighCard and its default rules."""
    register_highcard()
    game = get_game("highcard")
    return game, game.make_rules({})


def finished(progress: MatchProgress, dealer: int, *, redeal: bool = False) -> None:
    record = RoundRecord(number=len(progress.rounds), dealer=dealer, deal=[], deck=[])
    record.outcome = RoundOutcome(finished=True, scores=(2, 0, 0) if not redeal else (0, 0, 0),
                                  redeal=redeal)
    progress.rounds.append(record)


def test_dealer_moves_left_but_stays_after_a_redeal_which_does_not_count():
    register_highcard()
    game = get_game("highcard")
    progress = MatchProgress(game, game.make_rules({}), 3, deals=2)
    assert progress.next_dealer() == 2  # the last seat deals first: seat 0 leads
    finished(progress, 2)
    assert progress.next_dealer() == 0 and not progress.match_over()
    finished(progress, 0, redeal=True)
    assert progress.next_dealer() == 0 and progress.counted() == 1
    assert not progress.match_over()
    finished(progress, 0)
    assert progress.match_over() and progress.counted() == 2
    assert progress.score_sheet()["totals"] == [4, 0, 0]
    assert progress.winners() == [0]


def test_replay_of_the_log_gives_the_same_state_and_scenario():
    game, rules = highcard()
    deal, deck = DEAL, DECK
    live = MatchProgress(game, rules, 2, deals=1)
    live.begin_round(RoundRecord(number=0, dealer=1, deal=deal, deck=deck))
    for action in ({"seat": 0, "type": "declare", "value": "double"},
                   {"seat": 1, "type": "declare", "value": "healthy"},
                   {"seat": 0, "type": "play", "card": "AC"},
                   {"seat": 1, "type": "play", "card": "KC"}):
        state, _events = live.try_action(action)
        live.commit_action(action, state)
    again = MatchProgress.replay(game, rules, 2, 1, [live.current])
    assert game.state_json(again.state) == game.state_json(live.state)
    assert again.scenario() == live.scenario()
    assert live.scenario()["rounds"][0]["actions"][2] == {"seat": 0, "type": "play", "card": "AC"}


def test_a_finished_deal_is_let_go_when_the_next_begins_and_its_outcome_stays():
    """A table holds only its current deal's cards and actions (the event log has the rest),
    so its memory does not grow with the match; the score sheet reads the outcomes."""
    game, rules = highcard()
    deal, deck = DEAL, DECK
    live = MatchProgress(game, rules, 2, deals=2)
    for number, dealer in ((0, 1), (1, 0)):
        live.begin_round(RoundRecord(number=number, dealer=dealer, deal=[list(h) for h in deal],
                                     deck=list(deck)))
        while not live.round_over():
            seat = game.to_act(live.state)[0]
            action = dict(game.view(live.state, seat)["legal"][0], seat=seat)
            state, _events = live.try_action(action)
            live.commit_action(action, state)
        if number == 0:
            assert live.scenario()["rounds"][0]["actions"]  # the current deal is whole
    first, second = live.rounds
    assert first.released and (first.deal, first.deck, first.actions) == ([], [], [])
    assert first.outcome is not None and not second.released and second.actions
    assert len(live.score_sheet()["rounds"]) == 2 and live.match_over()
    with pytest.raises(ValueError):
        live.scenario()  # the event log holds the whole match
