"""docs/security.md names real tests: every referenced test function exists."""

from __future__ import annotations

import re

from tests.conftest import ROOT

DOC = ROOT / "docs" / "security.md"


def referenced_tests() -> list[tuple[str, str]]:
    found = []
    for cell in re.findall(r"`([^`]*::[^`]*)`", DOC.read_text()):
        path, _, name = cell.partition("::")
        found.append((path, name))
    # "`::name`" continues the file named last in the same cell.
    resolved, last = [], None
    for path, name in found:
        last = path or last
        resolved.append((last, name))
    return resolved


def test_every_test_named_in_the_attack_table_exists():
    refs = referenced_tests()
    assert len(refs) >= 20
    for path, name in refs:
        source = (ROOT / path).read_text()
        assert re.search(rf"^def {re.escape(name)}\(", source, re.M), f"{path}::{name}"


def test_attack_table_has_the_required_rows():
    text = DOC.read_text()
    for attack in (
        "A flood of messages",
        "Brute force on a login",
        "Script in a name or chat line",
        "Oversized message",
        "Malformed message",
    ):
        assert f"| {attack}" in text
