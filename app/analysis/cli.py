"""``python -m app analyse FILE.json --seat N``: the analysis of one seat as JSON on stdout,
progress on stderr. Bad input: exit status 2 and one line on stderr, never a traceback."""

from __future__ import annotations

import argparse
import sys

from app.analysis.report import DEFAULT_BUDGET_MS, DEFAULT_WORLDS


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register the ``analyse`` subcommand."""
    parser = sub.add_parser("analyse", help="the expert's analysis of one seat's decisions in a scenario")
    parser.add_argument("file")
    parser.add_argument("--seat", type=int, required=True, help="the seat to analyse (0-based)")
    parser.add_argument("--seed", type=int, default=1, help="the sampling's seed (default 1)")
    parser.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS, dest="budget_ms",
                        help=f"time cap per decision (default {DEFAULT_BUDGET_MS} ms)")
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS,
                        help=f"sampled deals per decision (default {DEFAULT_WORLDS}); with a "
                             "generous budget the result is reproducible by seed")
    parser.add_argument("--lang", choices=("de", "en"), default="en",
                        help="the language of the reasons (default en)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(func=run)


def _progress(done: int, total: int) -> None:
    sys.stderr.write(f"\ranalysed {done}/{total} decisions")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    """The subcommand; returns the exit status."""
    from app.analysis.estimators import estimator_for
    from app.analysis.report import analyse, with_words
    from app.cli_output import emit, refuse
    from app.scenario import ScenarioError, load_file

    if args.budget_ms <= 0 or args.worlds <= 0:
        return refuse("--budget-ms and --worlds must be positive")
    try:
        scenario = load_file(args.file)
        estimator_for(scenario.game.name)
    except ScenarioError as err:
        return refuse(err)
    except KeyError:
        return refuse(f"no analysis for game {scenario.game.name!r}")
    try:
        doc = analyse(scenario, args.seat, seed=args.seed, budget_ms=args.budget_ms,
                      worlds=args.worlds, progress=None if args.quiet else _progress)
    except ScenarioError as err:
        return refuse(err)
    return emit(with_words(doc, args.lang))
