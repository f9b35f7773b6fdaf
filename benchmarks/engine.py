"""Benchmark of the Doppelkopf rules core: random legal full deals on one core.

Plays random deals (about half normal games, half random solos) for a fixed time, choosing
uniformly among the legal cards of the seat to move. Prints deals per second and microseconds
per legal_actions+apply, and the rate of the best one-second slice (on a machine shared with
other jobs the least disturbed second is the steadier figure); the last line is one JSON
object: ``{"deals_per_s": x, "us_per_action": y, "best_second_deals_per_s": z}``.

    python benchmarks/engine.py --seconds 10

``--deals N`` plays exactly N deals instead (a fixed amount of work, for instruction counts
that do not depend on the machine's load: ``valgrind --tool=callgrind`` of ``--deals 0`` and
``--deals N``, difference divided by N, gives instructions per deal).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.doppelkopf import GAME  # noqa: E402
from app.games.doppelkopf.rules import STANDARD_SOLOS  # noqa: E402


def play_deal(rules, rng: random.Random) -> int:
    """Play one random deal; return the number of legal_actions+apply steps."""
    deal, deck = GAME.deal(rules, 4, rng)
    state = GAME.new_round(rules, 4, deal, deck, rng.randrange(4))
    solo = rng.choice(STANDARD_SOLOS) if rng.random() < 0.5 else None
    steps = 0
    while state.to_move is not None:
        seat = state.to_move
        legal = GAME.legal_actions(state, seat)
        if legal[0]["type"] == "declare":
            action = {"seat": seat, "type": "declare", "value": solo if solo and seat == state.first_seat else "healthy"}
        else:
            action = rng.choice(legal)
        state, _ = GAME.apply(state, action)
        steps += 1
    GAME.outcome(state)
    return steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="ddv")
    parser.add_argument("--deals", type=int, default=None,
                        help="play exactly this many deals (overrides --seconds)")
    args = parser.parse_args()
    rules = GAME.make_rules({"preset": args.preset})
    rng = random.Random(args.seed)
    deals = steps = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    best = 0.0
    slice_start, slice_deals = start, 0
    while True:
        now = time.perf_counter()
        if (now >= deadline) if args.deals is None else (deals >= args.deals):
            break
        if now - slice_start >= 1.0:
            best = max(best, slice_deals / (now - slice_start))
            slice_start, slice_deals = now, 0
        steps += play_deal(rules, rng)
        deals += 1
        slice_deals += 1
    elapsed = time.perf_counter() - start
    deals_per_s = deals / elapsed if elapsed else 0.0
    us_per_action = elapsed / steps * 1e6 if steps else 0.0
    print(f"preset {args.preset}: {deals} deals in {elapsed:.1f} s on one core", file=sys.stderr)
    print(f"deals/s: {deals_per_s:.0f}")
    print(f"us per legal_actions+apply: {us_per_action:.2f}")
    print(f"best one-second slice: {best:.0f} deals/s")
    print(json.dumps({"deals_per_s": round(deals_per_s, 1), "us_per_action": round(us_per_action, 2),
                      "best_second_deals_per_s": round(best, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
