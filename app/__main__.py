"""Command line: ``python -m app replay|analyse|stats|serve|compile|arena|tournament`` (also the
``doppelrunde`` script)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _replay(args: argparse.Namespace) -> int:
    from app.cli_output import emit, refuse
    from app.scenario import ScenarioError, load_file, replay, replay_until

    try:
        scenario = load_file(args.file)
        result = replay(scenario) if args.until is None else replay_until(scenario, args.until)
    except ScenarioError as err:
        return refuse(err)
    return emit(result)


def _serve(args: argparse.Namespace) -> int:
    from app.server import serve

    return serve(host=args.host, port=args.port)


def _arena(args: argparse.Namespace) -> int:
    from app.bots.arena import main as arena_main

    return arena_main(args)


def _compile(args: argparse.Namespace) -> int:
    from app.compiled import main as compile_main

    return compile_main()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="python -m app", description="Doppelrunde")
    sub = parser.add_subparsers(dest="command", required=True)

    replay = sub.add_parser("replay", help="replay a scenario file and print its outcome")
    replay.add_argument("file")
    replay.add_argument("--until", type=int, default=None, metavar="N",
                        help="apply only the first N actions (over all rounds) and print the state")
    replay.set_defaults(func=_replay)

    from app.analysis.cli import add_parser as add_analyse

    add_analyse(sub)

    from app.stats.cli import add_parser as add_stats
    from app.tournaments.cli import add_parser as add_tournament

    add_stats(sub)
    add_tournament(sub)

    serve = sub.add_parser("serve", help="serve the site (SQLite under ./data by default)")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.set_defaults(func=_serve)

    compile_ = sub.add_parser(
        "compile", help="compile the hot modules with mypyc (used with DOPPELRUNDE_COMPILED=1)")
    compile_.set_defaults(func=_compile)

    arena = sub.add_parser("arena", help="measure computer players against each other")
    arena.add_argument("--game", default="doppelkopf")
    arena.add_argument("--levels", default="expert,intermediate")
    arena.add_argument("--deals", type=int, default=2000)
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--first", type=int, default=0,
                       help="the first deal's number (default 0): a long run in parts")
    arena.add_argument("--deal-list", default=None, dest="deal_list", metavar="PATH",
                       help="play only the seed's deals numbered in this file (one per line), "
                            "e.g. those a change can move (benchmarks/kids_counting_deals.py)")
    arena.add_argument("--preset", default=None)
    arena.add_argument("--budget-ms", type=int, default=1000, dest="budget_ms",
                       help="the expert's time cap per decision (default 1000 ms)")
    arena.add_argument("--worlds", type=int, default=20,
                       help="the expert's sampled deals per decision (default 20)")
    arena.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.add_argument("--per-deal", default=None, dest="per_deal", metavar="PATH",
                       help="write each deal's result there (JSON lines) as it finishes")
    arena.add_argument("--paired-with", default=None, dest="paired_with", metavar="PATH",
                       help="compare deal by deal with an earlier run's --per-deal file")
    arena.set_defaults(func=_arena)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad input, never a traceback for it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command != "compile":  # compile makes the build that the others may not run without
        from app.compiled import CompiledBuildError, check

        try:
            check()
        except CompiledBuildError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
