"""The compiled boundary: what mypyc checks where Python code meets a compiled module.

The hot modules (app/compiled.py MODULES) run compiled by mypyc in production. A compiled
function checks, at every call, each argument whose annotation is a *native class* (a class
of a compiled module), a builtin (int, float, str, bytes, bool, list, dict, set, a fixed-size
tuple item by item) or a union of them, and raises TypeError otherwise; so does setting an
attribute of a native class. Protocols, Callable, Any, type variables, abstract collections
and the classes of Python modules are erased (checked by nothing). The Python source checks
none of this, so an object that merely has the right members (``RemotePeer`` for a
``Connection``: issue 42) runs on the source and fails only on the compiled build.

Loaded as a pytest plugin (``pytest -p tests.boundary``) in a run on the Python source, this
module wraps every function, method and attribute of the compiled modules with those checks
before any test imports them, records every call that the compiled build would refuse, and
writes them as JSON to ``DOPPELRUNDE_BOUNDARY_REPORT`` at the end (tests/test_compiled_boundary.py
runs the suites of the rooms that way). What the other direction may bring (the value a
Python callback returns to compiled code) is checked by the compiled runs of those suites
(tests/test_compiled.py).
"""

from __future__ import annotations

import ast
import enum
import functools
import importlib
import inspect
import json
import os
import types
import typing
from pathlib import Path
from typing import Any

from app import compiled

ROOT = Path(__file__).resolve().parent.parent
REPORT_ENV = "DOPPELRUNDE_BOUNDARY_REPORT"

#: the modules mypyc compiles, by name
MODULE_NAMES = tuple(path.removesuffix(".py").replace("/", ".") for path in compiled.MODULES)


class Erased:
    """An annotation mypyc does not check at run time (protocol, Callable, Any, ...)."""


ERASED = Erased()


def is_native(cls: type) -> bool:
    """Whether mypyc compiles ``cls`` to a native class, whose type it checks: a class
    defined in a compiled module that is not a protocol, an enum, a NamedTuple or a
    TypedDict (those stay Python classes, erased like any class of a Python module)."""
    if getattr(cls, "__module__", None) not in MODULE_NAMES:
        return False
    if getattr(cls, "_is_protocol", False) or issubclass(cls, enum.Enum | tuple | dict):
        return False
    return not typing.is_typeddict(cls)


_BUILTINS: dict[type, tuple[type, ...]] = {
    int: (int,), bool: (bool,), float: (int, float), str: (str,), bytes: (bytes,),
    list: (list,), dict: (dict,), set: (set,), frozenset: (frozenset,), tuple: (tuple,),
}


def accepts(annotation: Any, value: Any) -> bool:
    """Whether a compiled function takes ``value`` for a parameter annotated ``annotation``
    (an evaluated annotation, or :data:`ERASED`), by mypyc's rules above."""
    if annotation is ERASED or annotation is Any or annotation is object:
        return True
    if annotation is None or annotation is type(None):
        return value is None
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return any(accepts(arg, value) for arg in typing.get_args(annotation))
    if origin is typing.Literal:
        return any(accepts(type(arg), value) for arg in typing.get_args(annotation))
    if origin is tuple:
        args = typing.get_args(annotation)
        if not isinstance(value, tuple):
            return False
        if not args or (len(args) == 2 and args[1] is Ellipsis):
            return True
        return len(value) == len(args) and all(map(accepts, args, value))
    if origin is not None:  # list[int], dict[str, Any], Callable[...], deque[...]
        return isinstance(value, _BUILTINS[origin]) if origin in _BUILTINS else True
    if annotation in _BUILTINS:
        return isinstance(value, _BUILTINS[annotation])
    if isinstance(annotation, type) and is_native(annotation):
        return isinstance(value, annotation)
    return True  # a TypeVar, a protocol, a Python class, an abstract collection


def _namespace(module: types.ModuleType) -> dict[str, Any]:
    """The module's globals plus what it imports under ``if TYPE_CHECKING:`` (annotations
    name those; by the time anything is checked they are all importable)."""
    namespace = dict(vars(module))
    tree = ast.parse(Path(module.__file__ or "").read_text())
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module:
                    imported = importlib.import_module(statement.module)
                    for alias in statement.names:
                        namespace[alias.asname or alias.name] = getattr(imported, alias.name)
    return namespace


def evaluate(annotation: Any, namespace: dict[str, Any]) -> Any:
    """An annotation (a string under ``from __future__ import annotations``) evaluated in
    ``namespace``; :data:`ERASED` when it names nothing checkable (e.g. a forward string)."""
    if isinstance(annotation, str):
        try:
            annotation = eval(annotation, namespace)  # noqa: S307 (our own source's annotations)
        except Exception:
            return ERASED
    return annotation


class Recorder:
    """The calls that the compiled build would refuse, each once: where, what was expected,
    what came."""

    def __init__(self) -> None:
        self.refusals: dict[tuple[str, str, str], str] = {}

    def refuse(self, where: str, expected: Any, value: Any) -> None:
        got = f"{type(value).__module__}.{type(value).__qualname__}"
        caller = _caller()
        self.refusals.setdefault((where, str(expected), got), caller)

    def as_list(self) -> list[dict[str, str]]:
        return [{"where": where, "expected": expected, "got": got, "caller": caller}
                for (where, expected, got), caller in sorted(self.refusals.items())]


def _caller() -> str:
    """The first frame outside this module and the compiled modules: who passed the value."""
    frame = inspect.currentframe()
    compiled_files = {str(ROOT / path) for path in compiled.MODULES} | {__file__}
    while frame is not None:
        name = frame.f_code.co_filename
        if name not in compiled_files and "functools" not in name:
            return f"{Path(name).relative_to(ROOT) if name.startswith(str(ROOT)) else name}:{frame.f_lineno}"
        frame = frame.f_back
    return "?"


def _checked(function: Any, where: str, namespace: dict[str, Any], recorder: Recorder) -> Any:
    """``function`` with its arguments checked at each call (the call goes on either way)."""
    signature = inspect.signature(function)
    hints = {name: evaluate(param.annotation, namespace)
             for name, param in signature.parameters.items()
             if param.annotation is not inspect.Parameter.empty
             and param.kind not in (param.VAR_POSITIONAL, param.VAR_KEYWORD)}
    if not hints:
        return function

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return function(*args, **kwargs)  # the call itself is wrong: let it say so
        for name, value in bound.arguments.items():
            expected = hints.get(name)
            if expected is not None and not accepts(expected, value):
                recorder.refuse(f"{where}({name})", expected, value)
        return function(*args, **kwargs)

    return wrapper


def _attribute_types(cls: type, namespace: dict[str, Any]) -> dict[str, Any]:
    """The declared types of a native class's attributes: class-level annotations, ``self.x:
    T`` in any method, and ``self.x = p`` in ``__init__`` for an annotated parameter ``p``."""
    found: dict[str, Any] = {name: evaluate(a, namespace)
                             for name, a in vars(cls).get("__annotations__", {}).items()}
    try:
        tree = ast.parse(inspect.getsource(cls).lstrip()
                         if cls.__module__ in MODULE_NAMES else "")
    except (OSError, TypeError, SyntaxError):
        return found
    params: dict[str, Any] = {}
    init = vars(cls).get("__init__")
    if init is not None:
        params = {name: p.annotation for name, p in inspect.signature(init).parameters.items()}
    for node in ast.walk(tree):
        target = getattr(node, "target", None)
        if isinstance(node, ast.AnnAssign) and isinstance(target, ast.Attribute) \
                and getattr(target.value, "id", None) == "self":
            found.setdefault(target.attr, evaluate(ast.unparse(node.annotation), namespace))
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) \
                and node.value.id in params and params[node.value.id] is not inspect.Parameter.empty:
            for each in node.targets:
                if isinstance(each, ast.Attribute) and getattr(each.value, "id", None) == "self":
                    found.setdefault(each.attr, evaluate(params[node.value.id], namespace))
    return found


def _check_attributes(cls: type, namespace: dict[str, Any], recorder: Recorder) -> None:
    types_of = _attribute_types(cls, namespace)
    if not types_of:
        return
    original = cls.__setattr__

    def __setattr__(self: Any, name: str, value: Any) -> None:
        expected = types_of.get(name)
        if expected is not None and not accepts(expected, value):
            recorder.refuse(f"{cls.__module__}.{cls.__qualname__}.{name} =", expected, value)
        original(self, name, value)

    cls.__setattr__ = __setattr__  # type: ignore[method-assign]


def instrument(recorder: Recorder) -> int:
    """Wrap every function and method of the compiled modules (Python source) with the
    checks; returns how many were wrapped. Call before anything imports names from them."""
    if compiled.requested():
        raise RuntimeError("the boundary is checked on the Python source, not the compiled build")
    count = 0
    for module_name in MODULE_NAMES:
        module = importlib.import_module(module_name)
        namespace = _namespace(module)
        for name, value in list(vars(module).items()):
            if inspect.isfunction(value) and value.__module__ == module_name:
                setattr(module, name, _checked(value, f"{module_name}.{name}", namespace, recorder))
                count += 1
            elif inspect.isclass(value) and value.__module__ == module_name and is_native(value):
                count += _instrument_class(value, namespace, recorder)
    return count


def _instrument_class(cls: type, namespace: dict[str, Any], recorder: Recorder) -> int:
    count = 0
    for name, member in list(vars(cls).items()):
        where = f"{cls.__module__}.{cls.__qualname__}.{name}"
        if isinstance(member, staticmethod | classmethod):
            wrapped = _checked(member.__func__, where, namespace, recorder)
            setattr(cls, name, type(member)(wrapped))
        elif inspect.isfunction(member) and name != "__setattr__":
            setattr(cls, name, _checked(member, where, namespace, recorder))
        else:
            continue
        count += 1
    _check_attributes(cls, namespace, recorder)
    return count


_recorder = Recorder()


def pytest_configure(config: Any) -> None:
    """Instrument before the tests (and conftest's fixtures) import the compiled modules."""
    instrument(_recorder)


def pytest_unconfigure(config: Any) -> None:
    report = os.environ.get(REPORT_ENV)
    if report:
        Path(report).write_text(json.dumps(_recorder.as_list(), indent=1))


__all__ = ["ERASED", "Recorder", "accepts", "instrument", "is_native"]
