// Doppelganger Tricks' table: secret bids (entry, then every bid beside its player with tricks
// won so far), the navy lead's suit choice, the last trick with annihilated cards visibly
// removed and a note, the two bonus cards on the table (one click to take when allowed), and
// the round's scoring explained line by line. Everything from the seat's own view.
import {cardSVG} from "../cards.js";
import {el} from "./common.js";
import {t} from "../i18n.js";

const SUIT_NAMES = {P: t("pink"), G: t("green"), Y: t("yellow"), N: t("navy")};
const SUIT_CLASSES = {P: "pink", G: "green", Y: "yellow", N: "navy"};
const BONUS = {star: {symbol: "★", name: t("star"), text: t("Star: +1 point whatever the bid")},
  eye: {symbol: "◉", name: t("eye"), text: t("Eye: +3 points if the bid is exact")}};

let pendingNavy = null;  // a navy card clicked to lead: waiting for its suit
let lastEvents = [];

export function onMessage(msg) {
  lastEvents = msg.type === "event" ? msg.events || [] : [];
}

function cardText(code) { return t("%(colour)s %(number)s", {colour: SUIT_NAMES[code[0]], number: code.slice(1)}); }

function bonusOf(view, seat) {
  return Object.entries(view.bonus || {}).filter(([, holder]) => holder === seat).map(([name]) => name);
}

function seatPanel(ctx, seat) {
  const {state} = ctx;
  const view = state.view;
  const info = state.table.seats.find((s) => s.seat === seat);
  const div = el("div", {class: "seat", "data-seat": seat});
  if (seat === state.you) div.classList.add("you");
  if (view && view.phase === "playing" && (view.to_act || [])[0] === seat) div.classList.add("to-move");
  div.appendChild(el("strong", {}, info ? ctx.seatName(seat) : t("(free)")));
  const notes = [];
  if (info && info.bot) notes.push(t("computer"));
  if (info && !info.connected) notes.push(t("away"));
  if (view && view.first_seat === seat) notes.push(t("leads first"));
  notes.push(t("total %(points)s", {points: state.scores.totals[seat] ?? 0}));
  div.appendChild(el("small", {}, notes.join(" · ")));
  if (view) {
    const bid = el("span", {class: "bid", "data-seat": seat});
    if (view.bids) {
      bid.textContent = t("bid %(bid)s · won %(won)s", {bid: view.bids[seat], won: view.tricks_won[seat]});
      bid.dataset.bid = view.bids[seat];
      if (view.bids[seat] === view.tricks_won[seat]) bid.classList.add("on-target");
    } else {
      bid.textContent = view.has_bid[seat] ? t("has bid (secret)") : t("bidding…");
    }
    div.appendChild(bid);
    for (const name of bonusOf(view, seat)) {
      div.appendChild(el("span", {class: `bonus-held ${name}`, "data-bonus": name},
        `${BONUS[name].symbol} ${BONUS[name].name}`));
    }
  }
  return div;
}

function playFigure(ctx, play, extra = "") {
  const fig = el("figure", {class: `played ${extra}`.trim(), "data-card": play.card});
  fig.appendChild(cardSVG(play.card));
  const label = play.suit ? t("%(player)s (leads %(suit)s)", {player: ctx.seatName(play.seat), suit: SUIT_NAMES[play.suit]})
    : ctx.seatName(play.seat);
  fig.appendChild(el("figcaption", {}, label));
  return fig;
}

function renderCenter(ctx) {
  const {state, seatName, send} = ctx;
  const view = state.view;
  const info = [t("Round %(number)s of %(rounds)s", {number: state.scores.played + (view.phase === "over" ? 0 : 1),
    rounds: state.scores.deals}), t("Trick %(number)s", {number: view.tricks_played + (view.phase === "playing" ? 1 : 0)})];
  if (view.lead_suit) {
    info.push(t("Lead suit: %(suit)s (navy counts as %(suit)s)", {suit: SUIT_NAMES[view.lead_suit]}));
  }
  if (view.void_tricks) {
    info.push(view.void_tricks > 1 ? t("%(count)s void tricks", {count: view.void_tricks}) : t("1 void trick"));
  }
  ctx.$("info").textContent = info.join(" · ");
  const trick = ctx.$("trick");
  trick.replaceChildren(...(view.trick || []).map((p) => playFigure(ctx, p)));
  // the bonus cards lie on the table until taken
  const pile = el("div", {class: "bonus-pile", id: "bonus-pile"});
  const legal = view.legal || [];
  for (const name of ["star", "eye"]) {
    const holder = view.bonus ? view.bonus[name] : null;
    const take = legal.find((a) => a.type === "take_bonus" && a.value === name);
    const node = el("button", {type: "button", class: `bonus-card ${name}`, "data-bonus": name,
      "data-type": take ? "take_bonus" : "", "data-value": name, title: BONUS[name].text});
    node.appendChild(el("span", {class: "symbol"}, BONUS[name].symbol));
    node.appendChild(el("span", {}, holder == null ? BONUS[name].name : `${BONUS[name].name}: ${seatName(holder)}`));
    if (holder != null) node.classList.add("taken");
    if (take) {
      node.classList.add("takeable");
      node.addEventListener("click", () => send(take));
    } else {
      node.disabled = true;
    }
    pile.appendChild(node);
  }
  trick.appendChild(pile);
  const last = view.last_trick;
  const box = ctx.$("last-trick");
  box.replaceChildren();
  if (last) {
    const gone = new Set(last.annihilated);
    box.appendChild(el("span", {}, last.winner == null ? t("Last trick: nobody won it (every card annihilated)")
      : t("Last trick: %(player)s won it", {player: seatName(last.winner)})));
    for (const play of last.plays) {
      const fig = playFigure(ctx, play, "small" + (gone.has(play.card) ? " annihilated" : ""));
      if (gone.has(play.card)) fig.appendChild(el("span", {class: "gone"}, "✕ " + t("annihilated")));
      box.appendChild(fig);
    }
  }
  const note = ctx.$("announcements");
  note.replaceChildren();
  if (last && last.annihilated.length) {
    const navy = last.annihilated.filter((c) => c[0] === "N");
    const pairs = navy.map((n) => {
      const twin = last.annihilated.find((c) => c[0] !== "N" && c.slice(1) === n.slice(1));
      return twin ? t("%(card)s and %(twin)s", {card: cardText(n), twin: cardText(twin)})
        : t("%(card)s and its twin", {card: cardText(n)});
    });
    note.appendChild(el("span", {class: "annihilation-note", id: "annihilation-note"},
      t("Annihilated: %(pairs)s (a navy card and the real %(suit)s card of the same rank leave the trick).",
        {pairs: pairs.join("; "), suit: SUIT_NAMES[last.lead_suit]})));
  }
}

function renderChoices(ctx) {
  const {state, send} = ctx;
  const view = state.view;
  const legal = view.legal || [];
  const box = ctx.$("choices");
  box.replaceChildren();
  const bids = legal.filter((a) => a.type === "bid");
  if (bids.length) {
    const entry = el("div", {class: "bid-entry", id: "bid-entry"});
    entry.appendChild(el("span", {}, t("Your secret bid (tricks you will win):") + " "));
    for (const action of bids) {
      const button = el("button", {type: "button", "data-type": "bid", "data-value": action.value},
        String(action.value));
      button.addEventListener("click", () => send(action));
      entry.appendChild(button);
    }
    box.appendChild(entry);
  } else if (view.phase === "bidding" && view.own_bid != null) {
    box.appendChild(el("span", {id: "own-bid"},
      t("Your bid: %(bid)s. Bids are shown when everyone has bid.", {bid: view.own_bid})));
  }
  if (pendingNavy) {
    const options = legal.filter((a) => a.type === "play" && a.card === pendingNavy && a.suit);
    if (!options.length) { pendingNavy = null; } else {
      const chooser = el("div", {class: "suit-choice", id: "suit-choice"});
      chooser.appendChild(el("span", {}, t("Lead the %(card)s as:", {card: cardText(pendingNavy)}) + " "));
      for (const action of options) {
        const button = el("button", {type: "button", class: `suit ${SUIT_CLASSES[action.suit]}`,
          "data-type": "play", "data-suit": action.suit}, SUIT_NAMES[action.suit]);
        button.addEventListener("click", () => { pendingNavy = null; send(action); });
        chooser.appendChild(button);
      }
      const cancel = el("button", {type: "button", class: "secondary", id: "suit-cancel"}, t("Cancel"));
      cancel.addEventListener("click", () => { pendingNavy = null; ctx.render(); });
      chooser.appendChild(cancel);
      box.appendChild(chooser);
    }
  }
  const decline = legal.find((a) => a.type === "decline_bonus");
  if (decline) {
    const button = el("button", {type: "button", class: "secondary", "data-type": "decline_bonus"},
      t("No bonus card"));
    button.addEventListener("click", () => send(decline));
    box.appendChild(button);
  }
}

function renderHand(ctx) {
  const {state, send} = ctx;
  const view = state.view;
  const legal = view.legal || [];
  const plays = legal.filter((a) => a.type === "play");
  const hand = ctx.$("hand");
  hand.replaceChildren();
  for (const card of view.hand || []) {
    const button = el("button", {type: "button", class: "card", "data-card": card, title: cardText(card)});
    button.appendChild(cardSVG(card));
    const options = plays.filter((a) => a.card === card);
    if (options.length) {
      button.classList.add("legal");
      if (pendingNavy === card) button.classList.add("selected");
      button.addEventListener("click", () => {
        if (options.length > 1) { pendingNavy = card; ctx.render(); } else send(options[0]);
      });
    } else {
      button.disabled = true;
    }
    hand.appendChild(button);
  }
}

export function render(ctx) {
  const {state} = ctx;
  const seats = ctx.$("seats");
  seats.replaceChildren(...Array.from({length: state.table.players}, (_, s) => seatPanel(ctx, s)));
  if (!state.view) return;
  renderCenter(ctx);
  renderChoices(ctx);
  renderHand(ctx);
}

export function prompt(ctx) {
  const {state, seatName} = ctx;
  const view = state.view;
  if (view.phase === "over") return t("The round is over.");
  if (view.phase === "bidding") {
    return view.own_bid == null && view.hand && view.hand.length ? t("Bid how many tricks you will win.")
      : t("Waiting for the other bids…");
  }
  const turn = (view.to_act || [])[0];
  const legal = view.legal || [];
  if (legal.some((a) => a.type === "decline_bonus")) return t("Take a bonus card, or play on without one.");
  if (turn === state.you) {
    if (pendingNavy) return t("Choose the suit your navy card leads.");
    return view.trick.length ? t("Your turn: follow suit (a navy card counts as the lead suit).")
      : t("Your turn: lead any card.");
  }
  return turn != null ? t("Waiting for %(player)s…", {player: seatName(turn)}) : "";
}

function bidLine(bid, won) {
  if (bid === 0) return won === 0 ? t("bid 0 and won none: 7 points") : t("bid 0 but won %(won)s: 0 points", {won});
  const miss = Math.abs(bid - won);
  if (miss === 0) return t("bid %(bid)s, won %(won)s: exact, 3 points", {bid, won});
  if (miss === 1) return t("bid %(bid)s, won %(won)s: off by one, 1 point", {bid, won});
  return t("bid %(bid)s, won %(won)s: off by %(miss)s, 0 points", {bid, won, miss});
}

/** The round's scoring, line by line per player. */
export function roundResult(ctx, box) {
  const {state, seatName} = ctx;
  const rounds = state.scores.rounds;
  if (!rounds.length) return true;
  const round = rounds[rounds.length - 1];
  const details = round.details;
  if (!details || !details.bids) return true;
  box.appendChild(el("h2", {}, t("Round %(number)s: scoring", {number: rounds.length})));
  const list = el("ol", {class: "scoring-lines", id: "scoring-lines"});
  details.bids.forEach((bid, seat) => {
    const won = details.tricks_won[seat];
    const parts = [bidLine(bid, won)];
    if (details.bonus.star === seat) parts.push(t("star +1"));
    if (details.bonus.eye === seat) parts.push(bid === won ? t("eye with an exact bid +3") : t("eye, bid missed: +0"));
    const item = el("li", {"data-seat": seat}, t("%(player)s: %(lines)s = %(points)s (total %(total)s)", {
      player: seatName(seat), lines: parts.join("; "), points: round.scores[seat], total: state.scores.totals[seat]}));
    list.appendChild(item);
  });
  box.appendChild(list);
  const extra = [];
  if (details.void_tricks) extra.push(t("%(count)s void trick(s) won by nobody", {count: details.void_tricks}));
  for (const a of details.annihilations || []) {
    extra.push(t("trick %(number)s: %(cards)s annihilated", {number: a.trick + 1, cards: a.cards.map(cardText).join(", ")}));
  }
  if (extra.length) box.appendChild(el("p", {class: "scoring-notes"}, extra.join(" · ")));
  return true;
}
