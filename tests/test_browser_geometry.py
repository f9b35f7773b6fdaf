"""No control clipped anywhere on the site (issue 44): every page — the lobby (a visitor's and a
signed-in person's, with open tables, friends and long names), New Game, tournaments (the list
and one tournament), a profile, the match list, leaderboards, the rules pages, puzzles, login,
register, a table waiting for players, an error page — at 360×740, 390×844 and 1366×768, in
German and English. A page fails for

- a button, link, input, select or summary cut by the viewport's edge, or by an ancestor whose
  overflow is not ``visible``: sideways always (a list fits its panel, or it is a scroll region
  of its own: ``role=region`` with ``tabindex=0``), up and down unless that ancestor scrolls;
- text cut with an ellipsis — ``text-overflow: ellipsis`` that truncates, or a word cut with
  "…" — that has no full form for screen readers (``aria-label``, ``title`` or visually hidden
  full text).
"""

from __future__ import annotations

import re

import pytest

from tests.browser_table import context
from tests.conftest import artifacts_dir
from tests.test_browser import register
from tests.test_browser_friends import api, befriend

pytestmark = pytest.mark.browser

SIZES = {"360": {"width": 360, "height": 740}, "390": {"width": 390, "height": 844},
         "1366": {"width": 1366, "height": 768}}
LOCALES = {"en": "en-US", "de": "de-DE"}
#: the longest names there are (20 characters): the lists must hold them
LONG = ("Alexandra_Schneider1", "Maximilian-Oberhube2")

#: the page's problems: clipped controls and text cut with an ellipsis without its full form
PROBLEMS = r"""(words) => {
  const out = [];
  const vw = document.documentElement.clientWidth;
  const say = (n) => {
    const words = (n.getAttribute('aria-label') || n.textContent || n.value || n.name || '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `${n.tagName.toLowerCase()}${n.id ? '#' + n.id : ''}${n.className && typeof n.className === 'string' ? '.' + n.className.trim().split(/\s+/).join('.') : ''} "${words}"`;
  };
  const shown = (n) => {
    if (!n.getClientRects().length) return false;
    if (n.closest('.visually-hidden, [aria-hidden=true], [inert], dialog:not([open]), details:not([open]) > :not(summary)')) return false;
    const r = n.getBoundingClientRect();
    const s = getComputedStyle(n);
    return r.width > 2 && r.height > 2 && s.visibility !== 'hidden' && Number(s.opacity) > 0;
  };
  const region = (a) => a.getAttribute('role') === 'region' && a.tabIndex === 0;
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  for (const n of document.querySelectorAll(controls)) {
    if (!shown(n)) continue;
    const r = n.getBoundingClientRect();
    if (r.left < -1 || r.right > vw + 1) {
      out.push(`${say(n)} outside the viewport (${Math.round(r.left)} to ${Math.round(r.right)} of ${vw})`);
      continue;
    }
    for (let a = n.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      if (getComputedStyle(a).position === 'fixed' && a === document.body) continue;
      const b = a.getBoundingClientRect();
      const left = b.left + a.clientLeft, top = b.top + a.clientTop;
      const right = left + a.clientWidth, bottom = top + a.clientHeight;
      const scrollsY = /auto|scroll/.test(s.overflowY) && a.scrollHeight > a.clientHeight + 1;
      const scrollsX = /auto|scroll/.test(s.overflowX) && a.scrollWidth > a.clientWidth + 1;
      const cutX = s.overflowX !== 'visible' && (r.left < left - 1 || r.right > right + 1);
      const cutY = s.overflowY !== 'visible' && (r.top < top - 1 || r.bottom > bottom + 1);
      if ((cutX && !(scrollsX && region(a))) || (cutY && !scrollsY)) {
        out.push(`${say(n)} cut by ${say(a).slice(0, 60)} (${Math.round(r.left)}–${Math.round(r.right)}×${Math.round(r.top)}–${Math.round(r.bottom)} in ${Math.round(left)}–${Math.round(right)}×${Math.round(top)}–${Math.round(bottom)})`);
        break;
      }
      if (cutX && scrollsX && region(a)) break;  // a scroll region of its own: it scrolls there
    }
  }
  // text cut with an ellipsis: its full form must be there for screen readers — an
  // aria-label or title on the element or the two around it, or visually hidden text beside
  // it, that holds the words cut (the whole text; or, cut with "…", the word cut short)
  const fullForm = (n, words) => {
    const has = (text) => (text || '').toLowerCase().includes(words.toLowerCase());
    for (let a = n, i = 0; a && i < 3; a = a.parentElement, i++) {
      if (has(a.getAttribute('aria-label')) || has(a.getAttribute('title'))) return true;
    }
    return [...(n.parentElement || n).querySelectorAll('.visually-hidden')].some((h) => has(h.textContent));
  };
  for (const n of document.querySelectorAll('body *')) {
    if (!shown(n)) continue;
    const s = getComputedStyle(n);
    if (s.textOverflow === 'ellipsis' && s.overflowX !== 'visible' && n.scrollWidth > n.clientWidth + 1
        && !fullForm(n, n.textContent.trim())) {
      out.push(`${say(n)} cut with an ellipsis and no full form`);
    }
  }
  // an ellipsis the words themselves end in ("Waiting for players…"): ``authored``
  const authored = new Set(words);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    // a word cut short: letters, then "…" ("Su…", "gesam…")
    const cut = /(\p{L}+)…/u.exec(t.data);
    if (!cut || !t.parentElement || !shown(t.parentElement)) continue;
    if (authored.has(cut[1]) || t.parentElement.closest('script, style, [data-ellipsis=whole]')) continue;
    if (!fullForm(t.parentElement, cut[1])) out.push(`${say(t.parentElement)} cut with "…" and no full form`);
  }
  return out;
}"""


def authored_ellipses() -> list[str]:
    """The words the catalogue's texts end in "…" after, in either language ("Waiting for
    players…", "Warten auf Mitspieler…"): an ellipsis that is part of the words, not a cut."""
    from babel.messages.pofile import read_po

    from app import i18n

    found: set[str] = set()
    for lang in i18n.LANGUAGES:
        with i18n.po_path(lang).open("rb") as po:
            for message in read_po(po):
                for text in (*([message.id] if isinstance(message.id, str) else message.id),
                             *([message.string] if isinstance(message.string, str) else message.string)):
                    found.update(re.findall(r"(\w+)…", text or ""))
    return sorted(found)


def shot(page, name: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"geometry-{name}.png"), full_page=False)


def check(page, url: str, problems: dict[str, list[str]]) -> None:
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_timeout(250)  # the modules' first drawing (lists, notices, clocks)
    found = page.evaluate(PROBLEMS, authored_ellipses())
    if found:
        problems[url] = found


def _setup(browser, site, lang: str, size: str):
    """Two registered people with the longest names, friends, each with an open table (one
    free seat: the table page waits), a private tournament; returns (contexts, viewer page,
    URLs to visit)."""
    owner_ctx = context(browser, "desktop", locale=LOCALES[lang])
    owner = owner_ctx.new_page()
    register(owner, site, LONG[0])
    ctx = context(browser, "desktop", locale=LOCALES[lang], viewport=SIZES[size],
                  is_mobile=size != "1366", has_touch=size != "1366")
    page = ctx.new_page()
    register(page, site, LONG[1])
    befriend(page, owner, LONG[0], LONG[1])
    tables = []
    for person in (owner, page):
        made = api(person, "/api/tables", {"game": "doppelkopf", "players": 4, "bots": 1,
                                           "deals": 4, "opponents": "any"})
        assert made["status"] == 201, made
        tables.append(made["body"]["id"])
    # a private tournament of the owner's, with the viewer invited
    owner.goto(site + "/tournaments")
    owner.click("#new-tournament summary")
    owner.fill("#new-tournament-form input[name=name]", "Sunday evening Doppelkopf of friends")
    owner.fill("#new-tournament-form input[name=invite]", LONG[1])
    owner.click("#create-tournament")
    owner.wait_for_url(re.compile(r".*/tournaments/\d+"))
    tournament = owner.url.split("?")[0].rsplit("/", 1)[1]
    urls = ["/", "/?challenge=" + LONG[0], "/tournaments", f"/tournaments/{tournament}",
            f"/players/{LONG[1]}", f"/players/{LONG[0]}", f"/players/{LONG[1]}/matches",
            "/leaderboards/doppelkopf", "/rules", "/puzzles",
            f"/tables/{tables[0]}", f"/tables/{tables[1]}", "/tables/999999"]
    urls += [f"/rules/{game}" for game in ("doppelkopf", "doublehead_kids", "doppelganger_tricks", "doppio")]
    return (owner_ctx, ctx), page, urls


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", ["360", "390", "1366"])
def test_no_control_is_clipped_and_no_text_cut_without_its_full_form_on_any_page(browser, site, lang, size):
    problems: dict[str, list[str]] = {}
    visitor_ctx = context(browser, "desktop", locale=LOCALES[lang], viewport=SIZES[size])
    visitor = visitor_ctx.new_page()
    for path in ("/", "/login", "/register", "/rules", "/tournaments", "/leaderboards/doppelkopf"):
        check(visitor, site + path, problems)
    visitor_ctx.close()
    contexts, page, urls = _setup(browser, site, lang, size)
    for path in urls:
        check(page, site + path, problems)
    page.goto(site + "/")
    page.locator("#open-tables").scroll_into_view_if_needed()
    shot(page, f"lobby-tables-{size}-{lang}")
    for ctx in contexts:
        ctx.close()
    assert problems == {}, "\n".join(f"{url}:\n  " + "\n  ".join(found) for url, found in problems.items())
