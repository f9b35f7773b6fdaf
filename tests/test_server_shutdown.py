"""``python -m app serve`` (README's quick start) stopped with SIGTERM says so in its log: one
INFO line with how many tables were open, written once everything is stored, and flushed."""

from __future__ import annotations

import asyncio
import re
import signal

import httpx

from tests.platform_helpers import Api, free_port
from tests.test_crash import start_server


async def open_tables(url: str, count: int) -> None:
    """``count`` guests each start a match against three computer players."""
    for _ in range(count):
        api = Api(httpx.AsyncClient(base_url=url))
        try:
            assert (await api.post("/api/guest")).status_code == 201
            made = await api.post("/api/tables", {"game": "doppelkopf", "bots": 3, "deals": 2})
            assert made.status_code == 201, made.text
        finally:
            await api.client.aclose()


def test_sigterm_logs_one_line_with_the_open_tables_and_the_flush(tmp_path):
    port = free_port()
    server = start_server(f"sqlite+aiosqlite:///{tmp_path}/site.db", tmp_path, port)
    try:
        asyncio.run(open_tables(f"http://127.0.0.1:{port}", 2))
        server.send_signal(signal.SIGTERM)
        # uvicorn re-raises the signal it caught once it has shut down cleanly
        assert server.wait(30) in (0, -signal.SIGTERM)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
    log = (tmp_path / f"server-{port}.log").read_text()
    lines = [line for line in log.splitlines() if "shut down" in line]
    assert len(lines) == 1, log
    assert re.search(r"INFO app\.main: Doppelrunde shut down: 2 open tables stopped "
                     r"\(their players were told to reconnect\); log flushed$", lines[0]), lines
    assert lines[0] == log.splitlines()[-1]  # the last word of the log

