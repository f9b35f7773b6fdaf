"""Helpers for the browser tests of the table page (not a test module).

The table shows the server's messages as a queue with pacing (static/js/table/settings.js);
the tests shorten every duration with ``localStorage["doppelrunde.pace"]`` (``PACE``, a scale
in (0, 1]): the same queue and the same steps run, only faster. A page is ready for a move when
``[data-zone=prompt]`` says ``data-my-turn="true"`` (set only once the queue has shown every
message), or a result dialog is open.
"""

from __future__ import annotations

import re
import time

#: every duration of the table's pacing, scaled (tests that watch the pacing use a larger one)
FAST = 0.05


def pace_script(scale: float = FAST) -> str:
    """An init script that sets the pacing scale before the page's modules run."""
    return f"localStorage.setItem('doppelrunde.pace', '{scale}')"


def context(browser, size: str = "desktop", locale: str | None = None, pace: float = FAST, **extra):
    """A new browser context at ``size`` ("desktop" 1366×768, "phone" 390×844 with touch)."""
    options = dict(SIZES[size])
    if locale:
        options["locale"] = locale
    options.update(extra)
    ctx = browser.new_context(**options)
    ctx.add_init_script(pace_script(pace))
    return ctx


SIZES = {
    "desktop": {"viewport": {"width": 1366, "height": 768}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}

#: a move is expected of this page, or a dialog is up, or the match is over
READY = """() => {
  const q = (s) => document.querySelector(s);
  return Boolean(q('[data-dialog=match-result][open]') || q('[data-dialog=deal-result][open]') ||
    q('[data-zone=prompt][data-my-turn=true]'));
}"""

# one move, found and clicked inside the page in one step: the result dialogs' buttons, then
# "healthy", a bid, pass, no bonus, the poverty's cards, another button, a legal card
MOVE = """(prefs) => {
  const q = (s) => document.querySelector(s);
  if (q('[data-dialog=match-result][open]')) return 'over';
  const next = q('[data-dialog=deal-result][open] #next-deal');
  if (next) { if (!prefs.stay) next.click(); return 'deal'; }
  if (!q('[data-zone=prompt][data-my-turn=true]')) return 'wait';
  const button = q('#choices button[data-type=declare][data-value=healthy]') ||
    q(`#choices button[data-bid="${prefs.bid}"]`) || q('#choices button[data-type=pass]') ||
    q('#choices button[data-type=decline_bonus]') || q('#choices button[data-type=poverty_answer]') ||
    q('#choices button[data-type=wedding_partner]') ||
    q('#choices button[data-type=discard], #choices button[data-suit]');
  if (button) { button.click(); return 'moved'; }
  const legal = window.doppelrunde.state?.view?.legal || [];
  const give = legal.find((a) => a.cards);
  if (give && q('#hand button.card.selectable')) {
    for (const card of give.cards) q(`#hand button.card.selectable[data-card='${card}']:not(.selected)`).click();
    q('#submit-cards').click();
    return 'moved';
  }
  const card = q('#hand button.card.legal');
  if (card) { card.click(); return 'moved'; }
  return 'wait';
}"""


#: JavaScript: whether two client rectangles overlap by more than a pixel (an empty one: no)
MEET_JS = ("(a, b) => a.width && b.width && a.left < b.right - 1 && b.left < a.right - 1 && "
           "a.top < b.bottom - 1 && b.top < a.bottom - 1")


def covering(cover: str, things: str, label: str) -> str:
    """A page function: the ``label`` (a JavaScript expression of ``n``) of each shown element
    matching the selector ``things`` that the element of the JavaScript expression ``cover``
    overlaps."""
    return f"""() => {{
  const cover = ({cover}).getBoundingClientRect();
  const meet = {MEET_JS};
  return [...document.querySelectorAll('{things}')]
    .filter((n) => n.getClientRects().length && meet(cover, n.getBoundingClientRect()))
    .map((n) => {label});
}}"""


def play_as_guest(page) -> None:
    """From the visitor's lobby, sign in as a new guest and wait for the signed-in lobby: the
    click returns once the POST's answer commits, which may be before that page is parsed."""
    page.click("#play-guest")
    page.wait_for_selector("#new-game")


def guest_page(browser, site: str, size: str = "desktop", locale: str | None = None):
    """(context, page) of a new guest on the lobby of ``site`` (close the context after)."""
    ctx = context(browser, size, locale=locale)
    page = ctx.new_page()
    page.goto(site + "/")
    play_as_guest(page)
    return ctx, page


def new_table(page, url: str, game: str = "doppelkopf", players: int = 4, bots: int = 3,
              deals: int = 1, numbers: dict[str, str] | None = None, guest: bool = True,
              turn_seconds: str | None = None) -> int:
    """From the lobby (as a new guest unless ``guest`` is False), start a New Game (with
    ``turn_seconds`` its Time per move); returns the table id once its first state is on the
    page."""
    page.goto(url + "/")
    if guest:
        play_as_guest(page)
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    page.select_option("#bots", str(bots))
    if turn_seconds:
        page.select_option("#turn-seconds", turn_seconds)
    if page.is_visible("#deals"):
        page.fill("#deals", str(deals))
    else:  # the game's own end (coins, rounds, penalty limit): a test server's cap
        page.eval_on_selector("#deals", "(el, n) => { el.value = n; }", str(deals))
    if numbers:
        page.click("#rule-options summary")  # the rule options are folded
    for name, value in (numbers or {}).items():
        page.fill(f"#opt-{name}", value)
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.wait_for_function("() => window.doppelrunde && window.doppelrunde.state", timeout=15000)
    return int(page.url.rsplit("/", 1)[1])


def move(page, bid: int = 1) -> str:
    """Make one move if the page asks for one: 'moved', 'deal' (Next deal), 'over', 'wait'."""
    seq = page.evaluate("window.doppelrunde.seq")
    result = page.evaluate(MOVE, {"bid": bid})
    if result == "moved":
        page.wait_for_function(
            f"() => window.doppelrunde.seq > {seq} || document.getElementById('error').textContent",
            timeout=15000)
    return result


def play_to_end(pages, limit_s: float = 180, bid: int = 1) -> None:
    """Play every page's seat (and press Next deal) until each page shows the match result."""
    deadline = time.monotonic() + limit_s
    done = [False] * len(pages)
    while not all(done):
        assert time.monotonic() < deadline, "the match did not end in time"
        waiting = True
        for i, page in enumerate(pages):
            if done[i]:
                continue
            result = move(page, bid)
            done[i] = result == "over"
            waiting = waiting and result == "wait"
        if waiting:
            time.sleep(0.03)


#: where to tap a card of the hand: its top-left corner, the part that shows when cards overlap
CORNER = {"x": 8, "y": 24}


def match_dialog_open(page) -> bool:
    return page.locator("[data-dialog=match-result][open]").count() == 1


def cut_badges(page) -> list[str]:
    """The texts of the seats' badges (Re/Kontra, Doublehead Kids' teams and silver coins, the
    counts) that do not fit their box."""
    return page.evaluate("""() => [...document.querySelectorAll('#seats .badge')]
        .filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.innerText)""")
