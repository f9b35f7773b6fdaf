"""Nothing crosses into the compiled modules by duck typing (issue 42).

The compiled build (app/compiled.py) refuses, at every call, an argument that is not an
instance of a native class it is annotated with; the Python source takes anything. So every
interface the compiled modules take from Python code (peers, connections, clocks, callbacks)
must be a protocol or a builtin, never a native class that another module imitates.
``test_the_compiled_modules_take_what_the_others_really_pass`` runs the suites of the rooms
(one process, and two processes over the in-process bus and Redis) with every function of
the compiled modules checked as mypyc checks it (tests/boundary.py), and fails on any call
that the compiled build would refuse."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import compiled
from app.rooms.cluster import RemotePeer
from app.rooms.connection import Connection, Peer
from tests.boundary import ERASED, accepts

ROOT = Path(__file__).resolve().parent.parent

#: what runs with every call into the compiled modules checked: the suites that drive the
#: table actor and its parts from the outside, as the endpoint and the cluster do
WORKLOAD = (
    "tests/cluster/test_rooms_across.py",
    "tests/test_rooms.py",
    "tests/test_ws_play.py",
    "tests/test_doppio_room.py",
    "tests/test_move_clocks.py",
    "tests/test_intermission.py",
    "tests/test_match_end.py",
    "tests/test_reconnect.py",
    "tests/test_deltas.py",
    "tests/test_bonus_turn.py",
    "tests/test_turn_timers.py",
    "tests/games/test_doppelkopf_view.py",
)


def test_the_checks_are_mypycs():
    """What mypyc does at a compiled function's call (seen on mypy 1.x): a native class and a
    fixed tuple are checked, a protocol, a Python class, Callable and list items are not."""
    remote = RemotePeer("p/1", None, lambda _item: None)
    assert not accepts(Connection, remote)  # the refusal of issue 42
    assert accepts(Peer, remote) and accepts(Peer, Connection(None))
    assert accepts(Connection | None, None) and not accepts(Connection, None)
    assert accepts(float, 3) and not accepts(int, 2.5) and accepts(int, True)
    assert not accepts(tuple[int, str], (1, 2)) and accepts(tuple[int, ...], (1, 2))
    assert accepts(list[int], ["a"]) and not accepts(list[int], ("a",))
    assert accepts(ERASED, object()) and accepts(dict[str, int] | str, "x")


@pytest.mark.skipif(compiled.requested(), reason="checked on the Python source")
def test_the_compiled_modules_take_what_the_others_really_pass(tmp_path):
    report = tmp_path / "boundary.json"
    env = {**os.environ, "DOPPELRUNDE_BOUNDARY_REPORT": str(report)}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.boundary",
                          "-p", "no:cacheprovider", *WORKLOAD], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    refused = json.loads(report.read_text())
    assert refused == [], "the compiled build would refuse these calls:\n" + "\n".join(
        f"  {r['where']}: expects {r['expected']}, got {r['got']} (from {r['caller']})"
        for r in refused)
