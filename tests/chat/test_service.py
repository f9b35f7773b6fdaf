"""ChatService: lengths, control characters, rate limits, mutes, reports, history, escaping."""

from __future__ import annotations

import math
import unicodedata

import pytest

from app.chat.service import (
    LOBBY,
    MAX_CHARS,
    ChatLine,
    ChatService,
    Refusal,
    Refused,
    Report,
    clean_text,
    render_text_for_html,
)
from app.guard.ratelimit import Policy, RateLimits


def posted(result: ChatLine | Refused) -> ChatLine:
    assert isinstance(result, ChatLine), result
    return result


# -- text -------------------------------------------------------------------------------


def test_a_line_is_stored_trimmed_with_author_room_and_time(chat, clock):
    line = posted(chat.post("table-1", "alice", "  Gut gespielt!  "))
    assert (line.room, line.author, line.text, line.at) == (
        "table-1",
        "alice",
        "Gut gespielt!",
        clock.now,
    )
    assert chat.history("table-1", "bob") == [line]
    assert chat.history(LOBBY, "bob") == []


@pytest.mark.parametrize("text", ["", "   ", "\n\t\r", "\x00\x07\x1b", "\u202e\u2066 "])
def test_empty_lines_are_refused(chat, text):
    assert chat.post(LOBBY, "alice", text) == Refused(Refusal.EMPTY)
    assert chat.history(LOBBY, "alice") == []


def test_length_limit_counts_characters_after_trimming(chat):
    assert MAX_CHARS == 200
    posted(chat.post(LOBBY, "alice", "ä" * 200))  # 400 bytes, 200 characters: fine
    posted(chat.post(LOBBY, "alice", "   " + "x" * 200 + "   "))
    assert chat.post(LOBBY, "alice", "x" * 201) == Refused(Refusal.TOO_LONG)
    assert chat.post(LOBBY, "alice", "x" * 1_000_000) == Refused(Refusal.TOO_LONG)
    assert len(chat.history(LOBBY, "bob")) == 2


def test_control_and_bidi_characters_are_removed():
    assert clean_text("a\x00b\x07c\x1b[31md") == "abc[31md"
    assert clean_text("line one\nline two\ttab") == "line one line two tab"
    assert clean_text("evil\u202egpj.exe") == "evilgpj.exe"
    assert clean_text("cafe\u0301") == "café"  # NFC
    assert clean_text("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧"  # emoji joiners stay
    assert clean_text("Kreuz ♣ Dame") == "Kreuz ♣ Dame"


def test_control_characters_do_not_count_toward_the_length(chat):
    line = posted(chat.post(LOBBY, "alice", "\x00" * 500 + "hallo"))
    assert line.text == "hallo"


# -- escaping ---------------------------------------------------------------------------


def test_script_is_stored_verbatim_and_escaped_only_when_rendered(chat):
    attack = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'
    line = posted(chat.post(LOBBY, "mallory", attack))
    assert line.text == attack  # raw in storage: no double escaping anywhere
    html = str(render_text_for_html(line.text))
    assert "<script>" not in html and "<img" not in html
    assert html == (
        "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;"
    )


def test_jinja_autoescape_renders_the_raw_line_safely(chat):
    import jinja2

    env = jinja2.Environment(autoescape=True)
    line = posted(chat.post(LOBBY, "mallory", "<b>hi</b>"))
    assert env.from_string("{{ line.text }}").render(line=line) == "&lt;b&gt;hi&lt;/b&gt;"
    # Our helper returns Markup, so putting it into a template does not escape twice.
    html = env.from_string("{{ t }}").render(t=render_text_for_html(line.text))
    assert html == "&lt;b&gt;hi&lt;/b&gt;"


# -- rate limits ------------------------------------------------------------------------


def test_chat_is_rate_limited_per_author_and_freed_after_the_window(clock, queue, wall_clock):
    chat = ChatService(RateLimits(), now_fn=clock, sink=queue)
    for i in range(5):
        posted(chat.post(LOBBY, "alice", f"line {i}"))
    refused = chat.post("table-1", "alice", "one more")  # the limit spans lobby and tables
    assert isinstance(refused, Refused) and refused.reason is Refusal.RATE_LIMITED
    assert refused.retry_after_s == pytest.approx(10.0)
    posted(chat.post(LOBBY, "bob", "bob is not limited by alice"))
    wall_clock.shift(10.01)
    posted(chat.post("table-1", "alice", "one more"))
    assert [line.text for line in chat.history(LOBBY, "carol")][-1] == "bob is not limited by alice"
    assert len(chat.history(LOBBY, "carol")) == 6


def test_refused_lines_do_not_use_up_the_rate(clock, queue, wall_clock):
    chat = ChatService(RateLimits(), now_fn=clock, sink=queue)
    for _ in range(10):
        assert chat.post(LOBBY, "alice", "").reason is Refusal.EMPTY
        assert chat.post(LOBBY, "alice", "x" * 300).reason is Refusal.TOO_LONG
    for i in range(5):
        posted(chat.post(LOBBY, "alice", f"line {i}"))


# -- mutes ------------------------------------------------------------------------------


def test_personal_mute_hides_the_author_from_the_muter_only(chat):
    before = posted(chat.post("t", "troll", "before the mute"))
    assert chat.mute("alice", "troll")
    after = posted(chat.post("t", "troll", "after the mute"))  # still accepted
    nice = posted(chat.post("t", "bob", "hello"))
    assert chat.history("t", "alice") == [nice]
    assert chat.history("t", "bob") == [before, after, nice]
    assert chat.history("t", "troll") == [before, after, nice]  # the troll is not told
    assert chat.recipients(after, ["alice", "bob", "troll"]) == ["bob", "troll"]
    assert chat.recipients(nice, ["alice", "bob", "troll"]) == ["alice", "bob", "troll"]
    assert chat.muted_by("alice") == {"troll"}
    # A personal mute holds in every room.
    lobby_line = posted(chat.post(LOBBY, "troll", "hi lobby"))
    assert not chat.visible_to(lobby_line, "alice")
    chat.unmute("alice", "troll")
    assert chat.history("t", "alice") == [before, after, nice]
    assert chat.muted_by("alice") == frozenset()


def test_muting_oneself_is_refused(chat):
    assert not chat.mute("alice", "alice")
    line = posted(chat.post(LOBBY, "alice", "me"))
    assert chat.visible_to(line, "alice")


def test_moderator_mute_refuses_posts_and_hides_history_from_everyone(chat, clock):
    old = posted(chat.post("t", "troll", "old line"))
    other = posted(chat.post("t", "bob", "hi"))
    chat.moderator_mute("troll", duration_s=600)
    refused = chat.post("t", "troll", "let me talk")
    assert refused == Refused(Refusal.MUTED, 600)
    assert chat.history("t", "bob") == [other]
    assert chat.recipients(old, ["alice", "bob"]) == []
    assert [line.text for line in chat.history("t", "troll")] == ["old line", "hi"]
    clock.advance(599)
    assert chat.post("t", "troll", "now?") == Refused(Refusal.MUTED, 1)
    clock.advance(1)
    posted(chat.post("t", "troll", "back"))
    assert old in chat.history("t", "bob")


def test_open_ended_moderator_mute_until_lifted(chat, clock):
    chat.moderator_mute("troll")
    clock.advance(10**9)
    refused = chat.post(LOBBY, "troll", "x")
    assert refused.reason is Refusal.MUTED and math.isinf(refused.retry_after_s)
    chat.moderator_unmute("troll")
    posted(chat.post(LOBBY, "troll", "x"))


# -- reports ----------------------------------------------------------------------------


def test_report_is_captured_with_context(chat, clock, queue):
    lines = [posted(chat.post("t", f"p{i % 3}", f"line {i}")) for i in range(12)]
    clock.advance(30)
    bad = lines[6]
    report = chat.report(bad.id, "alice", "insult\x00 <b>")
    assert isinstance(report, Report)
    assert queue.reports == [report]
    assert report.line == bad and report.line.text == "line 6"
    assert report.reporter == "alice" and report.reason == "insult <b>"
    assert report.at == clock.now
    assert [line.text for line in report.before] == [f"line {i}" for i in range(1, 6)]
    assert [line.text for line in report.after] == [f"line {i}" for i in range(7, 12)]


def test_report_context_at_the_edges_of_history(chat, queue):
    first = posted(chat.post("t", "a", "first"))
    posted(chat.post("t", "b", "second"))
    report = chat.report(first.id, "c")
    assert report.before == () and [line.text for line in report.after] == ["second"]
    assert report.reason == ""


def test_reports_that_are_refused(chat, queue):
    line = posted(chat.post("t", "troll", "bad"))
    assert chat.report(line.id, "troll", "me") == Refused(Refusal.OWN_LINE)
    assert chat.report(999, "alice") == Refused(Refusal.UNKNOWN_LINE)
    assert isinstance(chat.report(line.id, "alice"), Report)
    assert chat.report(line.id, "alice", "again") == Refused(Refusal.ALREADY_REPORTED)
    assert isinstance(chat.report(line.id, "bob"), Report)  # another reporter counts
    assert len(queue.reports) == 2
    long_reason = chat.report(posted(chat.post("t", "troll", "x")).id, "alice", "r" * 5000)
    assert len(long_reason.reason) == 200


def test_a_closed_room_is_forgotten(chat):
    line = posted(chat.post("table-9", "a", "gg"))
    chat.close_room("table-9")
    assert chat.history("table-9", "b") == []
    assert chat.report(line.id, "b") == Refused(Refusal.UNKNOWN_LINE)


# -- history ----------------------------------------------------------------------------


def test_history_keeps_the_last_n_lines_per_room(clock, queue):
    chat = ChatService(
        RateLimits({Policy.CHAT_LINE: "100000/second"}), now_fn=clock, sink=queue, history_size=10
    )
    for i in range(25):
        posted(chat.post("t", "alice", f"t{i}"))
        posted(chat.post(LOBBY, "bob", f"l{i}"))
    assert [line.text for line in chat.history("t", "carol")] == [f"t{i}" for i in range(15, 25)]
    assert [line.text for line in chat.history(LOBBY, "carol")] == [f"l{i}" for i in range(15, 25)]
    # Lines that fell out of history can no longer be reported (and are not kept anywhere).
    assert chat.report(1, "carol") == Refused(Refusal.UNKNOWN_LINE)
    assert len(chat._lines) == 20


def test_default_history_is_one_hundred(chat):
    for i in range(130):
        posted(chat.post(LOBBY, "alice", str(i)))
    kept = chat.history(LOBBY, "bob")
    assert len(kept) == 100 and kept[0].text == "30" and kept[-1].text == "129"


def test_every_invisible_format_character_is_removed():
    """Issue 17 (13): every format character (category Cf: bidi marks such as U+061C, zero
    widths, tag characters, invisible operators) and every other default-ignorable one
    (variation selectors, the combining grapheme joiner, Hangul fillers) is removed — found by
    Unicode property, so no code point of the class is missed. Only the joiner and the
    presentation selector inside an emoji sequence stay (they are part of its picture)."""
    import sys

    formats = [chr(cp) for cp in range(sys.maxunicode + 1)
               if unicodedata.category(chr(cp)) == "Cf"]
    assert len(formats) > 150
    for ch in formats:
        assert clean_text(f"a{ch}b") == "ab", f"U+{ord(ch):04X} kept"
    ignorable_letters_and_marks = ["\u034f", "\u115f", "\u1160", "\u3164", "\uffa0", "\u180b",
                                   "\ufe00", "\ufe0f", "\U000e0100", "\U000e01ef"]
    for ch in ignorable_letters_and_marks:
        assert clean_text(f"a{ch}b") == "ab", f"U+{ord(ch):04X} kept"
    assert clean_text("\u061cevil") == "evil"
    assert clean_text("\U000e0041\U000e0042hidden") == "hidden"  # tag characters
    assert clean_text("\u3164") == ""  # a blank made of a Hangul filler is empty
    # the joiner and the emoji presentation selector inside emoji sequences stay
    assert clean_text("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧"
    assert clean_text("❤\ufe0f\u200d🔥") == "❤\ufe0f\u200d🔥"
    assert clean_text("👍🏽") == "👍🏽"
