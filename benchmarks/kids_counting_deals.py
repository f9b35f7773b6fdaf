"""The deals of an arena seed that a Doublehead Kids bot can move: print their numbers.

In a Kids normal game the teams are the two holders of the queens of clubs. When they sit at
seats of different parity, each team holds one player of each level at both tables of a
duplicate deal, and the two levels get the same coins whatever they play: such a deal adds
exactly 0 to "expert - intermediate". Only the others count: both queens in one hand (a
wedding or a lone player) or in two hands facing each other. Playing only those doubles what a
paired run tells per CPU minute (docs/bots.md, "Near-ties in golden coins"):

    python benchmarks/kids_counting_deals.py --seed 1 --deals 2000 > /tmp/counting.txt
    python -m app arena --game doublehead_kids --seed 1 --deal-list /tmp/counting.txt \\
        --worlds 40 --budget-ms 100000 --per-deal new.jsonl --paired-with old.jsonl

The last line on stderr says how many of the deals count.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots.doppelkopf.table import QC  # noqa: E402
from app.games.registry import get_game  # noqa: E402


def counting_deals(seed: int, deals: int) -> Iterator[int]:
    """The numbers among 0 … ``deals`` - 1 of the arena's deals of ``seed`` (the same
    ``random.Random(f"{seed}:{index}:deal")`` as app/bots/arena.py) whose two queens of clubs
    lie in one hand or in the hands of two seats of the same parity."""
    game = get_game("doublehead_kids")
    rules = game.make_rules({})
    for index in range(deals):
        hands, _deck = game.deal(rules, 4, random.Random(f"{seed}:{index}:deal"))
        holders = [seat for seat, hand in enumerate(hands) for card in hand if card == QC]
        if holders[0] % 2 == holders[1] % 2:
            yield index


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=2000)
    args = parser.parse_args()
    numbers = list(counting_deals(args.seed, args.deals))
    print("\n".join(map(str, numbers)))
    print(f"{len(numbers)} of {args.deals} deals of seed {args.seed} count", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
