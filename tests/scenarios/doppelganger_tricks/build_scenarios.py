"""Write the Doppelganger Tricks scenario files (the inputs, never the expected outcomes).

    python tests/scenarios/doppelganger_tricks/build_scenarios.py

Each scenario fixes the cards its tricks need (``fixed``), keeps suits away from seats that
must be void in them (``avoid``), and fills the rest of the deal from the remaining cards with a
seeded shuffle, so the files are reproducible. This script does not import the rules engine: the
``.expected.json`` files are written by hand from the rulebook and the rulings, with the
reasoning in their ``notes``.

Action shorthand: ``("bid", seat, value)``, ``("play", seat, card)``,
``("play", seat, card, suit)``, ``("bonus", seat, "star" | "eye")``, ``("decline", seat)``.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
SUITS = "PGYN"


def deck(players: int) -> list[str]:
    top = 9 if players == 3 else 10
    return [f"{suit}{rank}" for suit in SUITS for rank in range(1, top + 1)]


@dataclass
class Spec:
    """One scenario round: fixed cards, suits each seat must not be dealt, and the actions."""

    name: str
    players: int
    dealer: int
    actions: list[tuple]
    fixed: dict[int, list[str]] = field(default_factory=dict)
    avoid: dict[int, str] = field(default_factory=dict)
    folder: str = ""


def fill_deal(spec: Spec, seed: int = 0) -> list[list[str]]:
    """Each seat's hand: its fixed cards plus random others of suits it does not avoid."""
    size = len(deck(spec.players)) // spec.players
    for attempt in range(200):
        rng = random.Random(f"{spec.name}-{seed}-{attempt}")
        hands = [list(spec.fixed.get(seat, [])) for seat in range(spec.players)]
        taken = {card for hand in hands for card in hand}
        rest = [card for card in deck(spec.players) if card not in taken]
        rng.shuffle(rest)
        rest.sort(key=lambda card: -sum(card[0] in spec.avoid.get(s, "") for s in range(spec.players)))
        if _place(spec, hands, rest, size, rng):
            return [sorted(hand, key=lambda c: (SUITS.index(c[0]), int(c[1:]))) for hand in hands]
    raise SystemExit(f"{spec.name}: cannot fill the deal under its constraints")


def _place(spec: Spec, hands: list[list[str]], rest: list[str], size: int, rng: random.Random) -> bool:
    for card in rest:
        seats = [
            seat
            for seat in range(spec.players)
            if len(hands[seat]) < size and card[0] not in spec.avoid.get(seat, "")
        ]
        if not seats:
            return False
        hands[rng.choice(seats)].append(card)
    return True


def action_json(step: tuple) -> dict:
    kind, seat, *rest = step
    if kind == "bid":
        return {"seat": seat, "type": "bid", "value": rest[0]}
    if kind == "play":
        action = {"seat": seat, "type": "play", "card": rest[0]}
        if len(rest) > 1:
            action["suit"] = rest[1]
        return action
    if kind == "bonus":
        return {"seat": seat, "type": "take_bonus", "value": rest[0]}
    if kind == "decline":
        return {"seat": seat, "type": "decline_bonus"}
    raise ValueError(kind)


def bids(*values: int, order: tuple[int, ...] | None = None) -> list[tuple]:
    seats = order or tuple(range(len(values)))
    return [("bid", seat, values[seat]) for seat in seats]


def trick(leader: int, players: int, *cards: str, suit: str | None = None) -> list[tuple]:
    """The plays of one trick from ``leader`` clockwise; ``suit`` names a navy lead's suit."""
    plays: list[tuple] = []
    for offset, card in enumerate(cards):
        seat = (leader + offset) % players
        plays.append(("play", seat, card, suit) if offset == 0 and suit else ("play", seat, card))
    return plays


def document(spec: Spec, deals: list[list[list[str]]], dealers: list[int], actions: list[list[tuple]]) -> dict:
    rounds = [
        {"dealer": dealer, "deal": deal, "deck": [], "actions": [action_json(a) for a in acts]}
        for deal, dealer, acts in zip(deals, dealers, actions, strict=True)
    ]
    return {"game": "doppelganger_tricks", "rules": {}, "players": spec.players, "rounds": rounds}


def path_of(spec: Spec) -> Path:
    return (HERE / spec.folder if spec.folder else HERE) / f"{spec.name}.json"


def dumps(doc: dict) -> str:
    """JSON with two-space indents and each hand or action on one line."""
    text = json.dumps(doc, indent=2)
    inner = re.compile(r"([\[{])\s+([^\[\]{}]*?)\s+([\]}])")
    return inner.sub(lambda m: m[1] + ", ".join(p.strip() for p in m[2].split(",")) + m[3], text)


# --- The seven annihilation examples of the rulebook (4 players, dealer 3: seat 0 leads) -----

BIDS_4 = bids(2, 3, 1, 4, order=(2, 0, 3, 1))

RULEBOOK = [
    # 1: a Navy 6 counts as pink; both 6s annihilate; the Pink 4 wins.
    Spec("rulebook_example_1", 4, 3, BIDS_4 + trick(0, 4, "P4", "N6", "P6", "G9"),
         fixed={0: ["P4"], 1: ["N6"], 2: ["P6"], 3: ["G9"]}, avoid={3: "P"}),
    # 2: no annihilation, the Navy 8 counts as a Yellow 8 (not green); the Navy 8 wins.
    Spec("rulebook_example_2", 4, 3, BIDS_4 + trick(0, 4, "Y5", "N8", "G8", "Y3"),
         fixed={0: ["Y5"], 1: ["N8"], 2: ["G8"], 3: ["Y3"]}, avoid={2: "Y"}),
    # 3: a navy lead names green, all follow green; the Yellow 3 stays in a hand; Green 9 wins.
    Spec("rulebook_example_3", 4, 3, BIDS_4 + trick(0, 4, "N3", "G9", "G5", "G2", suit="G"),
         fixed={0: ["N3"], 1: ["G9"], 2: ["G5", "Y3"], 3: ["G2"]}),
    # 4: a navy lead names pink, all follow pink; both 7s annihilate; the Pink 5 wins.
    Spec("rulebook_example_4", 4, 3, BIDS_4 + trick(0, 4, "N7", "P5", "P7", "P2", suit="P"),
         fixed={0: ["N7"], 1: ["P5"], 2: ["P7"], 3: ["P2"]}),
    # 5: both 2s annihilate (the lead card too), the lead suit stays pink; the Pink 3 wins.
    Spec("rulebook_example_5", 4, 3, BIDS_4 + trick(0, 4, "P2", "P3", "N2", "Y9"),
         fixed={0: ["P2"], 1: ["P3"], 2: ["N2"], 3: ["Y9"]}, avoid={3: "P"}),
    # 6: both 3s and both 7s annihilate; nobody wins and seat 0 leads again.
    Spec("rulebook_example_6", 4, 3, BIDS_4 + trick(0, 4, "P3", "N7", "P7", "N3"),
         fixed={0: ["P3"], 1: ["N7"], 2: ["P7"], 3: ["N3"]}),
    # 7: the Yellow 10 lead meets the Navy 10; no lead-suit card remains; the Pink 7 (first of
    #    the two 7s) wins.
    Spec("rulebook_example_7", 4, 3, BIDS_4 + trick(0, 4, "Y10", "N10", "P7", "G7"),
         fixed={0: ["Y10"], 1: ["N10"], 2: ["P7"], 3: ["G7"]}, avoid={2: "Y", 3: "Y"}),
]

# --- Small scenarios of single rules -----------------------------------------------------------

VOID_TRICK = Spec(
    "void_trick_same_leader", 4, 3,
    BIDS_4 + trick(0, 4, "P3", "N7", "P7", "N3") + trick(0, 4, "G8", "G2", "G5", "G1"),
    fixed={0: ["P3", "G8"], 1: ["N7", "G2"], 2: ["P7", "G5"], 3: ["N3", "G1"]},
)

LAST_NAVY = Spec(
    "bonus_after_last_navy", 4, 3,
    BIDS_4 + trick(0, 4, "N8", "Y2", "Y6", "Y9", suit="Y")
    + [("play", 3, "G3"), ("play", 0, "N5"), ("bonus", 0, "star"), ("play", 1, "G7"), ("play", 2, "G1")],
    fixed={0: ["N5", "N8"], 1: ["Y2", "G7"], 2: ["Y6", "G1"], 3: ["Y9", "G3"]},
    avoid={0: "N"},
)

# --- One 4-player round whose tricks are easy to follow: each seat holds one whole suit --------

SUITED_DEAL = [
    [f"P{r}" for r in range(1, 11)],
    [f"G{r}" for r in range(1, 11)],
    [f"Y{r}" for r in range(1, 11)],
    [f"N{r}" for r in range(1, 11)],
]
SUITED_TRICKS = [
    trick(0, 4, "P10", "G1", "Y1", "N1"),            # 0: pink P10 > N1: seat 0
    trick(0, 4, "P9", "G2", "Y2", "N2"),             # 1: seat 0
    trick(0, 4, "P1", "G3", "Y3", "N10"),            # 2: N10 counts as pink 10: seat 3
    trick(3, 4, "N9", "P2", "G10", "Y4", suit="G"),  # 3: green G10 > N9: seat 1
    trick(1, 4, "G4", "Y5", "N4", "P8"),             # 4: G4+N4 annihilate; P8 > Y5: seat 0
    trick(0, 4, "P7", "G5", "Y6", "N3"),             # 5: seat 0
    trick(0, 4, "P3", "G6", "Y7", "N8"),             # 6: N8 > P3: seat 3
    trick(3, 4, "N7", "P6", "G7", "Y8", suit="P"),   # 7: N7 > P6: seat 3
    trick(3, 4, "N6", "P4", "G9", "Y9", suit="G"),   # 8: G9 > N6: seat 1
    trick(1, 4, "G8", "Y10", "N5", "P5"),            # 9: G8 > N5, P5 is not green: seat 1
]


def suited_round(name: str, bid_values: tuple[int, ...], extra: dict[int, list[tuple]], end: list[tuple]) -> Spec:
    """The suited round with these bids; ``extra[i]`` goes right after play i of the round."""
    plays = [step for tr in SUITED_TRICKS for step in tr]
    actions = bids(*bid_values, order=(3, 1, 0, 2))
    for index, step in enumerate(plays):
        actions.append(step)
        actions.extend(extra.get(index, []))
    fixed = dict(enumerate(SUITED_DEAL))
    return Spec(name, 4, 3, actions + end, fixed=fixed)


SUITED = [
    suited_round("zero_bid_made", (4, 3, 0, 3), {}, [("decline", 0)]),
    suited_round("zero_bid_missed", (4, 3, 2, 0), {}, [("decline", 0)]),
    suited_round("off_by_one", (5, 2, 1, 4), {}, [("bonus", 0, "eye")]),
    suited_round("both_bonus_cards", (4, 3, 0, 3), {1: [("bonus", 1, "star")], 2: [("bonus", 2, "eye")]}, []),
    # the file ends right after the last card: the bonus chance closes with the file (finished)
    suited_round("ends_after_last_card", (4, 3, 0, 3), {}, []),
    # the same file with the last player's take_bonus after the last card
    suited_round("bonus_after_last_card", (4, 3, 0, 3), {}, [("bonus", 0, "star")]),
]

# "no bonus" mid-round: accepted (a live table's answer), never required; it closes the chance
NO_BONUS_MID_ROUND = Spec(
    "no_bonus_mid_round", 4, 3,
    BIDS_4 + trick(0, 4, "N8", "Y2", "Y6", "Y9", suit="Y")
    + [("play", 3, "G3"), ("play", 0, "N5"), ("decline", 0), ("play", 1, "G7"), ("play", 2, "G1")],
    fixed=LAST_NAVY.fixed, avoid=LAST_NAVY.avoid,
)

# --- A whole 3-player game: three rounds, each seat first once, ending in a shared victory -----


def three_player_round(first: int, bid_values: dict[int, int], end: list[tuple]) -> tuple[list, list]:
    """A: P1-9 N1-3 (first seat), B: G1-9 N4-6, C: Y1-9 N7-9. A wins nine, C three, B none."""
    a, b, c = first, (first + 1) % 3, (first + 2) % 3
    deal: list[list[str]] = [[], [], []]
    deal[a] = [f"P{r}" for r in range(1, 10)] + ["N1", "N2", "N3"]
    deal[b] = [f"G{r}" for r in range(1, 10)] + ["N4", "N5", "N6"]
    deal[c] = [f"Y{r}" for r in range(1, 10)] + ["N7", "N8", "N9"]
    actions = [("bid", seat, bid_values[seat]) for seat in (c, a, b)]
    for k in range(9):
        actions += trick(a, 3, f"P{9 - k}", f"G{k + 1}", f"Y{k + 1}")
    actions += trick(a, 3, "N3", "N4", "N7", suit="P")
    actions += trick(c, 3, "N8", "N2", "N5", suit="P")
    actions += trick(c, 3, "N9", "N1", "N6", suit="Y")
    return deal, actions + end


def three_player_game() -> tuple[Spec, dict]:
    spec = Spec("three_players_shared_victory", 3, 2, [])
    rounds = [
        three_player_round(0, {0: 9, 1: 0, 2: 2}, [("decline", 1)]),
        three_player_round(1, {1: 5, 2: 1, 0: 3}, [("bonus", 2, "star")]),
        three_player_round(2, {2: 8, 0: 1, 1: 6}, [("bonus", 0, "eye")]),
    ]
    deals = [deal for deal, _ in rounds]
    return spec, document(spec, deals, [2, 0, 1], [acts for _, acts in rounds])


# --- Illegal actions: replay must stop with exit 2 and one line on stderr ----------------------

ILLEGAL = [
    Spec("play_before_all_bids", 4, 3, bids(2, 3, 1, 4)[:3] + [("play", 0, "P4")],
         fixed=RULEBOOK[0].fixed, avoid=RULEBOOK[0].avoid),
    Spec("not_your_turn", 4, 3, BIDS_4 + [("play", 1, "N6")],
         fixed=RULEBOOK[0].fixed, avoid=RULEBOOK[0].avoid),
    Spec("must_follow_suit", 4, 3, BIDS_4 + [("play", 0, "P2"), ("play", 1, "G4")],
         fixed={0: ["P2"], 1: ["P3", "G4"]}),
    Spec("navy_lead_without_suit", 4, 3, BIDS_4 + [("play", 0, "N3")], fixed={0: ["N3"]}),
    Spec("navy_lead_names_navy", 4, 3, BIDS_4 + [("play", 0, "N3", "N")], fixed={0: ["N3"]}),
    Spec("suit_named_on_follow", 4, 3, BIDS_4 + [("play", 0, "Y5"), ("play", 1, "N8", "Y")],
         fixed={0: ["Y5"], 1: ["N8"]}),
    Spec("card_not_held", 4, 3, BIDS_4 + [("play", 0, "G9")], fixed={0: ["P4"], 3: ["G9"]}),
    Spec("bid_twice", 4, 3, [("bid", 0, 2), ("bid", 1, 1), ("bid", 0, 3)], fixed={}),
    Spec("bid_above_twelve", 3, 0, [("bid", 1, 13)], fixed={}),
    Spec("bonus_while_holding_navy", 4, 3, BIDS_4 + trick(0, 4, "N8", suit="Y") + [("bonus", 0, "star")],
         fixed=LAST_NAVY.fixed, avoid=LAST_NAVY.avoid),
    Spec("bonus_after_next_play", 4, 3,
         LAST_NAVY.actions[:8] + [("play", 3, "G3"), ("play", 0, "N5"), ("play", 1, "G7"), ("bonus", 0, "star")],
         fixed=LAST_NAVY.fixed, avoid=LAST_NAVY.avoid),
    Spec("decline_while_holding_navy", 4, 3, BIDS_4 + trick(0, 4, "N8", suit="Y") + [("decline", 0)],
         fixed=LAST_NAVY.fixed, avoid=LAST_NAVY.avoid),
    Spec("bonus_after_no_bonus", 4, 3,
         LAST_NAVY.actions[:8] + [("play", 3, "G3"), ("play", 0, "N5"), ("decline", 0), ("bonus", 0, "star")],
         fixed=LAST_NAVY.fixed, avoid=LAST_NAVY.avoid),
]


def illegal_suited(name: str, extra: dict[int, list[tuple]], stop: int) -> Spec:
    spec = suited_round(name, (4, 3, 0, 3), extra, [])
    spec.actions = spec.actions[:stop]
    spec.folder = "illegal"
    return spec


ILLEGAL_SUITED = [
    # seat 1 takes the star after its first play, then asks for the eye after its second
    illegal_suited("second_bonus_same_seat", {1: [("bonus", 1, "star")], 5: [("bonus", 1, "eye")]}, 12),
    # seat 1 takes the star; seat 2 asks for it too
    illegal_suited("bonus_already_taken", {1: [("bonus", 1, "star")], 2: [("bonus", 2, "star")]}, 9),
]


def documents() -> dict[Path, str]:
    """Every scenario file this script makes: path → text."""
    for spec in ILLEGAL:
        spec.folder = "illegal"
    made = [(spec, document(spec, [fill_deal(spec)], [spec.dealer], [spec.actions]))
            for spec in [*RULEBOOK, VOID_TRICK, LAST_NAVY, NO_BONUS_MID_ROUND, *SUITED, *ILLEGAL,
                         *ILLEGAL_SUITED]]
    made.append(three_player_game())
    return {path_of(spec): dumps(doc) + "\n" for spec, doc in made}


def main() -> None:
    for path, text in documents().items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)


if __name__ == "__main__":
    main()
