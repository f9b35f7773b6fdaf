"""Builder of the statistics' hand-made matches (run from the repository root).

    python tests/scenarios/stats/build.py     # (re)write doppelkopf_match.json, kids_match.json,
                                              # doppio_match.json

A match here is the rounds of other scenario files put one after the other under one rules
object (each round keeps its dealer, deal and actions), so each round shows one thing whose
outcome its own file documents (tests/scenarios/doppelkopf/README.md and the Kids README).
One round is made here: a queens solo that seat 0 wins, holding all eight queens and four
aces (every card of the other three is a plain card in a queens solo, so seat 0 takes every
trick it leads a queen to); its play is each seat's first legal card, listed by the engine.
What the statistics count in each match is in README.md beside this file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from app.games.doppelkopf import GAME  # noqa: E402
from app.games.doppelkopf.rules import make_rules  # noqa: E402

SCENARIOS = HERE.parent


def rounds_of(path: str, *indices: int) -> list[dict]:
    document = json.loads((SCENARIOS / path).read_text())
    return [document["rounds"][i] for i in (indices or range(len(document["rounds"])))]


def won_queens_solo() -> dict:
    """Seat 0: eight queens and four aces; the others get the rest (each sorted by name)."""
    rest = sorted(card for card in [r + s for s in "CSHD" for r in "ATKQJ9" for _ in range(2)]
                  if card[0] != "Q")
    for ace in ("AC", "AS", "AH", "AD"):
        rest.remove(ace)
    deal = [["QC", "QC", "QS", "QS", "QH", "QH", "QD", "QD", "AC", "AS", "AH", "AD"],
            rest[0:12], rest[12:24], rest[24:36]]
    actions = [{"seat": 0, "type": "declare", "value": "solo_queens"}]
    actions += [{"seat": seat, "type": "declare", "value": "healthy"} for seat in (1, 2, 3)]
    state = GAME.new_round(make_rules({"preset": "ddv"}), 4, deal, [], 3)
    for action in actions:
        state, _ = GAME.apply(state, action)
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        play = next(a for a in GAME.legal_actions(state, seat) if a["type"] == "play")
        actions.append(play)
        state, _ = GAME.apply(state, play)
    return {"dealer": 3, "deal": deal, "deck": [], "actions": actions}


def doppelkopf_match() -> dict:
    rounds = [won_queens_solo(),
              *rounds_of("doppelkopf/example_wedding.json"),
              *rounds_of("doppelkopf/reply_after_no90.json"),
              *rounds_of("doppelkopf/two_foxes_one_trick.json"),
              *rounds_of("doppelkopf/silent_solo.json"),
              *rounds_of("doppelkopf/poverty_accepted.json"),
              *rounds_of("doppelkopf/own_fox_no_point.json"),
              *rounds_of("doppelkopf/poverty_declined.json")]  # a void deal, then a normal one
    return {"game": "doppelkopf", "rules": {"preset": "ddv", "poverty": True, "deals": 8},
            "players": 4, "rounds": rounds}


def kids_match() -> dict:
    rounds = [*rounds_of("doublehead_kids/wedding_named.json"),
              *rounds_of("doublehead_kids/lone_wins.json"),
              *rounds_of("doublehead_kids/lone_loses.json"),
              *rounds_of("doublehead_kids/shared_example.json")]
    return {"game": "doublehead_kids", "rules": {"preset": "basic"}, "players": 4, "rounds": rounds}


def doppio_match() -> dict:
    rounds = [*rounds_of("doppio/catch_priority_three.json"), *rounds_of("doppio/catch_priority_two.json")]
    return {"game": "doppio", "rules": {}, "players": 4, "rounds": rounds}


def main() -> None:
    for name, document in (("doppelkopf_match", doppelkopf_match()), ("kids_match", kids_match()),
                           ("doppio_match", doppio_match())):
        (HERE / f"{name}.json").write_text(json.dumps(document, indent=1) + "\n")
        print(f"wrote {name}.json: {len(document['rounds'])} rounds")


if __name__ == "__main__":
    main()
