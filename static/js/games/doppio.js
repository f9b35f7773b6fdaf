// Doppio on the table component (static/js/table/view.js), from the seat's own view
// (app/games/doppio/view.py): the six cards of the hand around the divider (L3 L2 L1 | R1 R2 R3)
// with their pairs coloured and matched pairs marked, the hand value (its owner only), the deck
// and the dead pile in the middle, the discarded card in front of its player while the catch
// window is open (a countdown, Catch and Pass), caught cards face up on their holders' plates,
// the Doppio button (pressable at a hand value of 10 or less), and the round's penalties with
// every hand revealed. Doppio has no tricks: no "Last trick".
import {ngettext, t} from "../i18n.js";
import {statusLine} from "../words.js";
import {cardBack} from "../cards.js";
import {seconds} from "../table/seats.js";
import {el, legalOf, svgEl, waitingFor} from "./common.js";

const ANSWERS = {catch: t("catch"), pass: t("pass")};
const POSITIONS = ["L3", "L2", "L1", "R1", "R2", "R3"];
const PAIRS = [["L1", "R1"], ["L2", "R2"], ["L3", "R3"]];

/** A Doppio card in words: "7", or "bonus card" for B. */
export function cardWord(code) { return code === "B" ? t("bonus card") : String(code); }

/** A Doppio card (3..13 or B, the bonus card worth -2) as SVG. */
export function doppioCard(code) {
  const bonus = code === "B";
  const n = bonus ? 0 : Number(code);
  const tone = bonus ? "bonus" : n <= 5 ? "low" : n <= 9 ? "mid" : "high";
  const svg = svgEl("svg", {viewBox: "0 0 60 90", class: `card-svg doppio ${tone}`, role: "img",
    "aria-label": bonus ? t("bonus card (-2)") : t("card %(number)s", {number: code})});
  svg.append(svgEl("rect", {x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 5, class: "card-face"}));
  svg.append(svgEl("rect", {x: 7, y: 21, width: 46, height: 48, rx: 10, class: "band"}));
  for (const turn of [null, "rotate(180 30 45)"]) {
    svg.append(svgEl("text", {x: 8, y: 15, class: "corner", "text-anchor": "middle",
      ...(turn ? {transform: turn} : {})}, bonus ? "★" : String(code)));
  }
  svg.append(svgEl("text", {x: 30, y: 54, class: "number", "text-anchor": "middle"}, bonus ? "★" : String(code)));
  if (bonus) svg.append(svgEl("text", {x: 30, y: 66, class: "minus", "text-anchor": "middle"}, "−2"));
  return svg;
}

function cardValue(code) { return code === "B" ? -2 : Number(code); }

/** A pair's score: 0 for two equal cards (or two bonus cards), else the sum of its values. */
export function pairValue(a, b) { return a === b ? 0 : cardValue(a) + cardValue(b); }

function pairOf(position) {
  return PAIRS.findIndex((pair) => pair.includes(position)) + 1;
}

// the open catch window's countdown: {key, endsAt (performance.now() ms), total s}
let countdown = null;
let ticker = null;

function windowKey(view) {
  const w = view.catch_window;
  return w ? `${view.round}:${w.discarder}:${w.card}:${view.deck_size}:${(view.dead || []).length}` : null;
}

function secondsLeft() { return countdown ? Math.max(0, (countdown.endsAt - performance.now()) / 1000) : 0; }

function tick() {
  const left = secondsLeft();
  const text = t("%(seconds)s s", {seconds: seconds(left, 1)});
  for (const node of document.querySelectorAll("[data-countdown]")) node.textContent = text;
  const bar = document.getElementById("catch-bar");
  if (bar && countdown) bar.style.width = `${Math.min(100, (100 * left) / countdown.total)}%`;
  if (left <= 0) {
    for (const b of document.querySelectorAll("#choices button[data-type=catch], #choices button[data-type=pass]")) {
      b.setAttribute("aria-disabled", "true");
    }
    clearInterval(ticker);
    ticker = null;
  }
}

/** Start (or keep) the countdown of the open window; ``at``: when its message arrived. */
function syncCountdown(view, at) {
  const key = windowKey(view);
  if (!key) { countdown = null; if (ticker) clearInterval(ticker); ticker = null; return; }
  const w = view.catch_window;
  if (!countdown || countdown.key !== key) {
    const total = w.seconds || 3;
    countdown = {key, total, endsAt: (at || performance.now()) + 1000 * (w.remaining ?? total)};
  }
  if (!ticker) ticker = setInterval(tick, 100);
}

function closedText(ctx, closed) {
  const {seatName} = ctx;
  if (closed.caught_by == null) return t("Nobody caught the %(card)s: it is dead.", {card: cardWord(closed.card)});
  return closed.catchers.length > 1
    ? t("%(player)s caught the %(card)s: the farthest clockwise of %(players)s.", {player: seatName(closed.caught_by),
      card: cardWord(closed.card), players: closed.catchers.map(seatName).join(", ")})
    : t("%(player)s caught the %(card)s.", {player: seatName(closed.caught_by), card: cardWord(closed.card)});
}

/** A card drawn small with its data-card, e.g. in the penalties or on a plate. */
export function smallCard(code, cls = "") {
  const span = el("span", {class: `mini-card ${cls}`.trim(), "data-card": String(code)});
  span.append(doppioCard(String(code)));
  return span;
}

export const doppio = {
  game: "doppio",
  hasLastTrick: false,
  roundWord: "round",
  /** the corner index in card units, for the replay's face-up hands */
  cornerBox: [17, 20],
  face: doppioCard,
  cardName: (code) => (code === "B" ? t("bonus card (-2)") : t("card %(number)s", {number: code})),

  turn(view) { return view.over || view.catch_window ? null : view.turn; },
  myTurn(ctx) { return !ctx.state.view.over && legalOf(ctx.state.view).length > 0; },

  /** A hand stays in its places: L3 L2 L1 R1 R2 R3. */
  sortCards(cards) { return cards; },

  /** The discarded card while its catch window is open, in front of its player. */
  trick(view) {
    const w = view.catch_window;
    return w ? [{seat: w.discarder, card: String(w.card)}] : [];
  },
  completedTrick() { return null; },
  lastTrick() { return null; },

  info(ctx) {
    const view = ctx.state.view;
    return statusLine(ctx.state, [ngettext("Deck: %(num)s card", "Deck: %(num)s cards", view.deck_size), t("Lowest total wins")]);
  },

  seatBadges(ctx, seat) {
    const {state} = ctx;
    const view = state.view;
    const badges = [{text: ngettext("%(num)s penalty point", "%(num)s penalty points", state.scores.totals[seat] ?? 0), cls: "count",
      data: {total: state.scores.totals[seat] ?? 0}}];
    const w = view.catch_window;
    if (w) {
      if (w.discarder === seat) badges.push({text: t("discarded"), cls: "declared"});
      else if (w.answered.includes(seat)) badges.push({text: t("answered"), cls: "declared"});
      else if (w.eligible.includes(seat)) badges.push({text: t("may catch"), cls: "announced"});
    }
    return badges;
  },

  /** A caught card, face up on its holder's plate. */
  seatExtra(ctx, seat) {
    const view = ctx.state.view;
    const held = view && view.held ? view.held[seat] : null;
    if (held == null) return null;
    const fig = el("figure", {class: "held", "data-card": String(held)});
    fig.append(doppioCard(String(held)), el("figcaption", {}, t("caught")));
    return fig;
  },

  handItems(ctx) {
    const view = ctx.state.view;
    if (!view.hand) return [];
    const discards = new Set(legalOf(view).filter((a) => a.type === "discard").map((a) => a.position));
    const at = Object.fromEntries(POSITIONS.map((p, i) => [p, String(view.hand[i])]));
    return POSITIONS.map((position) => {
      const pair = pairOf(position);
      const [l, r] = PAIRS[pair - 1];
      const classes = [`pair-${pair}`];
      if (at[l] === at[r]) classes.push("matched");
      return {code: at[position], position, playable: discards.has(position),
        action: {type: "discard", position}, classes,
        label: position, title: t("%(position)s · pair %(number)s", {position, number: pair})};
    });
  },

  /** The hand in two halves around the divider: L3 L2 L1 | R1 R2 R3. */
  handGroups(_ctx, items) { return items.length === 6 ? [items.slice(0, 3), items.slice(3)] : [items]; },

  whyNot(ctx) {
    const {state, seatName} = ctx;
    const view = state.view;
    if (view.over) return t("The round is over.");
    if (view.catch_window) return t("The catch window is open: catch the card or pass first.");
    if (view.turn !== state.you) return t("Not your turn: %(player)s plays now.", {player: seatName(view.turn)});
    return t("That card cannot be discarded now.");
  },

  waitingText(ctx) {
    const view = ctx.state.view;
    if (view.catch_window) return t("Catch window open for the %(card)s…", {card: cardWord(view.catch_window.card)});
    return waitingFor(ctx, view.turn);
  },

  prompt(ctx) {
    const {state} = ctx;
    const view = state.view;
    if (view.over) return t("The round is over.");
    const w = view.catch_window;
    if (w) {
      if (legalOf(view).some((a) => a.type === "catch")) {
        return t("Catch the %(card)s? Answer before the countdown ends.", {card: cardWord(w.card)});
      }
      if (w.my_answer) return t("You answered: %(answer)s", {answer: ANSWERS[w.my_answer] || w.my_answer});
      return this.waitingText(ctx);
    }
    if (view.turn === state.you) return t("Your turn: discard a card (or declare Doppio at 10 or less).");
    return this.waitingText(ctx);
  },

  actions(ctx) {
    const {state} = ctx;
    const view = state.view;
    const legal = legalOf(view);
    const w = view.catch_window;
    const specs = [];
    if (legal.some((a) => a.type === "catch")) {
      specs.push({id: "catch-button", action: {type: "catch"}, key: "1", kind: "primary catch",
        label: t("Catch the %(card)s", {card: cardWord(w.card)}), countdown: true});
      specs.push({id: "pass-button", action: {type: "pass"}, key: "2", kind: "secondary", label: t("Pass")});
    }
    if (view.turn === state.you && !w && view.hand) {
      const allowed = legal.some((a) => a.type === "doppio");
      specs.push({id: "doppio-button", action: {type: "doppio"}, key: "1", label: t("Doppio!"),
        disabled: !allowed, kind: "doppio",
        why: t("Doppio needs a hand value of 10 or less (yours: %(value)s)", {value: view.hand_value}),
        title: allowed ? t("declare Doppio: your hand value is 10 or less")
          : t("Doppio needs a hand value of 10 or less (yours: %(value)s)", {value: view.hand_value})});
    }
    return specs;
  },

  /** The deck, the dead pile, the catch window's countdown and the hand's pairs. */
  centre(ctx, box, opts) {
    const {state} = ctx;
    const view = state.view;
    if (!ctx.replay) syncCountdown(view, ctx.at);
    const piles = el("div", {class: "doppio-piles"});
    const deck = el("figure", {class: "pile deck", id: "deck-pile"});
    deck.append(cardBack(), el("figcaption", {}, t("deck: %(count)s", {count: view.deck_size})));
    const dead = view.dead || [];
    const deadPile = el("figure", {class: "pile dead", id: "dead-pile"});
    if (dead.length) {
      const top = el("span", {"data-card": String(dead[dead.length - 1])});
      top.append(doppioCard(String(dead[dead.length - 1])));
      deadPile.append(top);
    } else {
      deadPile.append(el("span", {class: "empty-pile"}));
    }
    deadPile.append(el("figcaption", {}, dead.length ? t("dead: %(count)s", {count: dead.length}) : t("no dead cards")));
    piles.append(deck, deadPile);
    box.append(piles);
    const w = view.catch_window;
    if (w && ctx.replay) {
      box.append(el("p", {class: "centre-note"}, t("Catch window open for the %(card)s…", {card: cardWord(w.card)})));
    } else if (w) {
      const clock = el("div", {class: "countdown-box", id: "catch-clock"});
      clock.append(el("span", {}, t("Catch window:")),
        el("strong", {id: "countdown", "data-countdown": ""}, t("%(seconds)s s", {seconds: seconds(secondsLeft(), 1)})));
      const track = el("div", {class: "catch-track"});
      track.append(el("div", {id: "catch-bar", class: "catch-bar"}));
      clock.append(track);
      box.append(clock);
    }
    const closed = (ctx.events || []).find((e) => e.type === "catch_window_closed");
    if (closed && !w) box.append(el("p", {class: "centre-note", id: "catch-result"}, closedText(ctx, closed)));
    if (view.hand && !opts.replayHands) box.append(this.pairs(view));
  },

  /** The hand value and its pairs (only the owner sees them). */
  pairs(view) {
    const at = Object.fromEntries(POSITIONS.map((p, i) => [p, String(view.hand[i])]));
    const wrap = el("div", {class: "pairs-box"});
    wrap.append(el("p", {class: "hand-value", id: "hand-value"}, t("Your hand value: %(value)s", {value: view.hand_value})));
    const list = el("ul", {class: "pairs", id: "pairs"});
    PAIRS.forEach(([l, r], i) => {
      const value = pairValue(at[l], at[r]);
      list.append(el("li", {class: `pair-${i + 1}` + (value === 0 ? " matched" : ""), "data-pair": String(i + 1)},
        t("Pair %(number)s (%(left)s+%(right)s): %(a)s and %(b)s → %(value)s", {number: i + 1, left: l, right: r,
          a: at[l], b: at[r], value}) + (value === 0 ? " " + t("matched") : "")));
    });
    wrap.append(list);
    const held = view.held ? view.held[view.seat] : null;
    if (held != null) {
      wrap.append(el("p", {class: "held-note", id: "held-note"},
        t("You hold the caught %(card)s: it fills the outer place of the side you discard from next.",
          {card: cardWord(held)})));
    }
    return wrap;
  },

  /** The round's end and penalties: revealed hands, hand values, Doppio, penalties. */
  dealSummary(ctx, details, round) {
    const {seatName} = ctx;
    const box = el("div", {class: "deal-summary"});
    if (!details || !details.hands) return box;
    const call = details.doppio;
    box.append(el("p", {class: "summary-game", id: "round-end"}, !call ? t("The deck ran out: everyone scores their hand value.")
      : call.success ? t("%(player)s declared Doppio: success (lowest hand, scores 0).", {player: seatName(call.seat)})
        : t("%(player)s declared Doppio: failed (another hand was as low: 20 + hand value).", {player: seatName(call.seat)})));
    const table = el("table", {class: "penalties", id: "penalties"});
    const head = table.createTHead().insertRow();
    for (const text of [t("Player"), t("Hand"), t("Hand value"), t("Penalty")]) head.append(el("th", {scope: "col"}, text));
    const body = table.createTBody();
    details.hands.forEach((hand, seat) => {
      const row = body.insertRow();
      row.dataset.seat = String(seat);
      row.insertCell().textContent = seatName(seat);
      const cards = el("div", {class: "revealed"});
      hand.forEach((card, i) => {
        if (i === 3) cards.append(el("span", {class: "divider-mark", "aria-hidden": "true"}, "|"));
        cards.append(smallCard(card));
      });
      row.insertCell().append(cards);
      row.insertCell().textContent = String(details.hand_values[seat]);
      row.insertCell().textContent = String(round.scores[seat]);
    });
    box.append(table);
    return box;
  },
};

export default doppio;
