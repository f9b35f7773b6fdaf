"""Prometheus metrics of this process (``GET /metrics``).

- ``doppelrunde_connections``: open WebSockets on this process;
- ``doppelrunde_tables``: table actors running on this process (refreshed at scrape time);
- ``doppelrunde_actions_total``: accepted game actions (``rate(...)`` gives actions/s);
- ``doppelrunde_action_seconds``: from an action reaching its table's actor to its broadcast
  being queued for every connection (rules check, durable append, views).

One registry per process (not prometheus-client's global one), so tests that build several
apps in one interpreter do not collide.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)

CONNECTIONS = Gauge("doppelrunde_connections", "Open WebSocket connections on this process",
                    registry=REGISTRY)
TABLES = Gauge("doppelrunde_tables", "Table actors running on this process", registry=REGISTRY)
ACTIONS = Counter("doppelrunde_actions", "Accepted game actions", registry=REGISTRY)
ACTION_SECONDS = Histogram(
    "doppelrunde_action_seconds", "Action received by the actor -> broadcast queued",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY)
