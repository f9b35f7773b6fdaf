"""The compiled build of the hot modules (app/compiled.py): the tests of those modules pass on it
too, it is what runs when asked for and only then, and a missing or stale build is refused.

The suite runs on the Python source; ``test_the_tests_of_the_compiled_modules_pass_compiled``
compiles :data:`app.compiled.MODULES` with mypyc into a temporary directory and runs
:data:`COMPILED_TESTS` again in a subprocess on that build (so CI runs both)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

from app import compiled

ROOT = Path(__file__).resolve().parent.parent

#: the tests run again on the compiled build: those of the compiled modules and of the rooms
#: that use them, and what production runs compiled (docker-compose.yml): two processes over
#: Redis (the cluster suites, a SIGKILL and a takeover), a crash, and a browser at a table
COMPILED_TESTS = (
    "tests/test_two_processes.py",
    "tests/cluster",
    "tests/test_crash.py",
    "tests/test_browser.py::test_guest_plays_a_whole_deal_against_three_computer_players",
    "tests/test_deltas.py",
    "tests/test_frozen_states.py",
    "tests/test_rooms.py",
    "tests/test_reconnect.py",
    "tests/test_leaks.py",
    "tests/games/test_doppelkopf_view.py",
    "tests/games/test_doppelkopf_modes.py",
    "tests/test_move_clocks.py",
    "tests/test_doppio_room.py",
    "tests/test_ws_play.py",
    "tests/test_fuzz.py",
    "tests/test_intermission.py",
    "tests/test_turn_timers.py",
    "tests/test_match.py",
    "tests/test_match_end.py",
    "tests/test_clock_timers.py",
    "tests/test_fencing.py",
    "tests/test_bonus_turn.py",
    "tests/security/test_action_shapes.py",
    "tests/test_compiled.py",
)


def _module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def test_the_compiled_build_runs_when_asked_and_only_then():
    modules = [import_module(_module_name(path)) for path in compiled.MODULES]
    assert [compiled.is_compiled(module) for module in modules] == \
        [compiled.requested()] * len(modules)


@pytest.mark.skipif(compiled.requested(), reason="this run is the compiled one")
def test_the_tests_of_the_compiled_modules_pass_compiled(compiled_build):
    out = compiled_build
    env = {**os.environ, compiled.ENV_DIR: str(out), compiled.ENV_SWITCH: "1"}
    built = json.loads((out / compiled.MANIFEST).read_text())
    assert set(built["sources"]) == set(compiled.MODULES)
    assert {_module_name(path) for path in compiled.MODULES} <= set(built["extensions"])

    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                          "-p", "no:warnings", *COMPILED_TESTS], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert " passed" in run.stdout and " failed" not in run.stdout


def _fake_build(out: Path, **change) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    manifest = {"cache_tag": sys.implementation.cache_tag,
                "sources": {path: compiled.source_digest(path) for path in compiled.MODULES},
                "extensions": {}}
    manifest.update(change)
    (out / compiled.MANIFEST).write_text(json.dumps(manifest))
    return out


def test_a_build_made_from_the_current_sources_is_taken(tmp_path):
    assert compiled.load_manifest(_fake_build(tmp_path)) == {}


def test_a_missing_build_is_refused_with_what_to_do(tmp_path):
    with pytest.raises(compiled.CompiledBuildError, match="python -m app compile"):
        compiled.load_manifest(tmp_path / "nothing")


def test_a_build_of_changed_sources_is_refused(tmp_path):
    stale = {path: "0" * 64 for path in compiled.MODULES}
    with pytest.raises(compiled.CompiledBuildError, match="out of date") as refused:
        compiled.load_manifest(_fake_build(tmp_path, sources=stale))
    assert compiled.MODULES[0] in str(refused.value)


def test_a_build_of_other_modules_is_refused(tmp_path):
    fewer = {path: compiled.source_digest(path) for path in compiled.MODULES[1:]}
    with pytest.raises(compiled.CompiledBuildError, match="other modules") as refused:
        compiled.load_manifest(_fake_build(tmp_path, sources=fewer))
    assert compiled.MODULES[0] in str(refused.value)


def test_a_build_for_another_python_is_refused(tmp_path):
    with pytest.raises(compiled.CompiledBuildError, match="cpython-299"):
        compiled.load_manifest(_fake_build(tmp_path, cache_tag="cpython-299"))


def test_asking_for_a_missing_build_stops_the_commands_with_the_reason(tmp_path):
    env = {**os.environ, compiled.ENV_SWITCH: "1", compiled.ENV_DIR: str(tmp_path / "none")}
    run = subprocess.run([sys.executable, "-m", "app", "serve", "--port", "1"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.startswith("error: DOPPELRUNDE_COMPILED=1 but there is no compiled build")
    assert "python -m app compile" in run.stderr and "Traceback" not in run.stderr
    probe = "import app, app.compiled as c, app.rooms.delta as d; print(c.is_compiled(d))"
    imported = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)
    assert imported.stdout.strip() == "False"  # importing still works: compile must run
