"""The imports of app/ run one way: games → bots → rooms → lobby → api/web (docs/architecture.md,
"Layers"), and no package has a circle of imports among its modules.

Read from the source with the stdlib ``ast`` (every import counts: at the top of a module,
inside a function, or under ``TYPE_CHECKING``), so the test needs nothing imported."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"

#: the layers of app/, lowest first: a module may import its own layer's packages and lower
#: ones, never a higher layer's (the one-module packages at the top level count as packages)
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"clock", "config", "compiled", "cli_output", "metrics", "guard", "protocol"}),
    frozenset({"games", "scenario", "i18n"}),  # the rules cores, the scenario format, words
    frozenset({"db"}),
    frozenset({"ratings", "accounts"}),
    frozenset({"bots"}),
    frozenset({"cluster"}),
    frozenset({"rooms", "chat"}),
    frozenset({"lobby"}),
    frozenset({"history", "tournaments", "analysis", "stats"}),
    frozenset({"api", "web", "services", "main", "server", "__main__", "app"}),
)
LAYER_OF = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}


def _modules() -> dict[str, Path]:
    found = {}
    for path in APP.rglob("*.py"):
        parts = path.relative_to(APP.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> set[str]:
    """The app modules ``path`` imports (``from package import module`` names the module)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names if alias.name in MODULES)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            named = [f"{node.module}.{alias.name}" for alias in node.names]
            submodules = [name for name in named if name in MODULES]
            out.update(submodules)
            if len(submodules) < len(named) and node.module in MODULES:
                out.add(node.module)
    return out


GRAPH = {module: _imports(path) - {module} for module, path in MODULES.items()}


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_every_package_has_a_layer():
    assert {_package(module) for module in MODULES} - set(LAYER_OF) == set()


def test_no_import_runs_up_a_layer():
    upward = sorted(
        f"{module} imports {imported}"
        for module, imported_set in GRAPH.items() for imported in imported_set
        if LAYER_OF[_package(imported)] > LAYER_OF[_package(module)])
    assert upward == []


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_package_has_a_circle_of_imports():
    inside: dict[str, set[str]] = defaultdict(set)
    for module, imported_set in GRAPH.items():
        inside[module] |= {other for other in imported_set if _package(other) == _package(module)}
    assert _circles(inside) == []


def test_no_circle_of_packages():
    packages: dict[str, set[str]] = defaultdict(set)
    for module, imported_set in GRAPH.items():
        packages[_package(module)] |= {_package(other) for other in imported_set} - {_package(module)}
    assert _circles(packages) == []


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
