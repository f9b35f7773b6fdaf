"""protocol.dump (the hot path's field-by-field dict) equals pydantic's JSON dump."""

from __future__ import annotations

import json
import random

from app import protocol
from app.games.registry import get_game
from app.rooms.match import MatchProgress, RoundRecord


def _json(value):
    return json.loads(json.dumps(value))


def test_dump_equals_model_dump_for_every_message_of_a_played_deal():
    game = get_game("doppelkopf")
    rules = game.make_rules({"preset": "ddv"})
    progress = MatchProgress(game, rules, 4, 1)
    rng = random.Random(5)
    deal, deck = game.deal(rules, 4, rng)
    progress.begin_round(RoundRecord(number=0, dealer=3, deal=deal, deck=deck))
    checked = 0
    while not progress.round_over():
        seat = game.to_act(progress.state)[0]
        action = rng.choice(game.legal_actions(progress.state, seat))
        new_state, events = progress.try_action(action)
        progress.commit_action(action, new_state)
        for you in (0, 1, 2, 3, None):
            state = protocol.TableState(
                table={"id": 1, "seats": [{"seat": 0, "name": "a", "bot": None}]}, you=you,
                view=game.view(progress.state, you), scores=progress.score_sheet(),
                result=None, deadline=1.5 if you == 0 else None)
            for message in (protocol.EventMessage(seq=checked, epoch="e", action=action,
                                                  events=events, state=state),
                            protocol.Snapshot(seq=checked, epoch="e", state=state)):
                fast = protocol.dump(message)
                assert _json(fast) == _json(message.model_dump(mode="json"))
                assert list(fast) == list(message.model_dump(mode="json"))  # same key order
                checked += 1
    for message in (protocol.ErrorMessage(seq=3, code="illegal", message="no"),
                    protocol.Closed(seq=3, reason="shutdown", reconnect=True),
                    protocol.Pong(seq=1), protocol.LobbyMessage(seq=2, tables=[{"id": 1}])):
        assert protocol.dump(message) == message.model_dump(mode="json")
    assert checked > 400
