"""Cluster coordination: what several server processes share when REDIS_URL is set.

Four services, each with an in-process implementation (one process, no Redis) and a Redis
implementation (redis-py's asyncio client), behind the same interface:

- :mod:`app.cluster.leases` — which process owns (runs) a table: renewable leases;
- :mod:`app.cluster.bus` — room commands to the owner and room events to every process with
  connections at the table, as JSON, in order per table;
- :mod:`app.cluster.locks` — a named cross-process lock with a TTL;
- :mod:`app.cluster.claims` — atomic claims (a seat, an idempotency key) taken before the
  database write, so concurrent requests in different processes do not race.

:func:`app.cluster.factory.make_cluster` builds the bundle. docs/scaling.md has the design.
"""

from app.cluster.bus import Gap, RoomBus, Subscription, SubscriptionClosed
from app.cluster.claims import Claims
from app.cluster.factory import Cluster, make_cluster
from app.cluster.leases import LeaseManager, LeaseRenewer
from app.cluster.locks import LockLost, LockNotAcquired, Locks

__all__ = [
    "Claims", "Cluster", "Gap", "LeaseManager", "LeaseRenewer", "LockLost", "LockNotAcquired",
    "Locks", "RoomBus", "Subscription", "SubscriptionClosed",
    "make_cluster",
]
