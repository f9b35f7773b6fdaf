// Doppelkopf on the table component (static/js/table/view.js): what each zone shows for the
// Doppelkopf view (app/games/doppelkopf/view.py). Doublehead Kids (kids.js) is this plugin
// with its own cards, words and result. Everything from the seat's own view.
//
// Keys stay the same for the whole deal: an option's key is fixed by what it is (Healthy 1,
// Wedding 2 …; Re/Kontra 1, No 90 2, No 60 3, No 30 4, Black 5), never by its place in a list.
import {cardName, cardSVG, SUIT_NAMES} from "../cards.js";
import {ngettext, t} from "../i18n.js";
import {TYPE_LABELS, label, partyReason, seatCounts, statusLine} from "../words.js";
import {sortHand} from "../table/handsort.js";
import {el, legalOf, plays, waitingFor} from "./common.js";

export const KEYS = {
  healthy: "1", wedding: "2", poverty: "3", throw_in: "4", solo_queens: "5", solo_jacks: "6",
  solo_clubs: "7", solo_spades: "8", solo_hearts: "9", solo_diamonds: "0",
  accept: "1", decline: "2",
  re: "1", kontra: "1", no90: "2", no60: "3", no30: "4", black: "5",
};

// the phase in the header ("Deal 1 of 8 · Reservations"): each part of the line begins capitalised
const PHASES = {
  declare: t("Reservations"), poverty_give: t("Poverty"), poverty_answer: t("Poverty"),
  poverty_return: t("Poverty"), wedding_partner: t("Wedding"),
};

// the poverty's chosen cards (kept per deal)
let chosen = {round: null, cards: []};

function selection(view) {
  if (chosen.round !== view.round) chosen = {round: view.round, cards: []};
  return chosen.cards;
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

/** Whether the seat is to act now (announcements alone do not make a turn). */
export function myTurn(ctx) {
  const view = ctx.state.view;
  if (!view || view.phase === "done") return false;
  return legalOf(view).some((a) => a.type !== "announce");
}

export const doppelkopf = {
  game: "doppelkopf",
  hasLastTrick: true,
  trickWord: () => t("trick"),

  face: cardSVG,
  cardName,

  turn(view) { return view.phase === "done" ? null : view.to_move; },
  myTurn,

  trick(view) { return plays(view.trick); },

  /** Cards in the order players hold them: trumps (the view's order), then ♣ ♠ ♥ ♦. */
  sortCards(cards, view) { return sortHand(cards, view.trumps); },

  /** The trick completed between two views of one deal, or null. */
  completedTrick(prev, view, ctx) {
    if (!prev || prev.round !== view.round || !view.last_trick) return null;
    const before = (prev.tricks || []).length;
    const after = (view.tricks || []).length;
    if (after <= before) return null;
    return this.lastTrick(view, ctx);
  },

  /** The last completed trick: {plays, winner, note} (for the Last trick dialog). */
  lastTrick(view, ctx) {
    const last = view.last_trick;
    if (!last || !last.cards || !last.cards.length) return null;
    const note = last.points != null
      ? ngettext("%(player)s wins the trick (%(num)s point)", "%(player)s wins the trick (%(num)s points)", last.points, {player: ctx.seatName(last.winner)})
      : t("%(player)s wins the trick", {player: ctx.seatName(last.winner)});
    return {plays: plays(last.cards), winner: last.winner, note};
  },

  info(ctx) {
    const {state, seatName} = ctx;
    const view = state.view;
    const parts = [];
    if (PHASES[view.phase]) parts.push(PHASES[view.phase]);
    if (view.contract) {
      parts.push(view.declarer != null && view.contract !== "normal"
        // a name may hold brackets itself ("Computer 2 (beginner)"): none around it
        ? t("%(contract)s: %(player)s", {contract: this.contractName(view.contract), player: seatName(view.declarer)})
        : this.contractName(view.contract));
    }
    return statusLine(state, parts);
  },

  contractName(contract) { return label(contract); },
  partyName(party) { return label(party); },

  seatBadges(ctx, seat) {
    const view = ctx.state.view;
    const badges = [];
    const announced = (view.announcements || []).filter((a) => a.seat === seat).map((a) => a.value);
    const party = view.parties ? view.parties[seat] : null;
    if (party && !announced.includes(party)) {
      badges.push({text: this.partyName(party), cls: `party ${party}`, data: {party}});
    }
    for (const value of announced) {
      badges.push({text: label(value), cls: `announced ${value === "re" || value === "kontra" ? value : ""}`,
        data: {announcement: value}});
    }
    const declared = (view.declarations || [])[seat];
    if (view.phase === "declare" && declared) {
      badges.push({text: label(declared), cls: "declared", short: declared === "reservation" ? t("Res.") : null});
    }
    if (view.declarer === seat && view.contract && view.contract !== "normal") {
      badges.push({text: this.contractName(view.contract), cls: "contract"});
    }
    if (view.poverty && view.poverty.taker === seat) badges.push({text: t("takes the poverty"), cls: "contract"});
    if (view.swines === seat) badges.push({text: t("Swines"), cls: "contract"});
    if (view.phase === "play" || view.phase === "done") {
      const {tricks_won: tricks, points_won: points, phase} = view;
      for (const count of seatCounts({tricks_won: tricks, points_won: points, phase}, seat)) badges.push({...count, cls: "count"});
    }
    return badges;
  },

  handItems(ctx) {
    const view = ctx.state.view;
    const legal = legalOf(view);
    const playable = new Set(legal.filter((a) => a.type === "play").map((a) => a.card));
    const choosing = legal.some((a) => a.cards);
    const picked = selection(view);
    const seen = {};
    return this.sortCards(view.hand || [], view).map((code) => {
      const index = (seen[code] = (seen[code] || 0) + 1) - 1;
      return {code, playable: playable.has(code), action: {type: "play", card: code},
        selectable: choosing, selected: picked.filter((c) => c === code).length > index,
        toggle: () => {
          const at = picked.indexOf(code);
          if (picked.filter((c) => c === code).length > index && at >= 0) picked.splice(at, 1);
          else picked.push(code);
        }};
    });
  },

  /** Why ``code`` may not be played now, in one line. */
  whyNot(ctx, code) {
    const {state, seatName} = ctx;
    const view = state.view;
    if (view.phase === "done") return t("The deal is over.");
    if (view.phase !== "play") return t("Cards are played once every player has declared.");
    if (view.to_move !== state.you) return t("Not your turn: %(player)s plays now.", {player: seatName(view.to_move)});
    const lead = (view.trick || [])[0];
    if (!lead) return t("You may lead any card.");
    const trumps = view.trumps || [];
    if (trumps.includes(lead.card)) return t("A trump was led: you must play a trump.");
    const suit = SUIT_NAMES[lead.card.slice(-1)];
    return trumps.includes(code)
      ? t("You must follow %(suit)s: you still hold %(suit)s (this card is a trump).", {suit})
      : t("You must follow %(suit)s.", {suit});
  },

  waitingText(ctx) { return waitingFor(ctx, this.turn(ctx.state.view)); },

  prompt(ctx) {
    const {state} = ctx;
    const view = state.view;
    if (view.phase === "done") return t("The deal is over.");
    const legal = legalOf(view);
    if (!myTurn(ctx)) return this.waitingText(ctx);
    if (legal.some((a) => a.type === "declare")) return t("Your turn: healthy or a reservation?");
    if (legal.some((a) => a.type === "poverty_give")) return t("Choose three cards to give (your trumps go first).");
    if (legal.some((a) => a.type === "poverty_return")) return t("Choose three cards to give back.");
    if (legal.some((a) => a.type === "poverty_answer")) return t("Take the poverty?");
    if (legal.some((a) => a.type === "wedding_partner")) return t("Choose your partner.");
    if (legal.some((a) => a.type === "play")) {
      return (view.trick || []).length ? t("Your turn: play a card.") : t("Your turn: lead a card.");
    }
    return t("Your turn");
  },

  /** The buttons of this turn: [{label, action, key, decision, …}] (table/view.js button). */
  actions(ctx) {
    const {state, seatName} = ctx;
    const view = state.view;
    const legal = legalOf(view);
    const specs = [];
    for (const action of legal) {
      if (action.type === "play" || action.cards) continue;
      const spec = {action: {...action}, label: this.actionLabel(action, ctx), key: KEYS[action.value] || null};
      if (action.type === "wedding_partner") {
        spec.label = t("Choose %(player)s as partner", {player: seatName(action.partner)});
        spec.key = String(legal.filter((a) => a.type === "wedding_partner").indexOf(action) + 1);
      }
      if (action.type !== "announce") spec.decision = true;
      if (action.type === "declare" && action.value === "healthy") spec.kind = "primary";
      specs.push(spec);
    }
    // the decision's buttons in the order of their keys (1 … 9, 0, then those without a key)
    const rank = (spec) => (spec.key == null ? 99 : spec.key === "0" ? 10 : Number(spec.key));
    specs.sort((a, b) => rank(a) - rank(b));
    // the party's next announcement is offered; the deeper ones (legal to make at once, as the
    // rules allow) wait behind "More" (table/view.js), with their keys still working
    const announcements = specs.filter((spec) => spec.action.type === "announce");
    for (const spec of announcements.slice(1)) spec.more = true;
    const withCards = legal.filter((a) => a.cards);
    if (withCards.length) {
      const want = [...selection(view)].sort().join(",");
      const match = withCards.find((a) => [...a.cards].sort().join(",") === want);
      specs.push({id: "submit-cards", label: TYPE_LABELS[withCards[0].type] || label(withCards[0].type),
        action: match || {type: withCards[0].type}, disabled: !match, kind: "primary",
        why: t("Choose exactly three cards first."), data: {type: withCards[0].type}});
    }
    return specs;
  },

  actionLabel(action) { return label(action.value ?? action.type); },

  /** The party that scores the game value: the score lines are signed from its side (a line
   *  of its own with plus points, or of the other party with minus points); so "Re wins" may
   *  go with a game value for Kontra when Kontra's special points outweigh (scoring.py). */
  partyAhead(details) {
    const line = (details.score_lines || []).find((l) => l.points !== 0);
    if (!line || !details.game_value) return null;
    return line.points > 0 ? line.party : (line.party === "re" ? "kontra" : "re");
  },

  /** The body of the deal-result dialog: who won, card points, each score line once, the value. */
  dealSummary(ctx, details) {
    const {seatName} = ctx;
    const box = el("div", {class: "deal-summary"});
    const game = details.contract ? this.contractName(details.contract) : "";
    const by = details.declarer != null && details.contract !== "normal" ? ` · ${seatName(details.declarer)}` : "";
    box.append(el("p", {class: "summary-game"}, game + by));
    const winners = details.winner && details.parties ? [].concat(details.parties[details.winner] || []) : [];
    box.append(el("p", {class: "summary-winner", id: "deal-winner"}, details.winner
      ? t("%(party)s wins: %(players)s", {party: this.partyName(details.winner), players: winners.map(seatName).join(", ")})
      : t("Nobody wins")));
    if (details.card_points) {
      box.append(el("p", {class: "summary-points", "data-key": "card_points"},
        t("Card points: Re %(re)s · Kontra %(kontra)s", details.card_points)));
    }
    if (Array.isArray(details.score_lines) && details.score_lines.length) {
      const list = el("ol", {class: "score-lines"});
      for (const line of details.score_lines) {
        const item = el("li");
        item.append(el("span", {}, partyReason(line.reason, line.party)),
          el("span", {class: "points"}, signed(line.points)));
        list.append(item);
      }
      box.append(list);
    }
    if (details.game_value != null) {
      const ahead = this.partyAhead(details);
      box.append(el("p", {class: "game-value", "data-party": ahead || ""}, ahead
        ? t("Game value for %(party)s: %(value)s", {party: this.partyName(ahead), value: details.game_value})
        : t("Game value: %(value)s", {value: details.game_value})));
    }
    if (details.reason) box.append(el("p", {}, label(details.reason)));
    return box;
  },
};

export default doppelkopf;
