"""The optional compiled build of the hot modules (mypyc), beside their Python source.

The Python modules are the reference: they are what runs unless an operator asks for the
compiled build, and the whole test suite runs on them. ``python -m app compile`` compiles the
modules of :data:`MODULES` with mypyc into ``build/compiled/`` (or ``DOPPELRUNDE_COMPILED_DIR``),
with a manifest of each source's SHA-256; with ``DOPPELRUNDE_COMPILED=1`` in the environment,
``import app`` puts a finder in front of the import system that loads those modules from the
build. The same source compiled behaves the same (tests/test_compiled.py runs the tests of
these modules again on the compiled build, as CI's suite does), only faster: issue 21's
server CPU per action (docs/performance.md).

The build never shadows the source by accident: it lives outside the package, it is used only
when asked for, and a build whose sources have changed since (or made for another Python) is
not imported; every command of ``python -m app`` but ``compile`` then stops with the reason
(:class:`CompiledBuildError`, :func:`check`) rather than run stale or silently uncompiled.

The switch is an environment variable, not a setting of ``app.config``: it decides which code
is imported, so it is read before anything else of the app is.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent

#: The modules compiled, as paths from the repository's root: what every action and broadcast
#: runs (the table actor's command loop and its parts: move clocks, the course of the match,
#: the catch window, the pause between deals; building and freezing each audience's state and
#: diffing it with the last, a Doppelkopf seat's view, what of an action each audience may
#: see).
MODULES: tuple[str, ...] = (
    "app/rooms/delta.py",
    "app/rooms/audiences.py",
    "app/rooms/projection.py",
    "app/rooms/connection.py",
    "app/rooms/match.py",
    "app/rooms/actor.py",
    "app/rooms/clocks.py",
    "app/rooms/course.py",
    "app/rooms/catch_window.py",
    "app/rooms/intermission.py",
    "app/clock.py",
    "app/games/doppelkopf/view.py",
)

#: ``1``: import the compiled build (refused when missing or stale); unset, empty or ``0``: the
#: Python source
ENV_SWITCH = "DOPPELRUNDE_COMPILED"
#: where the build lies (default ``build/compiled`` under the repository's root)
ENV_DIR = "DOPPELRUNDE_COMPILED_DIR"
MANIFEST = "manifest.json"


class CompiledBuildError(RuntimeError):
    """The compiled build was asked for and cannot be used (missing, stale, another Python)."""


def build_dir() -> Path:
    """Where :func:`build` writes and :func:`install` reads the build."""
    return Path(os.environ.get(ENV_DIR) or ROOT / "build" / "compiled")


def requested() -> bool:
    """Whether the environment asks for the compiled build (``DOPPELRUNDE_COMPILED=1``)."""
    return os.environ.get(ENV_SWITCH, "").strip() not in ("", "0", "false", "no")


def source_digest(path: str) -> str:
    """SHA-256 (hex) of the source file ``path`` (relative to the repository's root)."""
    return hashlib.sha256((ROOT / path).read_bytes()).hexdigest()


def build(out: Path | None = None, modules: Sequence[str] = MODULES) -> dict[str, str]:
    """Compile ``modules`` with mypyc into ``out`` (default :func:`build_dir`), with its
    manifest, replacing what was there once the new build is made (a failed build leaves the
    old one). Returns {module name: path of its extension}.

    Needs mypy (the ``test`` extra) and a C compiler; mypyc's type errors fail the build
    (raises SystemExit, as setuptools does)."""
    import shutil
    import tempfile

    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    out = (out or build_dir()).resolve()
    digests = {path: source_digest(path) for path in modules}
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mypyc-", dir=out.parent) as temp:
        new = Path(temp) / "build"
        here = Path.cwd()
        os.chdir(ROOT)  # mypyc names each module by its path from here
        try:
            # type-check what is compiled, and of what it imports only what it uses
            extensions = mypycify(["--follow-imports=silent", "--ignore-missing-imports",
                                   *modules], opt_level="3", target_dir=f"{temp}/c")
            setup(name="doppelrunde-compiled", ext_modules=extensions,
                  script_args=["--quiet", "build_ext", "--build-lib", str(new),
                               "--build-temp", f"{temp}/o"])
        finally:
            os.chdir(here)
        built = _extensions(new)
        extensions_of = {name: str(path.relative_to(new)) for name, path in built.items()}
        manifest = {"cache_tag": sys.implementation.cache_tag, "sources": digests,
                    "extensions": extensions_of}
        (new / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        shutil.rmtree(out, ignore_errors=True)  # the build is replaced only once it is made
        new.rename(out)
    return {name: str(out / rel) for name, rel in extensions_of.items()}


def _extensions(out: Path) -> dict[str, Path]:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return {".".join(path.relative_to(out).parts)[:-len(suffix)]: path
            for path in sorted(out.rglob(f"*{suffix}"))}


class _BuildFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of the build (and mypyc's shared library) before anything else."""

    def __init__(self, extensions: dict[str, Path]) -> None:
        self.extensions = extensions

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        so = self.extensions.get(fullname)
        if so is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(so))
        return importlib.util.spec_from_file_location(fullname, so, loader=loader)


def load_manifest(out: Path) -> dict[str, Path]:
    """The build's extensions {module name: path}, checked against the sources.

    Raises CompiledBuildError when there is no build, it was made for another Python or of
    other modules than :data:`MODULES`, or a compiled module's source has changed since."""
    try:
        manifest = json.loads((out / MANIFEST).read_text())
    except (OSError, ValueError) as err:
        raise CompiledBuildError(
            f"{ENV_SWITCH}=1 but there is no compiled build in {out} ({err}): "
            f"run `python -m app compile`, or unset {ENV_SWITCH} to run the Python source"
        ) from None
    if manifest.get("cache_tag") != sys.implementation.cache_tag:
        raise CompiledBuildError(
            f"the compiled build in {out} is for {manifest.get('cache_tag')}, this is "
            f"{sys.implementation.cache_tag}: run `python -m app compile` again")
    sources = manifest.get("sources", {})
    if set(sources) != set(MODULES):
        raise CompiledBuildError(
            f"the compiled build in {out} is of other modules than app/compiled.py lists "
            f"({', '.join(sorted(set(sources) ^ set(MODULES)))}): run `python -m app compile` again")
    changed = [path for path, digest in sources.items()
               if not (ROOT / path).is_file() or source_digest(path) != digest]
    if changed:
        raise CompiledBuildError(
            f"the compiled build in {out} is out of date ({', '.join(changed)} changed since): "
            "run `python -m app compile` again, or unset "
            f"{ENV_SWITCH} to run the Python source")
    return {name: out / rel for name, rel in manifest.get("extensions", {}).items()}


#: why the compiled build that the environment asks for is not in use (None: it is, or it
#: was not asked for); :func:`check` raises it
_problem: CompiledBuildError | None = None


def install() -> bool:
    """If the environment asks for it (:func:`requested`), make the compiled build the one
    imported; returns whether it did. Called by ``app/__init__.py`` before any other module
    of the app is imported. A build that cannot be used (see :func:`load_manifest`) is not
    installed and does not stop the import (``python -m app compile`` must run to make it);
    :func:`check` then raises why."""
    global _problem
    if not requested():
        return False
    if any(isinstance(finder, _BuildFinder) for finder in sys.meta_path):
        return True
    try:
        extensions = load_manifest(build_dir())
        already = [name for name in extensions if name in sys.modules]
        if already:
            raise CompiledBuildError(f"{', '.join(already)} imported before the compiled build")
    except CompiledBuildError as err:
        _problem = err
        return False
    sys.meta_path.insert(0, _BuildFinder(extensions))
    return True


def check() -> None:
    """Raises the CompiledBuildError that kept the build the environment asks for out: every
    command of ``python -m app`` but ``compile`` (serve, arena, ...) refuses to run the Python
    source when the compiled build was asked for, and says why, without a traceback."""
    if _problem is not None:
        raise _problem


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled extension (not its Python source)."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


def main() -> int:
    """``python -m app compile``: build, then print each compiled module and where it lies."""
    built = build()
    for name, path in built.items():
        print(f"{name}  {path}")
    print(f"compiled {len(MODULES)} module(s) into {build_dir()}; "
          f"run with {ENV_SWITCH}=1 to use them", flush=True)
    return 0
