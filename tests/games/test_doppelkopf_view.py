"""What each seat may see of a Doppelkopf deal (rulings: reservations, silent solo, poverty).

Plays the scenario files of tests/scenarios/doppelkopf action by action and checks every seat's
view after every action.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from app.games.doppelkopf import GAME

FOLDER = Path(__file__).resolve().parents[1] / "scenarios" / "doppelkopf"


def _states(name: str, round_index: int = 0):
    doc = json.loads((FOLDER / f"{name}.json").read_text())
    rules = GAME.make_rules(doc["rules"])
    rnd = doc["rounds"][round_index]
    state = GAME.new_round(rules, 4, rnd["deal"], [], rnd["dealer"])
    yield state, None
    for action in rnd["actions"]:
        if action["type"] == "announce":
            try:
                state, _ = GAME.apply(state, action)
            except ValueError:
                continue
        else:
            state, _ = GAME.apply(state, action)
        yield state, action


CARD_NAMES = {rank + suit for rank in "ATKQJ9" for suit in "CSHD"}
#: view fields that may name cards: the own hand and its legal plays, the trump order and the
#: cards played (current trick, last trick, every completed trick); poverty cards are checked
#: separately
PUBLIC_CARD_FIELDS = {"hand", "legal", "trumps", "trick", "last_trick", "tricks", "poverty"}


def _card_paths(value, path: str = "") -> list[str]:
    """The JSON paths of every card name inside ``value``."""
    if isinstance(value, str):
        return [path] if value in CARD_NAMES else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    return [p for key, v in items for p in _card_paths(v, f"{path}.{key}")]


def test_no_seat_sees_another_hand_during_play():
    checked = 0
    for name in ("normal_plain", "wedding_partner_trick2", "solo_hearts", "poverty_accepted"):
        for state, _ in _states(name):
            if state.phase == "done":
                continue
            for seat in range(4):
                view = GAME.view(state, seat)
                assert sorted(view["hand"]) == sorted(state.hands[seat])
                stray = [p for p in _card_paths(view) if p.split(".")[1] not in PUBLIC_CARD_FIELDS]
                assert stray == [], (name, seat, stray)
                for action in view["legal"]:
                    if action["type"] == "play":
                        assert action["card"] in state.hands[seat]
                    assert action["seat"] == seat
                table = [play["card"] for play in view["trick"]]
                assert len(table) == len(state.trick)
                checked += 1
    assert checked > 100


def test_reservations_hidden_until_resolved():
    seen_reservation = False
    for state, _action in _states("solo_kings"):
        if state.phase != "declare":
            break
        for seat in range(4):
            shown = GAME.view(state, seat)["declarations"]
            for other, value in enumerate(shown):
                if other != seat and value not in (None, "healthy"):
                    assert value == "reservation"
                    seen_reservation = True
            assert GAME.view(state, seat)["contract"] is None
    assert seen_reservation
    # once resolved, the winning solo is public
    assert all(GAME.view(state, seat)["contract"] == "solo_kings" for seat in range(4))


def test_losing_reservation_stays_hidden():
    """Seat 0's wedding lost to seat 2's jacks solo: only the solo is revealed."""
    checked = 0
    for state, _ in _states("solo_precedence"):
        if state.phase == "play":
            for seat in (1, 2, 3):
                view = GAME.view(state, seat)
                assert view["declarations"][0] == "reservation"
                assert view["declarations"][2] == "solo_jacks"
                assert view["contract"] == "solo_jacks"
            checked += 1
    assert checked > 0


def test_silent_solo_looks_normal_until_both_queens_of_clubs_fall():
    queens = 0
    for state, action in _states("silent_solo"):
        if action and action.get("card") == "QC":
            queens += 1
        if state.phase in ("declare", "done"):
            continue
        for seat in (1, 2, 3):
            view = GAME.view(state, seat)
            assert view["contract"] == ("silent_solo" if queens == 2 else "normal")
            if queens < 2:
                assert view["declarer"] is None
        assert GAME.view(state, 0)["contract"] == "silent_solo"
    assert queens == 2


def test_poverty_cards_only_for_poor_player_and_taker():
    given = None
    for state, action in _states("poverty_accepted"):
        if action and action["type"] == "poverty_give":
            given = sorted(action["cards"])
        if state.phase == "poverty_answer":
            for seat in range(4):
                pov = GAME.view(state, seat).get("poverty", {})
                if seat == 1:
                    assert sorted(pov.get("cards", [])) == given
                else:
                    assert "cards" not in pov
        if state.phase == "poverty_return":
            for seat in (0, 2):
                view = GAME.view(state, seat)
                assert "cards" not in view.get("poverty", {})
                assert sorted(view["hand"]) == sorted(state.hands[seat])
            taker = GAME.view(state, 3)
            assert not Counter(given) - Counter(taker["hand"])
    assert given is not None


def test_swines_not_revealed_before_the_first_fox_is_played():
    """Rulings: swines are declared when the first AD is played; before that, no other seat may
    learn that someone holds both AD (neither the swines field nor the trump order shows it)."""
    for state, action in _states("swines_on"):
        if state.phase != "play":
            continue
        if action and action.get("card") == "AD":
            break
        for seat in (1, 2, 3):
            view = GAME.view(state, seat)
            assert view["swines"] is None
            assert view["trumps"][0] == "TH", view["trumps"][:2]


def test_the_views_reuse_what_did_not_change_and_show_what_did():
    """Each seat's hand (sorted from the card sets), the hand sizes, the completed tricks and
    the trumps are built once and shared read-only while they stay the same
    (app/games/doppelkopf/view.py); a played card changes the player's hand and nobody
    else's. Scenarios of every kind of contract, every seat, every action."""
    from app.games.doppelkopf.view import public_order, view

    for name in ("charlie", "against_all_four", "silent_solo", "poverty_accepted", "swines_on",
                 "solo_kings", "solo_precedence", "announcements_off"):
        before = None
        for state, action in _states(name):
            views = [view(state, seat) for seat in range(4)]
            for seat, seen in enumerate(views):
                order = public_order(state, seat)
                assert seen["hand"] == sorted(state.hands[seat], key=order.hand_rank.__getitem__)
                assert seen["hand_sizes"] == [len(hand) for hand in state.hands]
                assert seen["tricks_won"] == [sum(t.winner == s for t in state.tricks)
                                              for s in range(4)]
            if before is not None and action is not None and action["type"] == "play":
                player = action["seat"]
                for seat in range(4):
                    same_order = public_order(state, seat) is public_order(before[0], seat)
                    if seat != player and same_order:
                        assert views[seat]["hand"] is before[1][seat]["hand"], (name, seat)
                assert views[player]["hand"] != before[1][player]["hand"]
                if len(state.tricks) == len(before[0].tricks):
                    assert views[0]["tricks"] is before[1][0]["tricks"]
            for shared in ("tricks", "hand_sizes"):
                assert len({id(seen[shared]) for seen in views}) == 1, shared
            orders = {id(public_order(state, seat)) for seat in range(4)}  # swines: two
            assert len({id(seen["trumps"]) for seen in views}) == len(orders)
            before = state, views
