"""``python -m app serve`` (README's quick start) stopped with SIGTERM says so in its log: one
INFO line with how many tables were open, written once everything is stored, and flushed."""

from __future__ import annotations

import asyncio
import re
import signal

import httpx
import psutil

from tests.platform_helpers import Api, free_port
from tests.test_crash import TableClient, start_server


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



async def play_until_the_pool_runs(url: str, server_pid: int) -> list[psutil.Process]:
    """A guest plays a match against computer players until their first decision has started
    the bots' process pool; the server's descendants then."""
    api = Api(httpx.AsyncClient(base_url=url))
    try:
        assert (await api.post("/api/guest")).status_code == 201
        made = await api.post("/api/tables", {"game": "doppelkopf", "bots": 3, "deals": 2})
        assert made.status_code == 201, made.text
        client = TableClient(made.json()["id"], api.cookie_header(), seed=1)
    finally:
        await api.client.aclose()
    stop = asyncio.Event()
    play = asyncio.create_task(client.run(url, stop))
    children: list[psutil.Process] = []
    for _ in range(300):
        children = psutil.Process(server_pid).children(recursive=True)
        if any("resource_tracker" in " ".join(child.cmdline()) for child in children) or play.done():
            break
        await asyncio.sleep(0.1)
    stop.set()
    play.cancel()
    return children


def test_sigterm_leaves_no_child_process_behind(tmp_path):
    """The bots' process pool (its workers, the forkserver, multiprocessing's resource tracker)
    ends with the server: nothing it started needs a kill -9 afterwards."""
    port = free_port()
    server = start_server(f"sqlite+aiosqlite:///{tmp_path}/site.db", tmp_path, port)
    children: list[psutil.Process] = []
    try:
        children = asyncio.run(play_until_the_pool_runs(f"http://127.0.0.1:{port}", server.pid))
        assert any("resource_tracker" in " ".join(c.cmdline()) for c in children), children
        children = psutil.Process(server.pid).children(recursive=True)  # all of them, at the end
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) in (0, -signal.SIGTERM)
        _, alive = psutil.wait_procs(children, timeout=5)
        assert alive == [], [(p.pid, p.cmdline()) for p in alive]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        for child in children:  # a failed run must not leave them to the next test
            if child.is_running():
                child.kill()
