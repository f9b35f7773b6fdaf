"""Fixtures of the tournament tests: the whole site on a manual clock."""

from __future__ import annotations

import httpx
import pytest

from app.clock import ManualClock
from tests.platform_helpers import Api, make_app, settings_for


@pytest.fixture
async def app(tmp_path):
    """The site (started) with a ManualClock: a tournament starts when the test moves the
    clock; computer players think 0 s and an absent person's seat is taken over at once."""
    site = make_app(settings_for(tmp_path, away_grace=0.0, tournament_director=True),
                    clock=ManualClock())
    async with site.router.lifespan_context(site):
        site.state.services.director._task.cancel()  # noqa: SLF001 - the tests tick it
        yield site


@pytest.fixture
def new_client(app):
    def make() -> Api:
        return Api(httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test"))

    return make
