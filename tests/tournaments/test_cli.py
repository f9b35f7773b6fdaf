"""``python -m app tournament create|list|show|cancel|schedule`` on a temporary database:
every option explained by --help, bad values refused with one line and status 2, and the
recurring config created once however often it is read."""

from __future__ import annotations

import json
import re

import pytest

from app.__main__ import build_parser, main

ROOT_CONFIG = "docs/tournaments.example.toml"


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path}/cli.db")
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("REDIS_URL", raising=False)
    return tmp_path


def test_every_option_of_every_command_has_its_help():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices["tournament"]
    commands = next(a for a in sub._actions if a.dest == "tournament_command").choices
    assert set(commands) == {"create", "list", "show", "cancel", "schedule"}
    for name, command in commands.items():
        for action in command._actions:
            if action.dest != "help":
                assert action.help and len(action.help) > 3, (name, action.dest)


def test_create_list_show_and_cancel(db, capsys):
    assert main(["tournament", "create", "--name", "Evening series", "--start", "+1h",
                 "--rounds", "3", "--deals", "8", "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert (made["name"], made["format"], made["rounds"], made["deals"]) == (
        "Evening series", "series", 3, 8)
    assert main(["tournament", "create", "--name", "Arena", "--game", "doppio", "--format",
                 "arena", "--duration", "30", "--deals", "0", "--start", "+2h",
                 "--table-size", "3", "--option", "game_end_total=50"]) == 0
    assert "doppio arena · 30 min" in capsys.readouterr().out
    assert main(["tournament", "list", "--status", "upcoming", "--json"]) == 0
    assert [t["name"] for t in json.loads(capsys.readouterr().out)] == ["Evening series", "Arena"]
    # plural forms right (it said "1 rounds of 4 deals")
    assert main(["tournament", "create", "--name", "One", "--start", "+3h", "--rounds", "1",
                 "--deals", "4"]) == 0
    assert "· 1 round of 4 deals ·" in capsys.readouterr().out
    assert main(["tournament", "list", "--status", "upcoming"]) == 0
    assert "· 3 rounds of 8 deals ·" in capsys.readouterr().out
    assert main(["tournament", "show", str(made["id"])]) == 0
    assert capsys.readouterr().out.startswith(f"#{made['id']} Evening series")
    assert main(["tournament", "cancel", str(made["id"]), "--reason", "maintenance"]) == 0
    assert main(["tournament", "cancel", str(made["id"])]) == 2
    assert capsys.readouterr().err.strip() == "error: the tournament is over"


@pytest.mark.parametrize("args,words", [
    (["--deals", "6"], "deals: a multiple of 4"),
    (["--rounds", "0"], "rounds: at least 1"),
    (["--max-players", "1000000000000000000000000000000"], "max_players: at most 1024"),
    (["--start", "2020-01-01T20:00+00:00"], "the start is in the past"),
    (["--start", "tomorrow"], "starts_at: a date and time"),
    (["--option", "nonsense"], "--option 'nonsense': write NAME=VALUE"),
])
def test_impossible_values_are_refused_in_one_line(db, capsys, args, words):
    base = ["tournament", "create", "--name", "Bad", "--start", "+1h"]
    assert main([*base, *args]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_recurring_config_creates_each_start_once(db, capsys):
    assert main(["tournament", "schedule", ROOT_CONFIG, "--create"]) == 0
    first = re.findall(r"#(\d+)", capsys.readouterr().out)
    assert main(["tournament", "schedule", ROOT_CONFIG, "--create"]) == 0
    assert re.findall(r"#(\d+)", capsys.readouterr().out) == first  # found, not made again
    assert main(["tournament", "list", "--json"]) == 0
    names = [t["name"] for t in json.loads(capsys.readouterr().out)]
    assert len(names) == len(first) and "Evening series" in names


def test_a_broken_config_is_refused_naming_the_entry(db, tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[tournament]]\nkey = "x"\ncron = "0 20 * * *"\nname = "x"\ndeals = 6\n')
    assert main(["tournament", "schedule", str(bad)]) == 2
    assert "tournament 1 (x): deals: a multiple of 4" in capsys.readouterr().err
