"""Table chat and lobby chat: post, filter per viewer, mute, report, bounded history.

Pure and clock-injected: :class:`ChatService` takes a ``now_fn`` (seconds; tests pass a fake
clock) and a rate limiter (anything with ``check(policy, key) -> Decision``, normally
:class:`app.guard.ratelimit.RateLimits`). It does no I/O and knows nothing of sockets: the
room actor calls :meth:`ChatService.post` and sends the returned line to every member for
whom :meth:`ChatService.visible_to` is true; a late joiner gets :meth:`ChatService.history`.

Rules (docs/security.md):

- **Text.** Line breaks and tabs become spaces, every other invisible character (controls,
  format characters such as bidi marks, zero widths and tag characters, and the other
  default-ignorable code points: app.guard.invisible, by Unicode property) is removed (used to
  disguise text), the text is NFC-normalised
  and trimmed. Empty after that: refused. Longer than ``max_chars`` (200) characters: refused,
  not cut (the writer decides what to drop); raw input over 8 times that is refused unread. The text is stored *raw*, never HTML-escaped:
  escaping happens once, when it is rendered (Jinja autoescape on the server,
  ``textContent`` in the browser, :func:`render_text_for_html` for server-side HTML built in
  Python). Escaping on the way in would double-escape in one of those and invite a
  "|safe" somewhere.
- **Rate.** Every accepted line counts against the author's ``CHAT_LINE`` policy (5 lines per
  10 s and 60 per 10 minutes by default), shared by lobby and tables. Refused lines (empty, too
  long, muted) do not count.
- **Personal mute** (GameTwist-style): a user mutes another user; from then on the muter no
  longer sees the muted person's lines, old (history) or new, in any room, until unmuted. The
  muted person is not told and still chats with everyone else. Muting oneself is refused.
- **Moderator mute**: nobody sees the person. Their posts are refused with reason ``MUTED``
  (openly, not a shadow mute: they know, and nothing they write is stored, so nothing can
  leak later), and their lines still in history are hidden from every viewer while the mute
  lasts. A moderator mute may have an end (``duration_s``) or not.
- **Report**: ``report(line_id, reporter, reason)`` captures the line, its room, author and
  the lines around it (``context_lines`` before and after, as they stand in the history) and
  hands the :class:`Report` to a :class:`ReportSink` (in memory by default; the DB-backed one
  is wired by the server). A line can be reported while it is in its room's history, once per
  reporter, and not by its own author.
- **History**: the last ``history_size`` (100) lines per room; older lines are gone.
"""

from __future__ import annotations

import math
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import count, islice
from typing import Protocol

from markupsafe import Markup, escape

from app.guard.invisible import strip_invisible
from app.guard.ratelimit import Decision, Policy

#: The room name of the lobby chat (tables use their table id).
LOBBY = "lobby"
#: The longest chat line, in characters after cleaning and trimming.
MAX_CHARS = 200
#: Lines kept per room for late joiners.
HISTORY_SIZE = 100
#: Lines before and after a reported line kept with the report.
CONTEXT_LINES = 5
#: The longest report reason, in characters.
MAX_REASON_CHARS = 200

_WHITESPACE_CONTROLS = frozenset("\t\n\r\v\f\x1c\x1d\x1e\x1f\x85\u2028\u2029")


class RateLimiter(Protocol):
    """What the chat needs of the rate-limit facade."""

    def check(self, policy: Policy, key: str) -> Decision: ...


class Refusal(StrEnum):
    """Why a post or a report was refused."""

    EMPTY = "empty"
    TOO_LONG = "too_long"
    RATE_LIMITED = "rate_limited"
    MUTED = "muted"
    UNKNOWN_LINE = "unknown_line"
    OWN_LINE = "own_line"
    ALREADY_REPORTED = "already_reported"


@dataclass(frozen=True, slots=True)
class Refused:
    """A refused post or report; ``retry_after_s`` is set for rate limits and timed mutes."""

    reason: Refusal
    retry_after_s: float = 0.0


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One accepted line. ``text`` is raw (cleaned, not escaped)."""

    id: int
    room: str
    author: str
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class Report:
    """A report with what a moderator needs to judge it without the room."""

    id: int
    line: ChatLine
    reporter: str
    reason: str
    at: float
    before: tuple[ChatLine, ...] = ()
    after: tuple[ChatLine, ...] = ()


class ReportSink(Protocol):
    """Where reports go (in memory here; the server wires a DB-backed sink)."""

    def submit(self, report: Report) -> None: ...


@dataclass
class InMemoryReportQueue:
    """A :class:`ReportSink` keeping reports in a list, oldest first."""

    reports: list[Report] = field(default_factory=list)

    def submit(self, report: Report) -> None:
        self.reports.append(report)


def clean_text(text: str) -> str:
    """The text as stored: NFC, whitespace controls as spaces, every other invisible character
    gone (app.guard.invisible), trimmed."""
    text = unicodedata.normalize("NFC", text)
    spaced = "".join(" " if ch in _WHITESPACE_CONTROLS else ch for ch in text)
    return strip_invisible(spaced).strip()


def render_text_for_html(text: str) -> Markup:
    """``text`` escaped for HTML, for markup built in Python (templates autoescape already).

    The browser client must put chat text and names in the page with ``textContent``,
    never ``innerHTML``.
    """
    return escape(text)


class ChatService:
    """Lobby and table chat with limits, mutes, reports and bounded history."""

    def __init__(
        self,
        limiter: RateLimiter,
        *,
        now_fn: Callable[[], float],
        sink: ReportSink | None = None,
        max_chars: int = MAX_CHARS,
        history_size: int = HISTORY_SIZE,
        context_lines: int = CONTEXT_LINES,
    ) -> None:
        self._limiter = limiter
        self._now = now_fn
        self.sink: ReportSink = sink if sink is not None else InMemoryReportQueue()
        self.max_chars = max_chars
        self.history_size = history_size
        self.context_lines = context_lines
        self._ids = count(1)
        self._report_ids = count(1)
        self._history: dict[str, deque[ChatLine]] = {}
        self._lines: dict[int, ChatLine] = {}
        self._mutes: dict[str, set[str]] = {}
        self._moderator_mutes: dict[str, float] = {}
        self._reporters: dict[int, set[str]] = {}

    # -- posting -------------------------------------------------------------------------

    def post(self, room: str, author: str, text: str) -> ChatLine | Refused:
        """Accept ``text`` from ``author`` in ``room`` as a :class:`ChatLine`, or refuse it."""
        if len(text) > self.max_chars * 8:  # bound the work on huge input
            return Refused(Refusal.TOO_LONG)
        cleaned = clean_text(text)
        if not cleaned:
            return Refused(Refusal.EMPTY)
        if len(cleaned) > self.max_chars:
            return Refused(Refusal.TOO_LONG)
        muted_for = self.moderator_muted_for(author)
        if muted_for is not None:
            return Refused(Refusal.MUTED, muted_for)
        decision = self._limiter.check(Policy.CHAT_LINE, author)
        if not decision.allowed:
            return Refused(Refusal.RATE_LIMITED, decision.retry_after_s)
        line = ChatLine(next(self._ids), room, author, cleaned, self._now())
        history = self._history.setdefault(room, deque())
        history.append(line)
        self._lines[line.id] = line
        while len(history) > self.history_size:
            self._forget(history.popleft())
        return line

    # -- who sees what -------------------------------------------------------------------

    def visible_to(self, line: ChatLine, viewer: str) -> bool:
        """Whether ``viewer`` is shown ``line`` (personal and moderator mutes applied)."""
        if line.author in self._mutes.get(viewer, ()):
            return False
        return line.author == viewer or self.moderator_muted_for(line.author) is None

    def recipients(self, line: ChatLine, members: Iterable[str]) -> list[str]:
        """The ``members`` of the room who are to receive ``line``."""
        return [member for member in members if self.visible_to(line, member)]

    def history(self, room: str, viewer: str) -> list[ChatLine]:
        """The room's kept lines, oldest first, as ``viewer`` may see them."""
        return [line for line in self._history.get(room, ()) if self.visible_to(line, viewer)]

    def close_room(self, room: str) -> None:
        """Forget a finished table's chat (its lines can no longer be reported)."""
        for line in self._history.pop(room, ()):
            self._forget(line)

    def _forget(self, line: ChatLine) -> None:
        self._lines.pop(line.id, None)
        self._reporters.pop(line.id, None)

    # -- personal mutes ------------------------------------------------------------------

    def mute(self, viewer: str, author: str) -> bool:
        """``viewer`` stops seeing ``author``; False (and nothing changes) for oneself."""
        if viewer == author:
            return False
        self._mutes.setdefault(viewer, set()).add(author)
        return True

    def unmute(self, viewer: str, author: str) -> None:
        self._mutes.get(viewer, set()).discard(author)

    def muted_by(self, viewer: str) -> frozenset[str]:
        return frozenset(self._mutes.get(viewer, ()))

    # -- moderator mutes -----------------------------------------------------------------

    def moderator_mute(self, author: str, duration_s: float | None = None) -> None:
        """Silence ``author`` for everyone, for ``duration_s`` seconds or until lifted."""
        self._moderator_mutes[author] = math.inf if duration_s is None else self._now() + duration_s

    def moderator_unmute(self, author: str) -> None:
        self._moderator_mutes.pop(author, None)

    def moderator_muted_for(self, author: str) -> float | None:
        """Seconds left of ``author``'s moderator mute (``inf`` if open-ended), or None."""
        until = self._moderator_mutes.get(author)
        if until is None:
            return None
        left = until - self._now()
        if left <= 0:
            del self._moderator_mutes[author]
            return None
        return left

    # -- reports -------------------------------------------------------------------------

    def report(self, line_id: int, reporter: str, reason: str = "") -> Report | Refused:
        """Hand a report of line ``line_id`` with its context to the sink, or refuse."""
        line = self._lines.get(line_id)
        if line is None:
            return Refused(Refusal.UNKNOWN_LINE)
        if line.author == reporter:
            return Refused(Refusal.OWN_LINE)
        if reporter in self._reporters.get(line_id, ()):
            return Refused(Refusal.ALREADY_REPORTED)
        reason = clean_text(reason[: MAX_REASON_CHARS * 8])[:MAX_REASON_CHARS]
        history = list(self._history[line.room])
        at = next(i for i, kept in enumerate(history) if kept.id == line_id)
        report = Report(
            id=next(self._report_ids),
            line=line,
            reporter=reporter,
            reason=reason,
            at=self._now(),
            before=tuple(history[max(0, at - self.context_lines) : at]),
            after=tuple(islice(history, at + 1, at + 1 + self.context_lines)),
        )
        self._reporters.setdefault(line_id, set()).add(reporter)
        self.sink.submit(report)
        return report
