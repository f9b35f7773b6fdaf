// Doppelganger Tricks on the table component (static/js/table/view.js), from the seat's own
// view (app/games/doppelganger_tricks/view.py): secret bids (0–12 by keys, also two digits:
// "1" "2" is 12), then each bid and tricks won on the seat plates; a navy lead's suit choice;
// annihilated pairs marked in the completed trick before they leave it; the star and the eye
// (bonus cards) in the middle and on the plate of whoever took them; the round's scoring.
//
// Cards: four colours, each with its own shape so that the suits differ without colour too:
// pink ●, green ▲, yellow ■ and navy ◆ (the doppelganger suit).
import {ngettext, t} from "../i18n.js";
import {statusLine} from "../words.js";
import {blankCard} from "../cards.js";
import {el, legalOf, plays, svgEl, waitingFor} from "./common.js";

const SUIT_NAMES = {P: t("pink"), G: t("green"), Y: t("yellow"), N: t("navy")};
const SUIT_CLASSES = {P: "pink", G: "green", Y: "yellow", N: "navy"};
const SUIT_ORDER = "PGYN";
const BONUS = {star: {symbol: "★", name: t("star"), text: t("Star: +1 point whatever the bid")},
  eye: {symbol: "◉", name: t("eye"), text: t("Eye: +3 points if the bid is exact")}};
const BONUS_KEYS = {star: "1", eye: "2", decline: "3"};
const SUIT_KEYS = {P: "1", G: "2", Y: "3"};

let pendingNavy = null;  // {round, card}: a navy card clicked to lead, waiting for its suit

/** A card in words: "navy 7". */
export function cardText(code) {
  return t("%(colour)s %(number)s", {colour: SUIT_NAMES[code[0]], number: code.slice(1)});
}

function shape(suit, cx, cy, r, cls) {
  if (suit === "P") return svgEl("circle", {cx, cy, r, class: cls});
  if (suit === "G") return svgEl("path", {d: `M${cx} ${cy - r} L${cx + r} ${cy + r * 0.8} L${cx - r} ${cy + r * 0.8} Z`, class: cls});
  if (suit === "Y") return svgEl("rect", {x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, rx: r * 0.2, class: cls});
  return svgEl("path", {d: `M${cx} ${cy - r * 1.1} L${cx + r} ${cy} L${cx} ${cy + r * 1.1} L${cx - r} ${cy} Z`, class: cls});
}

/** A Doppelganger Tricks card (suit letter and 1–10, e.g. "N7") as SVG. */
export function colouredCard(code) {
  const suit = code[0];
  const number = code.slice(1);
  const svg = blankCard(`coloured ${SUIT_CLASSES[suit] || ""}`, cardText(code));
  for (const turn of [null, "rotate(180 30 45)"]) {
    const g = svgEl("g", turn ? {transform: turn} : {});
    g.append(svgEl("text", {x: 8, y: 15, class: "corner", "text-anchor": "middle"}, number));
    g.append(shape(suit, 8, 22, 3.2, "corner-shape"));
    svg.append(g);
  }
  svg.append(shape(suit, 30, 45, 17, "band"));
  svg.append(svgEl("text", {x: 30, y: suit === "G" ? 54 : 52, class: "number", "text-anchor": "middle"}, number));
  return svg;
}

function sortKey(code) { return SUIT_ORDER.indexOf(code[0]) * 100 + Number(code.slice(1)); }

function bonusOf(view, seat) {
  return Object.entries(view.bonus || {}).filter(([, holder]) => holder === seat).map(([name]) => name);
}

function pending(view) {
  return pendingNavy && pendingNavy.round === view.round ? pendingNavy.card : null;
}

export const doppelganger = {
  game: "doppelganger_tricks",
  hasLastTrick: true,
  trickWord: () => t("trick"),
  roundWord: "round",
  face: colouredCard,
  cardName: cardText,
  /** A suit in words ("P" → "pink"): a navy card led as another suit names it. */
  suitName: (code) => SUIT_NAMES[code] || code,

  turn(view) {
    const to = view.to_act || [];
    return view.phase === "playing" && to.length === 1 ? to[0] : null;
  },

  myTurn(ctx) {
    const view = ctx.state.view;
    return view.phase !== "over" && legalOf(view).length > 0;
  },

  /** Cards by suit (pink, green, yellow, navy), each from 1 up. */
  sortCards(cards) { return [...cards].sort((a, b) => sortKey(a) - sortKey(b)); },

  trick(view) {
    return (view.trick || []).map((p) => ({seat: p.seat, card: p.card,
      note: p.suit ? t("leads %(suit)s", {suit: SUIT_NAMES[p.suit]}) : null}));
  },

  completedTrick(prev, view, ctx) {
    if (!prev || prev.round !== view.round || !view.last_trick) return null;
    if ((view.tricks_played || 0) <= (prev.tricks_played || 0)) return null;
    return this.lastTrick(view, ctx);
  },

  lastTrick(view, ctx) {
    const last = view.last_trick;
    if (!last || !last.plays || !last.plays.length) return null;
    const list = plays(last.plays);
    const gone = list.map((p, i) => (last.annihilated.includes(p.card) ? i : -1)).filter((i) => i >= 0);
    const parts = [last.winner == null ? t("Nobody wins the trick: every card was annihilated.")
      : t("%(player)s wins the trick", {player: ctx.seatName(last.winner)})];
    if (last.annihilated.length) {
      parts.push(t("Annihilated: %(cards)s (a navy card and the real %(suit)s card of the same rank leave the trick).",
        {cards: last.annihilated.map(cardText).join(", "), suit: SUIT_NAMES[last.lead_suit]}));
    }
    return {plays: list, winner: last.winner, gone, note: parts.join(" · ")};
  },

  info(ctx) {
    const {state} = ctx;
    const view = state.view;
    const parts = [];
    if (view.phase === "bidding") parts.push(t("Secret bids"));
    else parts.push(t("Trick %(number)s", {number: view.tricks_played + (view.phase === "playing" ? 1 : 0)}));
    if (view.lead_suit) parts.push(t("Lead suit: %(suit)s", {suit: SUIT_NAMES[view.lead_suit]}));
    if (view.void_tricks) parts.push(t("Void tricks: %(count)s", {count: view.void_tricks}));
    return statusLine(state, parts);
  },

  seatBadges(ctx, seat) {
    const view = ctx.state.view;
    const badges = [];
    // each with a short form for a phone's narrow side plates ("bid 2 · 0 tricks" for "bid 2 ·
    // won 0": the bid and the tricks by name, never two bare numbers that read like a score)
    if (view.first_seat === seat) badges.push({text: t("leads first"), short: t("leads"), cls: "declared"});
    if (view.bids) {
      const on = view.bids[seat] === view.tricks_won[seat];
      const numbers = {bid: view.bids[seat], won: view.tricks_won[seat]};
      // the short form may break beside "·" on a narrow plate ("Gebot 2 ·" over "0 Stiche"), never
      // between a number and its word
      const tricks = ngettext("%(num)s trick", "%(num)s tricks", numbers.won);
      badges.push({text: t("bid %(bid)s · won %(won)s", numbers),
        short: t("bid %(bid)s · %(tricks)s", {bid: numbers.bid, tricks}).replace(/(?<!·) (?!·)/g, "\u00a0"),
        cls: "bid" + (on ? " on-target" : ""), data: {bid: view.bids[seat]}});
    } else {
      badges.push({text: view.has_bid[seat] ? t("has bid (secret)") : t("bidding…"),
        short: view.has_bid[seat] ? t("bid ✓") : t("bidding…"), cls: "bid"});
    }
    for (const name of bonusOf(view, seat)) {
      badges.push({text: `${BONUS[name].symbol} ${BONUS[name].name}`, cls: `bonus-held ${name}`,
        title: BONUS[name].text, data: {bonus: name}});
    }
    const points = {points: ctx.state.scores.totals[seat] ?? 0};
    badges.push({text: t("total %(points)s", points), short: t("Σ %(points)s", points), cls: "count"});
    return badges;
  },

  handItems(ctx) {
    const view = ctx.state.view;
    const options = legalOf(view).filter((a) => a.type === "play");
    const waiting = pending(view);
    return this.sortCards(view.hand || []).map((code) => {
      const mine = options.filter((a) => a.card === code);
      return {code, playable: mine.length > 0, action: mine[0] || null, selected: waiting === code,
        press: mine.length > 1 ? () => { pendingNavy = {round: view.round, card: code}; return null; } : null};
    });
  },

  whyNot(ctx, code) {
    const {state, seatName} = ctx;
    const view = state.view;
    if (view.phase === "bidding") return t("Cards are played once everyone has bid.");
    if (view.phase === "over") return t("The round is over.");
    if (legalOf(view).some((a) => a.type === "take_bonus" || a.type === "decline_bonus")) {
      return t("First take a bonus card or play on without one.");
    }
    if (view.bonus_pending != null && view.bonus_pending !== state.you) {
      return t("%(player)s may take a bonus card…", {player: seatName(view.bonus_pending)});
    }
    const turn = this.turn(view);
    if (turn !== state.you) return t("Not your turn: %(player)s plays now.", {player: seatName(turn)});
    const suit = SUIT_NAMES[view.lead_suit];
    return t("You must follow %(suit)s (or play a navy card): you still hold %(suit)s.", {suit});
  },

  waitingText(ctx) {
    const view = ctx.state.view;
    if (view.phase === "bidding") return view.own_bid == null ? "" : t("Waiting for the other bids…");
    // the seat that may take a bonus card keeps the turn until it takes one or says "no bonus"
    if (view.bonus_pending != null && view.bonus_pending !== ctx.state.you) {
      return t("%(player)s may take a bonus card…", {player: ctx.seatName(view.bonus_pending)});
    }
    return waitingFor(ctx, this.turn(view));
  },

  prompt(ctx) {
    const {state} = ctx;
    const view = state.view;
    if (view.phase === "over") return t("The round is over.");
    const legal = legalOf(view);
    if (legal.some((a) => a.type === "bid")) return t("Your secret bid: how many tricks will you win?");
    if (legal.some((a) => a.type === "decline_bonus")) return t("Take a bonus card, or say no bonus: the table waits for you.");
    if (!this.myTurn(ctx)) return this.waitingText(ctx);
    if (pending(view)) return t("Lead the %(card)s as which suit?", {card: cardText(pending(view))});
    return view.trick.length ? t("Your turn: follow %(suit)s (a navy card counts as %(suit)s).",
      {suit: SUIT_NAMES[view.lead_suit]}) : t("Your turn: lead any card.");
  },

  actions(ctx) {
    const view = ctx.state.view;
    const legal = legalOf(view);
    const specs = [];
    const bids = legal.filter((a) => a.type === "bid");
    const cards = (view.hand || []).length;
    for (const action of bids) {
      specs.push({action, label: String(action.value), key: String(action.value), decision: true,
        data: {bid: action.value}});
    }
    // four players hold 10 cards, but the rulebook's bid cards go to 12 (docs/rules/
    // doppelganger-tricks.md): said where the bid is made, not left to puzzle over
    const top = Math.max(...bids.map((a) => a.value));
    if (bids.length && cards < top) {
      specs.push({decision: true, note: t("%(cards)s cards each: at most %(cards)s tricks. The bid cards go to %(top)s, as in the rulebook; a higher bid than %(cards)s can never be exact.",
        {cards, top})});
    }
    const waiting = pending(view);
    if (waiting) {
      for (const action of legal.filter((a) => a.type === "play" && a.card === waiting && a.suit)) {
        // in the prompt's row (not a panel over the middle, which covered the star and the eye)
        specs.push({action, label: SUIT_NAMES[action.suit], key: SUIT_KEYS[action.suit],
          kind: `suit ${SUIT_CLASSES[action.suit]}`, data: {suit: action.suit}, afterSend: () => { pendingNavy = null; }});
      }
      specs.push({id: "suit-cancel", label: t("Cancel"), kind: "secondary",
        onClick: () => { pendingNavy = null; }});
    }
    for (const action of legal.filter((a) => a.type === "take_bonus")) {
      specs.push({action, label: BONUS[action.value].symbol + " " + t("Take the %(bonus)s", {bonus: BONUS[action.value].name}),
        key: BONUS_KEYS[action.value], title: BONUS[action.value].text, kind: "primary", data: {bonus: action.value}});
    }
    const decline = legal.find((a) => a.type === "decline_bonus");
    if (decline) specs.push({action: decline, label: t("No bonus card"), key: BONUS_KEYS.decline, kind: "secondary"});
    return specs;
  },

  /** The star and the eye on the table (or beside whoever took them). */
  centre(ctx, box) {
    const view = ctx.state.view;
    const pile = el("div", {class: "bonus-pile", id: "bonus-pile"});
    for (const name of ["star", "eye"]) {
      const holder = view.bonus ? view.bonus[name] : null;
      const card = el("div", {class: `bonus-card ${name}` + (holder != null ? " taken" : ""), "data-bonus": name,
        title: BONUS[name].text});
      card.append(el("span", {class: "symbol", "aria-hidden": "true"}, BONUS[name].symbol),
        el("span", {}, holder == null ? BONUS[name].name : t("%(bonus)s: %(player)s", {bonus: BONUS[name].name,
          player: ctx.seatName(holder)})));
      pile.append(card);
    }
    box.append(pile);
  },

  dealSummary(ctx, details, round) {
    const {seatName} = ctx;
    const box = el("div", {class: "deal-summary"});
    if (!details || !details.bids) return box;
    const list = el("ol", {class: "scoring-lines", id: "scoring-lines"});
    details.bids.forEach((bid, seat) => {
      const won = details.tricks_won[seat];
      const parts = [bidLine(bid, won)];
      if (details.bonus.star === seat) parts.push(t("star +1"));
      if (details.bonus.eye === seat) parts.push(bid === won ? t("eye with an exact bid +3") : t("eye, bid missed: +0"));
      const item = el("li", {"data-seat": String(seat)});
      item.append(el("span", {}, t("%(player)s: %(lines)s", {player: seatName(seat), lines: parts.join("; ")})),
        " ",
        el("span", {class: "points"}, ngettext("= %(num)s point", "= %(num)s points", round.scores[seat])));
      list.append(item);
    });
    box.append(list);
    const extra = [];
    if (details.void_tricks) extra.push(ngettext("%(num)s void trick won by nobody", "%(num)s void tricks won by nobody", details.void_tricks));
    for (const a of details.annihilations || []) {
      extra.push(t("trick %(number)s: %(cards)s annihilated", {number: a.trick + 1, cards: a.cards.map(cardText).join(", ")}));
    }
    if (extra.length) box.append(el("p", {class: "scoring-notes"}, extra.join(" · ")));
    return box;
  },
};

/** The bid's part of a round's scoring: what happened and its points, "+3" (the line's sum
 * follows it once, "= 4 points", so no "0 points = 0 points"). */
function bidLine(bid, won) {
  if (bid === 0) return won === 0 ? t("bid 0 and won none: +7") : t("bid 0 but won %(won)s: +0", {won});
  const miss = Math.abs(bid - won);
  if (miss === 0) return t("bid %(bid)s, won %(won)s: exact, +3", {bid, won});
  if (miss === 1) return t("bid %(bid)s, won %(won)s: off by one, +1", {bid, won});
  return t("bid %(bid)s, won %(won)s: off by %(miss)s, +0", {bid, won, miss});
}

export default doppelganger;
