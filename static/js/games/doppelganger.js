// Doppelganger Tricks' table: secret bids (entry, then every bid beside its player with tricks
// won so far), the navy lead's suit choice, the last trick with annihilated cards visibly
// removed and a note, the two bonus cards on the table (one click to take when allowed), and
// the round's scoring explained line by line. Everything from the seat's own view.
import {cardSVG} from "../cards.js";
import {el} from "./common.js";

const SUIT_NAMES = {P: "pink", G: "green", Y: "yellow", N: "navy"};
const BONUS = {star: {symbol: "★", text: "Star: +1 point whatever the bid"},
  eye: {symbol: "◉", text: "Eye: +3 points if the bid is exact"}};

let pendingNavy = null;  // a navy card clicked to lead: waiting for its suit
let lastEvents = [];

export function onMessage(msg) {
  lastEvents = msg.type === "event" ? msg.events || [] : [];
}

function cardText(code) { return `${SUIT_NAMES[code[0]]} ${code.slice(1)}`; }

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
  div.appendChild(el("strong", {}, info ? info.name : "(free)"));
  const notes = [];
  if (info && info.bot) notes.push("computer");
  if (info && !info.connected) notes.push("away");
  if (view && view.first_seat === seat) notes.push("leads first");
  notes.push(`total ${state.scores.totals[seat] ?? 0}`);
  div.appendChild(el("small", {}, notes.join(" · ")));
  if (view) {
    const bid = el("span", {class: "bid", "data-seat": seat});
    if (view.bids) {
      bid.textContent = `bid ${view.bids[seat]} · won ${view.tricks_won[seat]}`;
      bid.dataset.bid = view.bids[seat];
      if (view.bids[seat] === view.tricks_won[seat]) bid.classList.add("on-target");
    } else {
      bid.textContent = view.has_bid[seat] ? "has bid (secret)" : "bidding…";
    }
    div.appendChild(bid);
    for (const name of bonusOf(view, seat)) {
      div.appendChild(el("span", {class: `bonus-held ${name}`, "data-bonus": name},
        `${BONUS[name].symbol} ${name}`));
    }
  }
  return div;
}

function playFigure(ctx, play, extra = "") {
  const fig = el("figure", {class: `played ${extra}`.trim(), "data-card": play.card});
  fig.appendChild(cardSVG(play.card));
  const label = ctx.seatName(play.seat) + (play.suit ? ` (leads ${SUIT_NAMES[play.suit]})` : "");
  fig.appendChild(el("figcaption", {}, label));
  return fig;
}

function renderCenter(ctx) {
  const {state, seatName, send} = ctx;
  const view = state.view;
  const info = [`Round ${state.scores.played + (view.phase === "over" ? 0 : 1)} of ${state.scores.deals}`,
    `Trick ${view.tricks_played + (view.phase === "playing" ? 1 : 0)}`];
  if (view.lead_suit) info.push(`Lead suit: ${SUIT_NAMES[view.lead_suit]} (navy counts as ${SUIT_NAMES[view.lead_suit]})`);
  if (view.void_tricks) info.push(`${view.void_tricks} void trick${view.void_tricks > 1 ? "s" : ""}`);
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
    node.appendChild(el("span", {}, holder == null ? name : `${name}: ${seatName(holder)}`));
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
    box.appendChild(el("span", {}, "Last trick: "
      + (last.winner == null ? "nobody won it (every card annihilated)" : `${seatName(last.winner)} won it`)));
    for (const play of last.plays) {
      const fig = playFigure(ctx, play, "small" + (gone.has(play.card) ? " annihilated" : ""));
      if (gone.has(play.card)) fig.appendChild(el("span", {class: "gone"}, "✕ annihilated"));
      box.appendChild(fig);
    }
  }
  const note = ctx.$("announcements");
  note.replaceChildren();
  if (last && last.annihilated.length) {
    const navy = last.annihilated.filter((c) => c[0] === "N");
    const pairs = navy.map((n) => {
      const twin = last.annihilated.find((c) => c[0] !== "N" && c.slice(1) === n.slice(1));
      return `${cardText(n)} and ${twin ? cardText(twin) : "its twin"}`;
    });
    note.appendChild(el("span", {class: "annihilation-note", id: "annihilation-note"},
      `Annihilated: ${pairs.join("; ")} (a navy card and the real ${SUIT_NAMES[last.lead_suit]} card of the same rank leave the trick).`));
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
    entry.appendChild(el("span", {}, "Your secret bid (tricks you will win): "));
    for (const action of bids) {
      const button = el("button", {type: "button", "data-type": "bid", "data-value": action.value},
        String(action.value));
      button.addEventListener("click", () => send(action));
      entry.appendChild(button);
    }
    box.appendChild(entry);
  } else if (view.phase === "bidding" && view.own_bid != null) {
    box.appendChild(el("span", {id: "own-bid"}, `Your bid: ${view.own_bid}. Bids are shown when everyone has bid.`));
  }
  if (pendingNavy) {
    const options = legal.filter((a) => a.type === "play" && a.card === pendingNavy && a.suit);
    if (!options.length) { pendingNavy = null; } else {
      const chooser = el("div", {class: "suit-choice", id: "suit-choice"});
      chooser.appendChild(el("span", {}, `Lead the ${cardText(pendingNavy)} as: `));
      for (const action of options) {
        const button = el("button", {type: "button", class: `suit ${SUIT_NAMES[action.suit]}`,
          "data-type": "play", "data-suit": action.suit}, SUIT_NAMES[action.suit]);
        button.addEventListener("click", () => { pendingNavy = null; send(action); });
        chooser.appendChild(button);
      }
      const cancel = el("button", {type: "button", class: "secondary", id: "suit-cancel"}, "Cancel");
      cancel.addEventListener("click", () => { pendingNavy = null; ctx.render(); });
      chooser.appendChild(cancel);
      box.appendChild(chooser);
    }
  }
  const decline = legal.find((a) => a.type === "decline_bonus");
  if (decline) {
    const button = el("button", {type: "button", class: "secondary", "data-type": "decline_bonus"},
      "No bonus card");
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
  if (view.phase === "over") return "The round is over.";
  if (view.phase === "bidding") {
    return view.own_bid == null && view.hand && view.hand.length ? "Bid how many tricks you will win." : "Waiting for the other bids…";
  }
  const turn = (view.to_act || [])[0];
  const legal = view.legal || [];
  if (legal.some((a) => a.type === "decline_bonus")) return "Take a bonus card, or play on without one.";
  if (turn === state.you) {
    if (pendingNavy) return "Choose the suit your navy card leads.";
    return view.trick.length ? "Your turn: follow suit (a navy card counts as the lead suit)." : "Your turn: lead any card.";
  }
  return turn != null ? `Waiting for ${seatName(turn)}…` : "";
}

function bidLine(bid, won) {
  if (bid === 0) return won === 0 ? "bid 0 and won none: 7 points" : `bid 0 but won ${won}: 0 points`;
  const miss = Math.abs(bid - won);
  if (miss === 0) return `bid ${bid}, won ${won}: exact, 3 points`;
  if (miss === 1) return `bid ${bid}, won ${won}: off by one, 1 point`;
  return `bid ${bid}, won ${won}: off by ${miss}, 0 points`;
}

/** The round's scoring, line by line per player. */
export function roundResult(ctx, box) {
  const {state, seatName} = ctx;
  const rounds = state.scores.rounds;
  if (!rounds.length) return true;
  const round = rounds[rounds.length - 1];
  const details = round.details;
  if (!details || !details.bids) return true;
  box.appendChild(el("h2", {}, `Round ${rounds.length}: scoring`));
  const list = el("ol", {class: "scoring-lines", id: "scoring-lines"});
  details.bids.forEach((bid, seat) => {
    const won = details.tricks_won[seat];
    const parts = [bidLine(bid, won)];
    if (details.bonus.star === seat) parts.push("star +1");
    if (details.bonus.eye === seat) parts.push(bid === won ? "eye with an exact bid +3" : "eye, bid missed: +0");
    const item = el("li", {"data-seat": seat},
      `${seatName(seat)}: ${parts.join("; ")} = ${round.scores[seat]} (total ${state.scores.totals[seat]})`);
    list.appendChild(item);
  });
  box.appendChild(list);
  const extra = [];
  if (details.void_tricks) extra.push(`${details.void_tricks} void trick(s) won by nobody`);
  for (const a of details.annihilations || []) extra.push(`trick ${a.trick + 1}: ${a.cards.map(cardText).join(", ")} annihilated`);
  if (extra.length) box.appendChild(el("p", {class: "scoring-notes"}, extra.join(" · ")));
  return true;
}
