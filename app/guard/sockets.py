"""How many WebSockets one address and one session may hold open in this process.

Counted before the socket does anything that costs the database (the session lookup, the
hello), so a flood of sockets from one client is refused for the price of a handshake and
never takes the connection pool from everyone else: 800 sockets from one address gave 715
"QueuePool limit reached" errors before (issue 17). A refused socket is told why
(``closed``/``too_many_connections``) and closed with 1008 (policy violation).

The limits are per process (Settings.ws_per_address, ws_per_session); behind a proxy with
several processes an address may hold that many on each. The address is the client's
(app.api.deps.client_address: the trusted proxy's X-Forwarded-For); the session is the raw
signed cookie, so counting needs no query.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class Slot:
    """One admitted socket: what to give back when it closes."""

    address: str
    session: str | None


class SocketSlots:
    """Counters of open sockets per address and per session (one event loop: no lock)."""

    def __init__(self, per_address: int, per_session: int) -> None:
        self.per_address, self.per_session = per_address, per_session
        self._addresses: Counter[str] = Counter()
        self._sessions: Counter[str] = Counter()

    def acquire(self, address: str, session: str | None) -> Slot | None:
        """A slot for a new socket, or None when the address or the session holds its
        limit already."""
        if self._addresses[address] >= self.per_address:
            return None
        if session is not None and self._sessions[session] >= self.per_session:
            return None
        self._addresses[address] += 1
        if session is not None:
            self._sessions[session] += 1
        return Slot(address, session)

    def release(self, slot: Slot) -> None:
        """The socket of ``slot`` closed."""
        self._addresses[slot.address] -= 1
        if self._addresses[slot.address] <= 0:
            del self._addresses[slot.address]
        if slot.session is not None:
            self._sessions[slot.session] -= 1
            if self._sessions[slot.session] <= 0:
                del self._sessions[slot.session]

    def open_count(self) -> int:
        """Sockets open in this process."""
        return sum(self._addresses.values())
