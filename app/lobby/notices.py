"""Live notices to one person, on every page they have open (any page of the site), on any process.

A notice is a dict with a ``type`` (docs/protocol.md "Notices"):

- ``friend_request`` ``{"from"}``: someone asks to be your friend;
- ``friend_accepted`` ``{"from"}``: your request was accepted;
- ``friend_online`` ``{"name"}``: a friend came online (their first socket anywhere; at most
  once per ``online_quiet`` seconds, so going from page to page says nothing);
- ``invite`` ``{"table", "game", "from"}``: an invitation to a table (every page shows it as
  a card with Join and Decline, from GET /api/invitations, until answered or the table starts);
- ``invite_answer`` ``{"table", "from", "answer"}``: to a table's owner, ``accepted`` (the
  invited joined) or ``declined``;
- ``invite_over`` ``{"table"}``: to those still invited when the table starts or closes;
- ``play_now`` ``{"table"}``: your Play now table formed (app/lobby/playnow.py).

:meth:`Notices.send` hands a notice to the process's hub (app/lobby/hub.py ``notify``: every
socket of that user here), or with REDIS_URL publishes it on the lobby bus channel so that the
process holding the user's sockets delivers it (Services._follow).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from app.lobby.friends import Friends
from app.lobby.hub import LobbyHub

log = logging.getLogger(__name__)


class Notices:
    """Sends live notices. ``publish``: the cross-process path (None: this process only)."""

    def __init__(self, hub: LobbyHub, friends: Friends,
                 publish: Callable[[int, dict[str, Any]], Awaitable[Any]] | None = None, *,
                 online_quiet: float = 600.0,
                 now_fn: Callable[[], float] = time.monotonic) -> None:
        self._hub, self._friends, self._publish = hub, friends, publish
        self._online_quiet, self._now = online_quiet, now_fn
        self._announced: dict[int, float] = {}  # user → when their friends were last told

    async def send(self, user_id: int, notice: dict[str, Any]) -> None:
        """Deliver ``notice`` to every open page of ``user_id`` (never raises: a notice lost
        is logged, and what caused it stands)."""
        try:
            if self._publish is not None:
                await self._publish(user_id, notice)
            else:
                await self._hub.notify(user_id, notice)
        except Exception:
            log.warning("a live notice could not be sent", exc_info=True)

    async def came_online(self, user_id: int, name: str) -> None:
        """Tell ``user_id``'s friends that they came online (not again within
        ``online_quiet`` seconds: a page change closes one socket and opens the next)."""
        now = self._now()
        last = self._announced.get(user_id)
        if last is not None and now - last < self._online_quiet:
            return
        self._announced[user_id] = now
        if len(self._announced) > 10_000:  # forget the oldest half
            for old in sorted(self._announced, key=self._announced.get)[:5_000]:
                del self._announced[old]
        for friend in await self._friends.friend_ids(user_id):
            await self.send(friend, {"type": "friend_online", "name": name})
