"""Shared fixtures: scenario replay, and the switches that make service suites mandatory.

A suite that needs PostgreSQL, Redis or Chromium skips when the service is missing on a
developer's machine, and fails instead when DOPPELRUNDE_REQUIRE_<SERVICE>=1 (set by .ci/run).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import app.accounts  # noqa: F401  (a user's name key follows its name: app/accounts/keys.py)

#: no time limits: on a loaded 2-core machine an example (or generating one) may take longer
#: than Hypothesis allows by default, and speed is measured by benchmarks/, never in tests
settings.register_profile("doppelrunde", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("doppelrunde")

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def require(service: str, available: bool, why: str) -> None:
    """Skip (or, when DOPPELRUNDE_REQUIRE_<SERVICE>=1, fail) unless ``available``."""
    if available:
        return
    if os.environ.get(f"DOPPELRUNDE_REQUIRE_{service.upper()}") == "1":
        pytest.fail(f"{service} is required here but unavailable: {why}")
    pytest.skip(f"{service} unavailable: {why}")


def redis_test_url(offset: int) -> str:
    """A Redis database for one suite: DOPPELRUNDE_TEST_REDIS_DB (default 13) plus ``offset``
    (0-2), so that checkouts testing side by side on one machine do not flush each other's."""
    base = int(os.environ.get("DOPPELRUNDE_TEST_REDIS_DB", "13"))
    return f"redis://127.0.0.1:6379/{base + offset}"


def artifacts_dir() -> Path:
    """Where tests keep screenshots and reports (DOPPELRUNDE_ARTIFACTS or ./test-artifacts)."""
    path = Path(os.environ.get("DOPPELRUNDE_ARTIFACTS", ROOT / "test-artifacts"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def replay_file():
    """Replay a scenario file under tests/scenarios/ and return the outcome document."""
    from app.scenario import load_scenario, replay

    def run(relative: str) -> dict[str, Any]:
        document = json.loads((SCENARIOS / relative).read_text())
        return replay(load_scenario(document))

    return run


@pytest.fixture(autouse=True, scope="session")
def _bots_think_in_threads():
    """In this test process computer players think in a thread pool (servers started as
    subprocesses by the browser, crash and cluster tests use the real process pool)."""
    from concurrent.futures import ThreadPoolExecutor

    from app.bots import runner

    executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")
    runner.configure(executor=executor)
    yield
    runner.configure()
    executor.shutdown(wait=False, cancel_futures=True)


@pytest.fixture
async def app(tmp_path):
    """The whole site on a temporary SQLite database, started (lifespan) and stopped."""
    from tests.platform_helpers import make_app, settings_for

    site = make_app(settings_for(tmp_path))
    async with site.router.lifespan_context(site):
        yield site


@pytest.fixture
async def client(app):
    """An httpx client of the started site (``app``), with its own cookies."""
    import httpx

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://test") as client:
        yield client


@pytest.fixture
def new_client(app):
    """Make JSON API clients (tests.platform_helpers.Api) of ``app``, each with its own cookies."""
    import httpx

    from tests.platform_helpers import Api

    def make() -> Api:
        return Api(httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test"))

    return make


CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def browser():
    """Headless Debian Chromium driven by Playwright (mandatory with DOPPELRUNDE_REQUIRE_BROWSER=1)."""
    require("browser", CHROMIUM.exists(), f"{CHROMIUM} not found")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def compiled_build(tmp_path_factory) -> Path:
    """The hot modules compiled with mypyc (``python -m app compile``, as the Dockerfile
    builds them) into a folder of this test session, once; the path of the build (pass it
    as DOPPELRUNDE_COMPILED_DIR with DOPPELRUNDE_COMPILED=1)."""
    from app import compiled

    out = tmp_path_factory.mktemp("compiled") / "build"
    # compile runs while the build it makes is asked for and not there yet
    env = {**os.environ, compiled.ENV_DIR: str(out), compiled.ENV_SWITCH: "1"}
    made = subprocess.run([sys.executable, "-m", "app", "compile"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    assert made.returncode == 0, made.stdout + made.stderr
    return out


@pytest.fixture
def site(tmp_path):
    """A live server (uvicorn in a thread) on a temporary database; yields its base URL."""
    from tests.platform_helpers import live_server, settings_for

    with live_server(settings_for(tmp_path)) as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def db_url(request, tmp_path):
    """A fresh empty database: SQLite in tmp_path, and a new PostgreSQL database on
    127.0.0.1:5432 (dropped afterwards; mandatory with DOPPELRUNDE_REQUIRE_POSTGRES=1)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/db.sqlite"
        return
    import random

    from tests.platform_helpers import create_pg_database, drop_pg_database, postgres_available

    require("postgres", postgres_available(), "nothing listens on 127.0.0.1:5432")
    name = f"doppelrunde_test_{os.getpid()}_{random.randrange(10**6)}"
    url = await create_pg_database(name)
    try:
        yield url
    finally:
        await drop_pg_database(name)


@pytest.fixture
async def sessions(db_url):
    """A session factory of a fresh database migrated to head (SQLite and PostgreSQL)."""
    import asyncio

    from app.db.engine import make_engine, make_sessionmaker, upgrade

    await asyncio.to_thread(upgrade, db_url)
    engine = make_engine(db_url)
    yield make_sessionmaker(engine)
    await engine.dispose()


AXE_DIR = Path(os.environ.get("DOPPELRUNDE_AXE_DIR", Path.home() / ".cache" / "doppelrunde-axe"))


@pytest.fixture(scope="session")
def axe_script() -> str:
    """axe-core's axe.min.js, installed with npm into AXE_DIR when absent (skipped only when
    npm is missing and DOPPELRUNDE_REQUIRE_BROWSER is unset)."""
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        require("browser", npm is not None, "npm is needed to install axe-core")
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([npm, "install", "--prefix", str(AXE_DIR), "--no-audit", "--no-fund",
                               "axe-core@4"], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and script.exists(), done.stderr[-2000:]
    return script.read_text()
