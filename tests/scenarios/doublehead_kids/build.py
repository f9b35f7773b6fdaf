"""Writes the Doublehead Kids scenario files of this folder (``python -m tests.scenarios.doublehead_kids.build``).

Each round is written as its twelve duels (tricks): who leads and which role plays which card.
The builder only turns that into a deal (each seat's hand is the cards it plays) and the action
list (declarations from the first player, the wedding partner, announcements, the plays in
clockwise order from each leader). It computes no outcome: every expected value below is
worked out by hand; README.md shows the arithmetic. The replay (the test) then checks the
engine's follow-suit and trick winners against these hand-made duels, because the leader of
each duel must be the winner of the one before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def parse(spec: str) -> list[tuple[str, str]]:
    """``"A TH, B AD"`` → [("A", "TH"), ("B", "AD")]."""
    return [tuple(part.split()) for part in spec.split(",")]  # type: ignore[misc]


def build_round(dealer: int, seats: dict[str, int], duels: list[tuple[str, str]], *,
                declare: dict[str, str] | None = None, partner: str | None = None,
                announce: list[tuple[int, str, str]] = ()) -> dict[str, Any]:
    """One round: ``duels`` are (leader role, "role card, role card, ...") in duel order."""
    first = (dealer + 1) % 4
    hands: dict[int, list[str]] = {seat: [] for seat in range(4)}
    plays: list[list[dict[str, Any]]] = []
    role_of = {seat: role for role, seat in seats.items()}
    assert seats[duels[0][0]] == first, "the first player leads the first duel"
    for leader, spec in duels:
        cards = dict(parse(spec))
        assert sorted(cards) == sorted(seats), spec
        lead_seat = seats[leader]
        order = [(lead_seat + i) % 4 for i in range(4)]
        plays.append([{"seat": s, "type": "play", "card": cards[role_of[s]]} for s in order])
        for role, card in cards.items():
            hands[seats[role]].append(card)
    actions: list[dict[str, Any]] = []
    for i in range(4):
        seat = (first + i) % 4
        value = (declare or {}).get(role_of[seat], "healthy")
        actions.append({"seat": seat, "type": "declare", "value": value})
    if partner is not None:
        bride = next(r for r, v in (declare or {}).items() if v == "wedding")
        actions.append({"seat": seats[bride], "type": "wedding_partner", "partner": seats[partner]})
    for index, trick in enumerate(plays):
        for at, role, value in announce:
            if at == index:
                actions.append({"seat": seats[role], "type": "announce", "value": value})
        actions.extend(trick)
    return {"dealer": dealer, "deal": [sorted(hands[s]) for s in range(4)], "deck": [],
            "actions": actions}


def seats_for(dealer: int, **others: int) -> dict[str, int]:
    """Role A is the first player (left of ``dealer``); B, C, D as given."""
    return {"A": (dealer + 1) % 4, **others}


# --- the rulebook's five example duels (basic game) -------------------------------------------
# George 0, Janet 1, Stacy 2, Jack 3; Jack deals, so George plays the first card.
G = {"G": 0, "J": 1, "S": 2, "K": 3}
RULEBOOK = [
    ("G", "G AC, J 9H, S TC, K AC"),   # Duel 1: castle, soldier, Earl (Ernst August), castle → George 32
    ("G", "G AH, J 9H, S 9D, K TC"),   # Duel 2: castle, soldier, Stacy trumps, Earl → Stacy 21
    ("S", "S AS, K KS, G KS, J QC"),   # Duel 3: castle, Jack and George follow, Team card → Janet 22
    ("J", "J AH, S QH, K QS, G AS"),   # Duel 4: castle, Stacy trumps, Jack over-trumps, George discards → Jack 28
    ("K", "K QC, G TH, J KD, S 9C"),   # Duel 5: Team card, King Friedrich, follow, discard → George 17
    ("G", "G TH, J 9D, S 9C, K KD"),   # 6 → George 14
    ("G", "G QS, J TD, S 9S, K QH"),   # 7 → George 16
    ("G", "G QD, J AD, S 9S, K QD"),   # 8: two equal cards, the first wins → George 17
    ("G", "G JC, J JH, S KC, K JC"),   # 9 → George 10
    ("G", "G JS, J JD, S KC, K JS"),   # 10 → George 10
    ("G", "G JH, J KH, S TS, K AD"),   # 11 → George 27
    ("G", "G JD, J KH, S TS, K TD"),   # 12 → George 26
]

# --- template T: Re (A, B) takes 120 in duels 1-7, Kontra 20 in duel 8 ----------------------
T_HEAD = [
    ("A", "A TH, B AD, C TD, D TD"),   # A 41 (B's Foxy into its own team's loot)
    ("A", "A QC, B TH, C KD, D QD"),   # B 20
    ("B", "B AH, C KH, D 9H, A 9D"),   # A 15 (A has no heart: trumps)
    ("A", "A QS, B QC, C JC, D JS"),   # B 10
    ("B", "B AH, C KH, D 9H, A 9D"),   # A 15
    ("A", "A QH, B QS, C JH, D JH"),   # B 10
    ("B", "B QH, C JD, D JD, A JC"),   # B 9
    ("B", "B AD, C QD, D KD, A JS"),   # C 20 (Kontra catches B's Foxy)
]
# the four earl duels (25 silver coins each); k of them go to Re
SUITS = {
    0: [("C", "C AC, D TC, A KC, B 9C"), ("C", "C AS, D TS, A KS, B 9S"),
        ("C", "C TC, D AC, A KC, B 9C"), ("D", "D AS, A KS, B 9S, C TS")],     # C C D D
    1: [("C", "C TC, D 9C, A AC, B KC"), ("A", "A KS, B 9S, C AS, D TS"),
        ("C", "C AC, D TC, A KC, B 9C"), ("C", "C TS, D AS, A KS, B 9S")],     # A C C D
    2: [("C", "C TC, D 9C, A AC, B KC"), ("A", "A AS, B 9S, C KS, D TS"),
        ("A", "A KC, B 9C, C AC, D TC"), ("C", "C AS, D TS, A KS, B 9S")],     # A A C C
    3: [("C", "C TC, D 9C, A AC, B KC"), ("A", "A AS, B 9S, C KS, D TS"),
        ("A", "A AC, B 9C, C KC, D TC"), ("A", "A KS, B 9S, C AS, D TS")],     # A A A C
}


def template_t(k: int) -> list[tuple[str, str]]:
    """Re 120 + 25k, Kontra 120 - 25k; the last duel is an earl duel (no Karlchen)."""
    return T_HEAD + SUITS[k]


# Karlchen wins the last duel: T's trumps rearranged, earl duels of k=1 (winners A C C D)
KARLCHEN_WINS = [
    ("A", "A TH, B QH, C TD, D TD"),   # A 33
    ("A", "A QC, B TH, C KD, D QD"),   # B 20
    ("B", "B AH, C KH, D 9H, A 9D"),   # A 15
    ("A", "A QS, B QC, C JC, D JS"),   # B 10
    ("B", "B AH, C KH, D 9H, A 9D"),   # A 15
    ("A", "A QH, B QS, C JH, D JH"),   # B 10
    ("B", "B AD, C QD, D KD, A JS"),   # C 20 (Foxy caught by Kontra)
    *SUITS[1],                         # A 25, C 25, C 25, D 25
    ("D", "D JD, A JC, B AD, C JD"),   # A 17: Karlchen wins the last duel (own Foxy)
]

# an opponent's Karlchen captured in the last duel: T reordered, earl duels of k=1
KARLCHEN_CAPTURED = [
    ("A", "A TH, B AD, C TD, D TD"),   # A 41
    ("A", "A QC, B TH, C KD, D QD"),   # B 20
    ("B", "B AH, C KH, D 9H, A 9D"),   # A 15
    ("A", "A QH, B QS, C JH, D JH"),   # B 10
    ("B", "B AH, C KH, D 9H, A 9D"),   # A 15
    ("A", "A JC, B QH, C JD, D JD"),   # B 9 (A's Karlchen, not the last duel)
    ("B", "B AD, C QD, D KD, A JS"),   # C 20
    *SUITS[1],                         # A 25, C 25, C 25, D 25
    ("D", "D JS, A QS, B QC, C JC"),   # B 10: C's Karlchen captured by Re in the last duel
]

# --- template L: A holds both Prince/Princess cards -------------------------------------------
L_HEAD = [
    ("A", "A TH, B AD, C AD, D TD"),   # A 42 (two Foxies from B and C)
    ("A", "A QC, B TD, C QD, D KD"),   # A 20
    ("A", "A QS, B KD, C JH, D QD"),   # A 12
    ("A", "A QC, B TH, C JD, D JD"),   # B 17
    ("B", "B AH, C KH, D 9H, A 9D"),   # A 15
    ("A", "A QH, B QS, C JC, D JH"),   # B 10
    ("B", "B AH, C KH, D 9H, A 9D"),   # A 15
    ("A", "A JC, B JS, C QH, D JS"),   # C 9
]


def template_l(k: int) -> list[tuple[str, str]]:
    """A alone: 104 + 25k; B 27, C 9 and the earl duels A does not win."""
    return L_HEAD + SUITS[k]


def t_round(dealer: int, k: int, re_b: int, **kwargs: Any) -> dict[str, Any]:
    """Template T with A = first player, B = ``re_b``, C and D the others (C before D)."""
    first = (dealer + 1) % 4
    rest = [s for s in range(4) if s not in (first, re_b)]
    return build_round(dealer, {"A": first, "B": re_b, "C": rest[0], "D": rest[1]},
                       template_t(k), **kwargs)


def scenario(rules: dict[str, Any], rounds: list[dict[str, Any]]) -> dict[str, Any]:
    return {"game": "doublehead_kids", "rules": rules, "players": 4, "rounds": rounds}


BASIC = {"preset": "basic"}
ADVANCED = {"preset": "advanced"}
STD = {"A": 0, "B": 2, "C": 1, "D": 3}  # dealer 3: A (first player) 0, partner B 2


def rounds_5_shared() -> list[dict[str, Any]]:
    """Seats 0 and 2 win five rounds; the dealer moves on each round (first player 0,1,2,3,0)."""
    return [
        t_round(3, 1, 2),   # first 0: Re {0,2} 145 wins
        t_round(0, 0, 3),   # first 1: Re {1,3} 120:120, Team No Crown {0,2} wins
        t_round(1, 2, 0),   # first 2: Re {2,0} 170 wins
        t_round(2, 0, 1),   # first 3: Re {3,1} 120:120, {0,2} wins
        t_round(3, 3, 2),   # first 0: Re {0,2} 195 wins
    ]


SCENARIOS: dict[str, dict[str, Any]] = {
    "rulebook_duels": scenario(BASIC, [build_round(3, G, RULEBOOK)]),
    "wedding_named": scenario(BASIC, [build_round(3, STD, template_l(0),
                                                  declare={"A": "wedding"}, partner="B")]),
    "lone_wins": scenario(BASIC, [build_round(3, STD, template_l(1))]),
    "lone_loses": scenario(BASIC, [build_round(3, STD, template_l(0))]),
    "tie_120": scenario(BASIC, [build_round(3, STD, template_t(0))]),
    "advanced_over_120": scenario(ADVANCED, [build_round(3, STD, template_t(1))]),
    "advanced_over_150": scenario(ADVANCED, [build_round(3, STD, template_t(2))]),
    "advanced_over_180": scenario(ADVANCED, [build_round(3, STD, template_t(3))]),
    "advanced_tie_120": scenario(ADVANCED, [build_round(3, STD, template_t(0))]),
    "advanced_lone_doubled": scenario(ADVANCED, [build_round(3, STD, template_l(1))]),
    "karlchen_wins_last_duel": scenario(ADVANCED, [build_round(3, STD, KARLCHEN_WINS)]),
    "karlchen_captured": scenario(ADVANCED, [build_round(3, STD, KARLCHEN_CAPTURED)]),
    "announcements_kept": scenario(
        {"preset": "advanced", "announcements": True},
        [build_round(3, STD, template_t(3), announce=[(0, "A", "no90"), (0, "C", "kontra")])]),
    "announcement_missed": scenario(
        {"preset": "advanced", "announcements": True},
        [build_round(3, STD, template_t(2), announce=[(0, "A", "no60")])]),
    "game_end_5_not_yet": scenario(BASIC, rounds_5_shared()[:4]),
    "game_end_5_shared": scenario(BASIC, rounds_5_shared()),
    "play_on_until_leader_tie": scenario({"preset": "basic", "play_on_until_leader": True},
                                         rounds_5_shared()),
    "play_on_until_leader": scenario(
        {"preset": "basic", "play_on_until_leader": True},
        [*rounds_5_shared(), t_round(0, 1, 0)]),   # first 1: Re {1,0} 145 wins
    "game_end_10_shared": scenario(ADVANCED, [
        t_round(3, 3, 2),   # first 0: Re {0,2} 195
        t_round(0, 0, 3),   # first 1: Re {1,3} 120:120 → {0,2}
        t_round(1, 3, 0),   # first 2: Re {2,0} 195
        t_round(2, 0, 1),   # first 3: Re {3,1} 120:120 → {0,2}
    ]),
}




# --- expected outcomes, worked out by hand (README.md shows the arithmetic) -------------------
# per round: (scores, card_points re/kontra, winner, contract, coin lines (reason, team, coins))
def _r(scores: list[int], re: int, kontra: int, winner: str, contract: str,
       lines: list[tuple[str, str, int]]) -> dict[str, Any]:
    return {"finished": True, "scores": scores,
            "details": {"contract": contract, "card_points": {"re": re, "kontra": kontra},
                        "winner": winner, "golden_coins": scores,
                        "coin_lines": [{"reason": r, "party": p, "coins": c} for r, p, c in lines]}}


WON_RE, WON_KONTRA = ("won", "re", 1), ("won", "kontra", 1)
FOXY_KONTRA = ("foxy", "kontra", 1)
R5 = [  # rounds_5_shared, basic
    _r([1, 0, 1, 0], 145, 95, "re", "normal", [WON_RE]),
    _r([1, 0, 1, 0], 120, 120, "kontra", "normal", [WON_KONTRA]),
    _r([1, 0, 1, 0], 170, 70, "re", "normal", [WON_RE]),
    _r([1, 0, 1, 0], 120, 120, "kontra", "normal", [WON_KONTRA]),
    _r([1, 0, 1, 0], 195, 45, "re", "normal", [WON_RE]),
]
OVER_180 = [WON_RE, ("over_150", "re", 1), ("over_180", "re", 1), FOXY_KONTRA]

EXPECTED: dict[str, dict[str, Any]] = {
    "rulebook_duels": {
        "rounds": [_r([1, 0, 1, 0], 50, 190, "kontra", "normal", [WON_KONTRA])],
        "totals": [1, 0, 1, 0], "game_over": False, "winners": [],
        "duels": [{"index": 0, "winner": 0, "points": 32}, {"index": 1, "winner": 2, "points": 21},
                  {"index": 2, "winner": 1, "points": 22}, {"index": 3, "winner": 3, "points": 28},
                  {"index": 4, "winner": 0, "points": 17}, {"index": 7, "winner": 0, "points": 17}],
    },
    "wedding_named": {"rounds": [_r([1, 0, 1, 0], 131, 109, "re", "wedding", [WON_RE])],
                      "totals": [1, 0, 1, 0], "game_over": False, "winners": []},
    "lone_wins": {"rounds": [_r([2, 0, 0, 0], 129, 111, "re", "silent_solo",
                                [WON_RE, ("lone_double", "re", 1)])],
                  "totals": [2, 0, 0, 0], "game_over": False, "winners": []},
    "lone_loses": {"rounds": [_r([0, 1, 1, 1], 104, 136, "kontra", "silent_solo", [WON_KONTRA])],
                   "totals": [0, 1, 1, 1], "game_over": False, "winners": []},
    "tie_120": {"rounds": [_r([0, 1, 0, 1], 120, 120, "kontra", "normal", [WON_KONTRA])],
                "totals": [0, 1, 0, 1], "game_over": False, "winners": []},
    "advanced_over_120": {"rounds": [_r([1, 1, 1, 1], 145, 95, "re", "normal", [WON_RE, FOXY_KONTRA])],
                          "totals": [1, 1, 1, 1], "game_over": False, "winners": []},
    "advanced_over_150": {"rounds": [_r([2, 1, 2, 1], 170, 70, "re", "normal",
                                        [WON_RE, ("over_150", "re", 1), FOXY_KONTRA])],
                          "totals": [2, 1, 2, 1], "game_over": False, "winners": []},
    "advanced_over_180": {"rounds": [_r([3, 1, 3, 1], 195, 45, "re", "normal", OVER_180)],
                          "totals": [3, 1, 3, 1], "game_over": False, "winners": []},
    "advanced_tie_120": {"rounds": [_r([0, 2, 0, 2], 120, 120, "kontra", "normal",
                                       [WON_KONTRA, FOXY_KONTRA])],
                         "totals": [0, 2, 0, 2], "game_over": False, "winners": []},
    "advanced_lone_doubled": {"rounds": [_r([6, 0, 0, 0], 129, 111, "re", "silent_solo",
                                            [WON_RE, ("foxy", "re", 1), ("foxy", "re", 1),
                                             ("lone_double", "re", 3)])],
                              "totals": [6, 0, 0, 0], "game_over": False, "winners": []},
    "karlchen_wins_last_duel": {"rounds": [_r([2, 1, 2, 1], 145, 95, "re", "normal",
                                              [WON_RE, FOXY_KONTRA, ("karlchen", "re", 1)])],
                                "totals": [2, 1, 2, 1], "game_over": False, "winners": []},
    "karlchen_captured": {"rounds": [_r([2, 1, 2, 1], 145, 95, "re", "normal",
                                        [WON_RE, FOXY_KONTRA, ("karlchen_captured", "re", 1)])],
                          "totals": [2, 1, 2, 1], "game_over": False, "winners": []},
    "announcements_kept": {"rounds": [_r([5, 1, 5, 1], 195, 45, "re", "normal",
                                         [*OVER_180, ("announced_re", "re", 1),
                                          ("announced_no90", "re", 1)])],
                           "totals": [5, 1, 5, 1], "game_over": False, "winners": []},
    "announcement_missed": {"rounds": [_r([0, 2, 0, 2], 170, 70, "kontra", "normal",
                                          [WON_KONTRA, FOXY_KONTRA])],
                            "totals": [0, 2, 0, 2], "game_over": False, "winners": []},
    "game_end_5_not_yet": {"rounds": R5[:4], "totals": [4, 0, 4, 0], "game_over": False, "winners": []},
    "game_end_5_shared": {"rounds": R5, "totals": [5, 0, 5, 0], "game_over": True, "winners": [0, 2]},
    "play_on_until_leader_tie": {"rounds": R5, "totals": [5, 0, 5, 0], "game_over": False,
                                 "winners": []},
    "play_on_until_leader": {"rounds": [*R5, _r([1, 1, 0, 0], 145, 95, "re", "normal", [WON_RE])],
                             "totals": [6, 1, 5, 0], "game_over": True, "winners": [0]},
    "game_end_10_shared": {
        "rounds": [_r([3, 1, 3, 1], 195, 45, "re", "normal", OVER_180),
                   _r([2, 0, 2, 0], 120, 120, "kontra", "normal", [WON_KONTRA, FOXY_KONTRA]),
                   _r([3, 1, 3, 1], 195, 45, "re", "normal", OVER_180),
                   _r([2, 0, 2, 0], 120, 120, "kontra", "normal", [WON_KONTRA, FOXY_KONTRA])],
        "totals": [10, 2, 10, 2], "game_over": True, "winners": [0, 2]},
}


def main() -> None:
    assert set(EXPECTED) == set(SCENARIOS)
    for name, document in SCENARIOS.items():
        (HERE / f"{name}.json").write_text(json.dumps(document, indent=1) + "\n")
        expected = {"game": "doublehead_kids", **EXPECTED[name]}
        (HERE / f"{name}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    main()
