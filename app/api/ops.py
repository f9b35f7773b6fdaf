"""Operations endpoints: ``/healthz`` (liveness), ``/readyz`` (DB and Redis reachable),
``/metrics`` (Prometheus text format)."""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text

from app.api.deps import services_of
from app.metrics import REGISTRY, TABLES

router = APIRouter()
log = logging.getLogger(__name__)
CHECK_TIMEOUT = 2.0


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is up and its event loop answers."""
    return {"status": "ok"}


async def _check_db(services) -> None:
    async with services.engine.connect() as conn:
        await conn.execute(text("SELECT 1"))


async def _check_redis(services) -> None:
    await services.cluster.redis.ping()


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """200 when the database (and Redis, if configured) answer within 2 s; else 503."""
    services = services_of(request)
    checks = {"database": _check_db}
    if services.cluster.redis is not None:
        checks["redis"] = _check_redis
    result: dict[str, str] = {}
    for name, check in checks.items():
        try:
            await asyncio.wait_for(check(services), CHECK_TIMEOUT)
            result[name] = "ok"
        except Exception as err:  # any failure means not ready; say which
            log.warning("readyz: %s unreachable: %r", name, err)
            result[name] = "unreachable"
    ready = all(v == "ok" for v in result.values())
    return JSONResponse({"status": "ready" if ready else "not ready", **result},
                        status_code=200 if ready else 503)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    TABLES.set(services_of(request).rooms.count())
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


@router.websocket("/ws/echo")
async def echo(ws: WebSocket) -> None:
    """A raw echo on the same stack as /ws (BENCH_ECHO=1 only): the baseline of
    benchmarks/load.py."""
    if not services_of(ws).settings.bench_echo:
        await ws.close(code=1008)
        return
    await ws.accept()
    try:
        while True:
            await ws.send_text(await ws.receive_text())
    except WebSocketDisconnect:
        pass
