"""GameTwist table modes: duel mode dealing and rules, tournament mode's hidden information."""

from __future__ import annotations

import random
from typing import Any

from app.games.doppelkopf import GAME
from app.games.doppelkopf.modes import COMPUTERS, PEOPLE, duel_wedding_cancelled, eligible_partner
from tests.games.randomplay import play_random_round

DUEL = GAME.make_rules({"preset": "gametwist", "table_mode": "duel", "deals": 4})


def test_duel_mode_people_never_share_a_party_of_a_normal_game():
    rng = random.Random(7)
    normal_games = 0
    for _ in range(1000):
        hands, _ = GAME.deal(DUEL, 4, rng)
        queens = [hand.count("QC") for hand in hands]
        if 2 in queens:
            continue  # a wedding or silent solo, not a normal game
        normal_games += 1
        re_people = [seat for seat in PEOPLE if queens[seat] == 1]
        assert len(re_people) == 1, f"people hold {queens[0]}+{queens[2]} QC"
    assert normal_games > 500


def test_plain_dealing_does_let_people_share_a_party():
    rules = GAME.make_rules({"preset": "gametwist"})
    rng = random.Random(7)
    shared = sum(1 for _ in range(300)
                 if [h.count("QC") for h in GAME.deal(rules, 4, rng)[0]][0::2] == [1, 1])
    assert shared > 0


def test_duel_mode_computers_may_neither_solo_nor_announce():
    rng = random.Random(3)
    for _ in range(40):
        played = play_random_round(GAME, DUEL, 4, rng, out_of_turn=0.3)
        for action in played.actions:
            if action["seat"] in COMPUTERS:
                assert action["type"] != "announce"
                assert not (action["type"] == "declare" and action["value"].startswith("solo_"))


def test_duel_wedding_partner_must_come_from_the_other_side():
    assert eligible_partner(DUEL, 0, 1) and eligible_partner(DUEL, 0, 3)
    assert not eligible_partner(DUEL, 0, 2)
    assert eligible_partner(DUEL, 1, 0) and not eligible_partner(DUEL, 1, 3)


def test_duel_wedding_without_partner_is_a_solo_only_for_a_person_who_won_all_three():
    assert not duel_wedding_cancelled(DUEL, 0, [0, 0, 0])
    assert duel_wedding_cancelled(DUEL, 0, [0, 2, 0])
    assert duel_wedding_cancelled(DUEL, 1, [1, 1, 1])
    assert duel_wedding_cancelled(DUEL, 3, [1, 3, 1])


def _wedding_deal(rng: random.Random, bride: int) -> list[list[str]]:
    """A deal where ``bride`` holds both QC. Duel dealing never gives a computer both QC (the
    people hold one, or one person holds both), so a computer's wedding can only come from a
    scenario: plain dealing builds those."""
    plain = GAME.make_rules({"preset": "gametwist"})
    while True:
        hands, _ = GAME.deal(plain, 4, rng)
        if hands[bride].count("QC") == 2:
            return hands


def _play_wedding(bride: int, seed: int) -> Any:
    rng = random.Random(seed)
    hands = _wedding_deal(rng, bride)
    state = GAME.new_round(DUEL, 4, hands, [], (bride - 1) % 4)
    while state.phase == "declare":
        value = "wedding" if state.to_move == bride else "healthy"
        state, _ = GAME.apply(state, {"seat": state.to_move, "type": "declare", "value": value})
    while len(state.tricks) < 3 and state.phase == "play":
        state, _ = GAME.apply(state, rng.choice(GAME.legal_actions(state, state.to_move)))
    return state


def test_duel_weddings_played_out_follow_the_mode():
    seen = set()
    for bride in (0, 1):
        for seed in range(60):
            state = _play_wedding(bride, seed)
            winners = [t.winner for t in state.tricks]
            if state.partner is not None:
                assert (state.partner in COMPUTERS) == (bride in PEOPLE)
                seen.add("partner")
            elif state.redeal == "wedding_cancelled":
                assert duel_wedding_cancelled(DUEL, bride, winners)
                seen.add("cancelled")
            else:
                assert bride in PEOPLE and winners == [bride] * 3
                seen.add("alone")
    assert {"partner", "cancelled"} <= seen


def test_tournament_mode_sends_no_running_card_points_parties_or_announcements():
    rules = GAME.make_rules({"preset": "ddv", "table_mode": "tournament"})
    rng = random.Random(11)
    checked = 0
    for _ in range(30):
        played = play_random_round(GAME, rules, 4, rng, out_of_turn=0.2)
        for state in played.states[5:-1]:
            for seat in range(4):
                view = GAME.view(state, seat)
                assert view["points_won"] is None
                assert view["announcements"] == []
                assert set(view["parties"]) <= {str(seat)}
                assert all("points" not in t for t in view["tricks"])
                checked += 1
        final = GAME.view(played.states[-1], 0)
        if "result" in final and final["result"]["contract"] != "redeal":
            assert final["points_won"] is not None and len(final["parties"]) == 4
    assert checked > 1000


def test_tournament_views_leave_the_shared_trick_json_whole():
    """The completed tricks' JSON is shared by every view (app.games.doppelkopf.view); hiding
    the points in tournament mode must copy it, so the same deal's other views keep them."""
    rules = GAME.make_rules({"preset": "ddv", "table_mode": "tournament"})
    rng = random.Random(5)
    played = play_random_round(GAME, rules, 4, rng)
    mid = next(state for state in played.states if len(state.tricks) >= 3 and state.phase != "done")
    hidden = [GAME.view(mid, seat) for seat in range(4)]
    assert all("points" not in t for view in hidden for t in view["tricks"])
    assert "points" not in hidden[0]["last_trick"]
    final = GAME.view(played.states[-1], 0)  # the same completed tricks, revealed at the end
    assert final["tricks"][:3] and all("points" in t for t in final["tricks"])
    assert "points" in final["last_trick"]
