"""The deployment that ships, run with real parts: nginx (Debian's) with the template of
docker-compose.yml, two app processes started as the Dockerfile starts them (its ENV: the
compiled build; its CMD), PostgreSQL and Redis, and Chromium through nginx. A person
registers, starts a New Game, plays, reloads the page, and plays on after the process that
owns the table is killed with SIGKILL; that process starts again, the other one is killed,
and play goes on on the first; every action the page saw acknowledged is in the event log,
in order.

The settings come from docker-compose.yml and the Dockerfile (tests/deployment.py), never
copied here. What is mapped is only what Docker's network does: service names become
127.0.0.1 and a port of their own, each container's data volume a folder of its own, the
compose database a fresh one of the local PostgreSQL, the image's compiled build the one this
test session made (``compiled_build``)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest

from deploy import nginx
from tests import deployment
from tests.browser_table import READY, context, move
from tests.conftest import artifacts_dir, redis_test_url, require
from tests.platform_helpers import (
    create_pg_database,
    drop_pg_database,
    free_port,
    postgres_available,
)
from tests.test_browser import register

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis]

ROOT = Path(__file__).resolve().parent.parent

#: every event's action and its seat, kept across reloads (sessionStorage), and the page's seat
RECORD_ACTIONS = """
window.addEventListener('dr-message', (e) => {
  const m = e.detail;
  if (m.type === 'snapshot' && m.state) sessionStorage.setItem('dr-you', m.state.you);
  if (m.type !== 'event' || !m.action) return;
  const seen = JSON.parse(sessionStorage.getItem('dr-acked') || '[]');
  seen.push({key: m.epoch + ':' + m.seq, action: m.action});
  sessionStorage.setItem('dr-acked', JSON.stringify(seen));
});
"""


def _local(url: str, host: str, *, path: str | None = None, user: str | None = None) -> str:
    """``url`` with its host (a compose service name) as this machine has it."""
    parts = urlsplit(url)
    netloc = f"{user + '@' if user else ''}{host}"
    return urlunsplit((parts.scheme, netloc, path if path is not None else parts.path,
                       parts.query, parts.fragment))


class App:
    """One app container: the Dockerfile's CMD with the image's and the service's
    environment, in a folder of its own."""

    def __init__(self, env: dict[str, str], command: list[str], log: Path) -> None:
        self.port = int(env["PORT"])
        self.url = f"http://127.0.0.1:{self.port}"
        self._env = env
        self._argv = [sys.executable if command[0] == "python" else command[0], *command[1:]]
        self._log = log.open("w")
        self.start()

    def start(self) -> None:
        """Start the container's process (again: docker's restart policy after a crash)."""
        self.proc = subprocess.Popen(self._argv, cwd=ROOT, env=self._env, stdout=self._log,
                                     stderr=subprocess.STDOUT)

    def kill(self) -> None:
        """SIGKILL: no release, no goodbye."""
        self.proc.kill()
        self.proc.wait()

    def ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"the app on {self.port} exited"
            with suppress(httpx.HTTPError):
                if httpx.get(self.url + "/readyz", timeout=2).status_code == 200:
                    return
            time.sleep(0.2)
        raise AssertionError(f"{self.url} not ready")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # docker stop
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


@pytest.fixture
def shipped(tmp_path, compiled_build):
    """nginx in front of two app processes as docker-compose.yml and the Dockerfile run them;
    yields (nginx's URL, {service: App}, Redis key prefix, Redis URL, database URL)."""
    require("postgres", postgres_available(), "nothing listens on 127.0.0.1:5432")
    require("browser", Path(nginx.executable()).exists(),
            "nginx is not installed (Debian: nginx-light)")
    spec = deployment.read()
    assert spec.image_env.get("DOPPELRUNDE_COMPILED") == "1", "the image runs the compiled build"
    name = f"doppelrunde_deploy_{os.getpid()}_{random.randrange(10**6)}"
    database = _run(create_pg_database(name))
    redis_url = redis_test_url(1)
    prefix = f"deploy:{uuid.uuid4().hex[:8]}:"
    apps: dict[str, App] = {}
    ports = {service: free_port() for service in spec.app_services}
    proxy = None
    try:
        for service in spec.app_services:  # in order: app1 migrates, app2 waits for it
            env = {**os.environ, **spec.app_env(service)}
            compose_db = urlsplit(env["DATABASE_URL"])
            env.update({
                "DATABASE_URL": _local(env["DATABASE_URL"], "127.0.0.1:5432",
                                       path=urlsplit(database).path, user="postgres"),
                "REDIS_URL": _local(env["REDIS_URL"], "127.0.0.1:6379",
                                    path=urlsplit(redis_url).path),
                "REDIS_PREFIX": prefix,
                "SECRET_KEY": "deployment-test-secret",
                "HOST": "127.0.0.1", "PORT": str(ports[service]),
                # nginx's fixed address in the compose network is 127.0.0.1 here
                "FORWARDED_ALLOW_IPS": "127.0.0.1",
                "DATA_DIR": str(tmp_path / service),
                "DOPPELRUNDE_COMPILED_DIR": str(compiled_build),
            })
            assert compose_db.scheme == urlsplit(env["DATABASE_URL"]).scheme
            apps[service] = App(env, spec.command, tmp_path / f"{service}.log")
            apps[service].ready()
        nginx_port = free_port()
        addresses = {f"DOPPELRUNDE_{s.upper()}": f"127.0.0.1:{p}" for s, p in ports.items()}
        assert set(addresses) <= set(spec.nginx_env), (addresses, spec.nginx_env)
        conf = nginx.render_template(spec.nginx_template.read_text(),
                                          {**spec.nginx_env, **addresses,
                                           "NGINX_PORT": f"127.0.0.1:{nginx_port}"})
        url = f"http://127.0.0.1:{nginx_port}"
        proxy = nginx.start(tmp_path / "nginx", conf, ready_url=url + "/healthz")
        yield url, apps, prefix, redis_url, database
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(10)
        for app in apps.values():
            app.stop()
        for service in spec.app_services:
            log = tmp_path / f"{service}.log"
            if log.exists():
                shutil.copy(log, artifacts_dir() / f"deployment-{service}.log")
        _run(drop_pg_database(name))


def _run(coroutine):
    """Run ``coroutine`` to its end from this synchronous test, whose thread runs
    Playwright's event loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _play(page, moves: int, limit_s: float = 120) -> int:
    """Make up to ``moves`` moves of the page's seat (fewer if the deal ends); returns how
    many were made."""
    made = 0
    deadline = time.monotonic() + limit_s
    while made < moves:
        assert time.monotonic() < deadline, "the table does not move"
        result = move(page)
        if result in ("over", "deal"):
            return made
        if result == "moved":
            made += 1
        else:
            time.sleep(0.05)
    return made


async def _logged_actions(database: str, table_id: int) -> list[dict]:
    """The table's event log as stored (the match is still running: no scenario export)."""
    from app.clock import Clock
    from app.db.engine import make_engine, make_sessionmaker
    from app.rooms.store import MatchStore

    engine = make_engine(database)
    try:
        stored = await MatchStore(make_sessionmaker(engine), Clock()).load_match(table_id)
    finally:
        await engine.dispose()
    assert stored is not None
    return [action for record in stored[1] for action in record.actions]


def _is_subsequence(short: list[dict], long: list[dict]) -> bool:
    """Whether each action of ``short`` (as a page saw it: another seat's without what it may
    not see) is in ``long``, in order."""
    it = iter(long)
    return all(any(x.items() <= y.items() for y in it) for x in short)


def test_the_shipped_deployment_seats_a_player_and_survives_its_owner_dying(browser, shipped):
    import redis

    url, apps, prefix, redis_url, database = shipped
    ctx = context(browser, "desktop")
    ctx.add_init_script(RECORD_ACTIONS)
    page = ctx.new_page()
    register(page, url, f"dep{random.randrange(10**6)}")

    page.fill("#deals", "4")  # a public table: a multiple of the players; one is played here
    page.select_option("#bots", "3")
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    table_id = int(page.url.rsplit("/", 1)[1])
    page.wait_for_function(READY, timeout=30000)
    assert _play(page, 3) == 3

    page.reload()  # a new socket through nginx, the same table
    page.wait_for_function(READY, timeout=30000)
    assert _play(page, 2) == 2

    def owner() -> App:
        store = redis.Redis.from_url(redis_url, decode_responses=True)
        pid = store.get(f"{prefix}lease:{table_id}")
        store.close()
        assert pid is not None
        return next(app for app in apps.values() if f":{app.proc.pid}:" in pid)

    def acked() -> list[dict]:
        return json.loads(page.evaluate("sessionStorage.getItem('dr-acked')"))

    def kill(app: App) -> None:
        """Kill ``app`` and wait until the page has the table from its new owner (a new
        epoch: the page's clicks while it reconnects go nowhere, as a person's would)."""
        epoch = page.evaluate("window.doppelrunde.socket.epoch")
        app.kill()
        page.wait_for_function(f"() => window.doppelrunde.socket.epoch !== {json.dumps(epoch)}",
                               timeout=60000)

    victim = owner()
    acked_before = len(acked())
    kill(victim)
    page.screenshot(path=str(artifacts_dir() / "deployment-owner-killed.png"))

    # the page reconnects through nginx to the other process, which takes the table over
    # once the dead owner's lease runs out, and the deal goes on to its end
    deadline = time.monotonic() + 180
    while (result := move(page)) != "deal":
        assert time.monotonic() < deadline, "the deal did not end after the owner died"
        if result == "wait":
            time.sleep(0.05)
    page.screenshot(path=str(artifacts_dir() / "deployment-after-failover.png"))
    assert len(acked()) > acked_before  # play went on after the kill

    # the dead process comes back (a restart policy), then the other one dies: nginx sends
    # the page to the first again (a process that was down once stays in the ring), and the
    # next deal is played there
    victim.start()
    victim.ready()
    second = owner()
    assert second is not victim
    acked_before = len(acked())
    kill(second)
    assert _play(page, 3, limit_s=180) == 3
    assert owner() is victim
    page.screenshot(path=str(artifacts_dir() / "deployment-after-second-failover.png"))
    events = acked()
    assert len(events) > acked_before
    acked_actions = list({event["key"]: event["action"] for event in events}.values())

    logged = _run(_logged_actions(database, table_id))
    you = int(page.evaluate("sessionStorage.getItem('dr-you')"))
    mine = [a for a in acked_actions if a.get("seat") == you]
    assert len(mine) >= 8  # our seat's own actions, seen whole
    for seat in range(4):  # nothing the page saw accepted is missing from the log, in order
        seen = [a for a in acked_actions if a.get("seat") == seat]  # (as the page may see them)
        assert _is_subsequence(seen, [a for a in logged if a.get("seat") == seat]), seat
    ctx.close()
