// Doublehead Kids on the table component: the Doppelkopf plugin (doppelkopf.js) with the
// children's cards and words. Tricks are "duels", card points "silver coins", the score is
// golden coins; the teams are Team Prince/Princess and Team No Crown (a player with both
// Prince/Princess cards plays alone: the lone player). One naming scheme for the cards, as on
// them: "Castle (cross)", "Earl George (heart)", "King Frederick" (the names are msgids: German
// "Graf Georg", English "Earl George").
//
// The learning aid (a switch in the toolbar, remembered in localStorage) adds, while it is on,
// the rule of the duel in play (which cards are allowed and why) and, after each duel, who won
// it and why.
import {ngettext, t} from "../i18n.js";
import {label as gameLabel, statusLine} from "../words.js";
import {doppelkopf} from "./doppelkopf.js";
import {el, svgEl} from "./common.js";
import {icon} from "../table/icons.js";
import {sheetHeader} from "../table/scoresheet.js";

const FAMILY = {C: "cross", S: "spade", H: "heart"};
const FAMILY_SYMBOL = {cross: "♣", spade: "♠", heart: "♥", royal: "♛"};
const SILVER = {A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0};
// a picture for each named card: a large glyph, drawn as text in the SVG
const GLYPH = {
  "King Friedrich": "♔", "Prince / Princess": "♚", "Queen Elisabeth": "♕",
  "Court lady Antoinette": "♛", "Court lady Wilhelmine": "♛", "Karlchen": "☺", "Knight": "♘",
  "Foxy": "✦", "August the Strong": "⚔", "Bishop Marc-Antoine": "♗", "Jester Kunz": "♫",
  "Castle": "♖", "Earl Ernst August": "♜", "Earl Georg": "♞", "Soldier": "♙",
};
const PRINTED = {QC: t("Team"), AD: t("Foxy"), JC: t("Karlchen")};
// the picture names the server sends (app/games/doublehead_kids/names.py) in the page's language
const NAME_WORDS = {
  "King Friedrich": t("King Friedrich"), "Prince / Princess": t("Prince / Princess"),
  "Queen Elisabeth": t("Queen Elisabeth"), "Court lady Antoinette": t("Court lady Antoinette"),
  "Court lady Wilhelmine": t("Court lady Wilhelmine"), "Karlchen": t("Karlchen"), "Knight": t("Knight"),
  "Foxy": t("Foxy"), "August the Strong": t("August the Strong"),
  "Bishop Marc-Antoine": t("Bishop Marc-Antoine"), "Jester Kunz": t("Jester Kunz"), "Castle": t("Castle"),
  "Earl Ernst August": t("Earl Ernst August"), "Earl Georg": t("Earl Georg"), "Soldier": t("Soldier"),
};
// the card names of the deck (app/games/doublehead_kids/names.py CARD_NAMES), so that a card is
// named the same before the first view arrives and in replays
const DECK_NAMES = {
  TH: "King Friedrich", QC: "Prince / Princess", QS: "Queen Elisabeth", QH: "Court lady Antoinette",
  QD: "Court lady Wilhelmine", JC: "Karlchen", JS: "Knight", JH: "Knight", JD: "Knight", AD: "Foxy",
  TD: "August the Strong", KD: "Bishop Marc-Antoine", "9D": "Jester Kunz", AC: "Castle", AS: "Castle",
  AH: "Castle", TC: "Earl Ernst August", TS: "Earl Ernst August", KC: "Earl Georg", KS: "Earl Georg",
  KH: "Earl Georg", "9C": "Soldier", "9S": "Soldier", "9H": "Soldier",
};
// the corner index of each picture: a short mark readable when the cards of a hand overlap (like
// the rank letter in a Doppelkopf corner): the first letters of the name in the page's language
const MARKS = {
  "King Friedrich": "Fr", "Prince / Princess": "Pr", "Queen Elisabeth": "El", "Court lady Antoinette": "An",
  "Court lady Wilhelmine": "Wi", "Karlchen": "Ka", "Knight": t("Kn"), "Foxy": t("Fx"), "August the Strong": "Au",
  "Bishop Marc-Antoine": "MA", "Jester Kunz": t("Ku"), "Castle": t("Ca"), "Earl Ernst August": "EA",
  "Earl Georg": "Ge", "Soldier": "So",
};
const ROYAL = ["TH", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D"];
const FAMILY_WORDS = {cross: t("cross"), spade: t("spade"), heart: t("heart"), royal: t("royal")};
const TEAMS = {re: t("Team Prince/Princess"), kontra: t("Team No Crown")};
// what a phone's narrow plates show: the crown and "Team" printed on the Prince/Princess card
const TEAMS_SHORT = {re: t("♚ Team"), kontra: t("No crown")};
const LABELS = {healthy: t("Ready to play"), wedding: t("Wedding (choose a partner)")};
const CONTRACTS = {normal: t("Team game"), wedding: t("Wedding"), silent_solo: t("Lone player")};
const AID_KEY = "doppelrunde.kids.aid";
const REASONS = {
  won: t("won the round"), lone_double: t("lone player: coins doubled"),
  over_150: t("more than 150 silver coins"), over_180: t("more than 180 silver coins"),
  foxy: t("captured Foxy"), karlchen: t("Karlchen won the last duel"),
  karlchen_captured: t("captured Karlchen in the last duel"),
};

let trumps = ROYAL;

/** Whether the learning aid is switched on. */
export function aidOn() {
  try { return localStorage.getItem(AID_KEY) === "on"; } catch { return false; }
}

/** Switch the learning aid on or off (kept in localStorage). */
export function setAid(on) {
  try { localStorage.setItem(AID_KEY, on ? "on" : "off"); } catch { /* not kept */ }
}

export function familyOf(card) { return trumps.includes(card) ? "royal" : FAMILY[card[1]]; }

function pictureName(card) {
  const name = DECK_NAMES[card] || card;
  return NAME_WORDS[name] || name;
}

/** The name of a card: "Castle (cross)", "King Friedrich". */
export function kidName(card) {
  const family = familyOf(card);
  const name = pictureName(card);
  if (family === "royal" || !family) return name;
  return t("%(name)s (%(family)s)", {name, family: FAMILY_WORDS[family]});
}

/** A Kids card as SVG (viewBox 60×90): family colour, a large picture glyph, the name, its silver
 * coins; in the top-left corner the index (class "index": family symbol, the picture's short
 * mark, its silver coins), the strip that stays visible when the cards of a hand overlap. */
export function kidCard(card) {
  const name = pictureName(card);
  const family = familyOf(card) || "royal";
  const svg = svgEl("svg", {viewBox: "0 0 60 90", class: `card-svg kids ${family}`, role: "img",
    "aria-label": kidName(card)});
  svg.appendChild(svgEl("rect", {x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 5, class: "card-face"}));
  svg.appendChild(svgEl("rect", {x: 0.75, y: 0.75, width: 58.5, height: 15, rx: 5, class: "band"}));
  const silver = SILVER[card.slice(0, -1)] ?? 0;
  svg.appendChild(svgEl("circle", {cx: 50, cy: 8.5, r: 6.5, class: "coin"}));
  svg.appendChild(svgEl("text", {x: 50, y: 11.5, class: "coin-value", "text-anchor": "middle"}, String(silver)));
  svg.appendChild(cornerIndex(family, MARKS[DECK_NAMES[card]] || "?", silver));
  svg.appendChild(svgEl("text", {x: 34, y: 50, class: "glyph", "text-anchor": "middle"}, GLYPH[DECK_NAMES[card]] || "?"));
  if (PRINTED[card]) {
    svg.appendChild(svgEl("text", {x: 34, y: 61, class: "printed", "text-anchor": "middle"}, PRINTED[card]));
  }
  // the name in at most two lines (a longer one breaks before its last word: "Bischof" over
  // "Marc-Antoine"), each squeezed into the card where it is long, in any font
  const words = name.replace(" / ", "/").split(" ");
  const lines = words.length > 1 && name.length > 9 ? [words.slice(0, -1).join(" "), words[words.length - 1]] : [words.join(" ")];
  lines.forEach((line, i) => {
    const attrs = {x: 30, y: (lines.length > 1 ? 73 : 78) + i * 10, class: "name", "text-anchor": "middle"};
    if (line.length > 8) Object.assign(attrs, {textLength: Math.min(54, line.length * 6), lengthAdjust: "spacingAndGlyphs"});
    svg.appendChild(svgEl("text", attrs, line));
  });
  return svg;
}

/** The corner index: the family symbol on the band, the short mark, the silver coins (x < 17). */
function cornerIndex(family, mark, silver) {
  const index = svgEl("g", {class: "index", "aria-hidden": "true"});
  index.appendChild(svgEl("text", {x: 8.5, y: 12.5, class: "family", "text-anchor": "middle"}, FAMILY_SYMBOL[family]));
  const markAttrs = {x: 8.5, y: 27, class: "mark", "text-anchor": "middle"};
  if (mark.length > 2) Object.assign(markAttrs, {textLength: 14, lengthAdjust: "spacingAndGlyphs"});
  index.appendChild(svgEl("text", markAttrs, mark));
  index.appendChild(svgEl("text", {x: 8.5, y: 37, class: "mark-silver", "text-anchor": "middle"}, String(silver)));
  return index;
}

/** Why the last duel went to its winner, in one sentence. */
export function duelWhy(ctx, duel) {
  const cards = duel.plays || [];
  const win = cards.find((p) => p.seat === duel.winner);
  if (!win) return "";
  const who = ctx.seatName(duel.winner);
  const royal = cards.some((p) => trumps.includes(p.card));
  const twins = cards.filter((p) => p.card === win.card).length > 1;
  let why;
  if (trumps.includes(win.card)) {
    why = t("the strongest royal card in the duel");
  } else {
    const family = FAMILY_WORDS[familyOf(cards[0].card)];
    why = royal ? t("the highest card of the %(family)s family that was led", {family})
      : t("the highest card of the %(family)s family that was led, and nobody played a royal card", {family});
  }
  if (twins) why += " " + t("(of two equal cards the first one played wins)");
  const text = t("%(player)s won the duel with %(card)s: %(why)s.", {player: who, card: kidName(win.card), why});
  return duel.points != null ? text + " " + ngettext("It brings %(num)s silver coin.", "It brings %(num)s silver coins.", duel.points) : text;
}

function contractName(contract) { return CONTRACTS[contract] || gameLabel(contract); }

export const kids = {
  ...doppelkopf,
  game: "doublehead_kids",
  trickWord: () => t("duel"),
  roundWord: "round",
  /** the corner index in card units, for the replay's face-up hands */
  cornerBox: [17, 40],
  face: kidCard,
  cardName: kidName,
  contractName,
  partyName: (party) => TEAMS[party] || gameLabel(party),

  handItems(ctx, opts) {
    const view = ctx.state.view;
    trumps = view.trumps || trumps;
    return doppelkopf.handItems.call(this, ctx, opts);
  },

  info(ctx) {
    const {state} = ctx;
    const view = state.view;
    trumps = view.trumps || trumps;
    const parts = [];
    if (view.contract) parts.push(contractName(view.contract));
    const duels = (view.tricks_won || []).reduce((a, b) => a + b, 0);
    const number = Math.min(12, duels + (view.phase === "play" ? 1 : 0));
    if (number) parts.push(t("Duel %(number)s", {number}));  // none before the first
    return statusLine(state, parts);
  },

  lastTrick(view, ctx) {
    const last = view.last_trick;
    if (!last || !last.cards || !last.cards.length) return null;
    const duel = {plays: last.cards.map((p) => ({seat: p.seat, card: p.card})), winner: last.winner, points: last.points};
    const note = ngettext("%(player)s wins the duel (%(num)s silver coin)", "%(player)s wins the duel (%(num)s silver coins)", last.points, {player: ctx.seatName(last.winner)});
    return {...duel, note, why: aidOn() ? duelWhy(ctx, duel) : ""};
  },

  seatBadges(ctx, seat) {
    const {state} = ctx;
    const view = state.view;
    const badges = [];
    const party = view.parties ? view.parties[seat] : null;
    // on a side plate the whole name may break after the slash ("Team Prince/" "Princess")
    if (party) badges.push({text: TEAMS[party].replace("/", "/\u200b"), short: TEAMS_SHORT[party], cls: `party ${party}`, data: {party}});
    for (const a of (view.announcements || []).filter((x) => x.seat === seat)) {
      badges.push({text: gameLabel(a.value), cls: "announced", data: {announcement: a.value}});
    }
    if (view.declarer === seat && view.contract && view.contract !== "normal") {
      badges.push({text: contractName(view.contract), cls: "contract"});
    }
    const duels = (view.tricks_won || [])[seat] || 0;
    badges.push({text: ngettext("%(num)s duel", "%(num)s duels", duels), cls: "count duels"});
    if (view.points_won && view.phase === "done") {
      // a phone shows "● 138" with a silver dot (table.css), as it shows golden coins with a gold one
      badges.push({text: ngettext("%(num)s silver coin", "%(num)s silver coins", view.points_won[seat]),
        short: String(view.points_won[seat]), cls: "count silver"});
    }
    const coins = state.scores.totals[seat] ?? 0;
    badges.push({text: "● " + ngettext("%(num)s golden coin", "%(num)s golden coins", coins),
      short: `● ${coins}`, cls: "golden", data: {golden: coins}});
    return badges;
  },

  whyNot(ctx, card) {
    const {state, seatName} = ctx;
    const view = state.view;
    if (view.phase === "done") return t("The round is over.");
    if (view.phase !== "play") return t("Cards are played once everyone is ready.");
    if (view.to_move !== state.you) return t("Not your turn: %(player)s plays now.", {player: seatName(view.to_move)});
    const lead = (view.trick || [])[0];
    if (!lead) return t("You may lead any card.");
    const family = familyOf(lead.card);
    return family === "royal"
      ? t("A royal card was led: you must play a royal card while you have one.")
      : t("The %(family)s family was led: you must play a %(family)s card while you have one (royal cards do not count as %(family)s).",
        {family: FAMILY_WORDS[family]});
  },

  prompt(ctx) {
    const {state} = ctx;
    const view = state.view;
    if (view.phase === "done") return t("The round is over.");
    if (!this.myTurn(ctx)) return this.waitingText(ctx);
    if (view.phase !== "play") return this.choicePrompt(view);
    return aidOn() ? this.aidRule(ctx) : t("Your turn: play a card to the duel.");
  },

  /** What the choice before the duels is about: ready to play, or (both Prince/Princess cards)
   * a wedding against playing alone, or the wedding's partner. */
  choicePrompt(view) {
    const types = new Set((view.legal || []).map((a) => a.type));
    if (types.has("wedding_partner")) return t("Your turn: choose your partner for the wedding.");
    if (!types.has("declare")) return t("Your turn: choose.");
    if (view.legal.length === 1) return t("Your turn: press “Ready to play” to start the duels.");
    return t("Your turn: you hold both Prince/Princess cards. Call a wedding, or play alone against the other three.");
  },

  /** The learning aid's rule of the duel in play (the prompt while it is on). */
  aidRule(ctx) {
    const view = ctx.state.view;
    const lead = (view.trick || [])[0];
    const count = (view.legal || []).filter((a) => a.type === "play").length;
    const family = lead ? FAMILY_WORDS[familyOf(lead.card)] : "";
    return !lead ? t("You lead this duel: any card is allowed (highlighted).")
      : (count === new Set(view.hand).size
        ? t("You cannot follow the %(family)s family: any card is allowed (highlighted).", {family})
        : t("Follow the %(family)s family: the highlighted cards are allowed.", {family}));
  },

  actionLabel(action) {
    if (LABELS[action.value]) return LABELS[action.value];
    return gameLabel(action.value ?? action.type);
  },

  actions(ctx) {
    const specs = doppelkopf.actions.call(this, ctx);
    const view = ctx.state.view;
    const both = (view.hand || []).filter((c) => c === "QC").length === 2;
    for (const spec of specs) {
      if (spec.action.type === "declare" && spec.action.value === "healthy" && both) spec.label = t("Play alone (lone player)");
      if (spec.action.type === "wedding_partner") spec.label = t("Partner: %(player)s", {player: ctx.seatName(spec.action.partner)});
    }
    return specs;
  },

  /** The round in Kids words: silver coins per team, the winner, the golden coins line by line. */
  dealSummary(ctx, details) {
    const {seatName} = ctx;
    const box = el("div", {class: "deal-summary kids-summary"});
    if (!details.card_points) return box;
    box.append(el("p", {class: "summary-game"}, details.lone
      ? t("Lone player: %(player)s", {player: seatName(details.declarer)}) : contractName(details.contract || "normal")));
    box.append(el("p", {class: "summary-winner", id: "deal-winner"}, details.winner
      ? t("%(team)s wins: %(players)s", {team: TEAMS[details.winner],
        players: (details.parties[details.winner] || []).map(seatName).join(", ")})
      : t("Nobody won the round.")));
    const list = el("ul", {class: "kids-result", id: "kids-result"});
    for (const party of ["re", "kontra"]) {
      const members = (details.parties[party] || []).map(seatName).join(", ");
      list.append(el("li", {"data-party": party}, t("%(team)s – %(players)s: %(silver)s silver coins, %(duels)s duels",
        {team: TEAMS[party], players: members, silver: details.card_points[party],
          duels: details.tricks ? details.tricks[party] : "?"})));
    }
    box.append(list);
    const coins = el("ol", {class: "score-lines"});
    for (const line of details.coin_lines || []) {
      const item = el("li");
      const who = TEAMS[line.party] || line.seats.map(seatName).join(", ");
      item.append(el("span", {}, t("%(players)s: %(reason)s", {players: who,
        reason: REASONS[line.reason] || gameLabel(line.reason)})),
      el("span", {class: "points"}, line.coins === 1 ? t("+1 golden coin each")
        : ngettext("+%(num)s golden coin each", "+%(num)s golden coins each", line.coins)));
      coins.append(item);
    }
    if (coins.childNodes.length) box.append(coins);
    return box;
  },

  /** The learning aid's switch for the toolbar. */
  toolbar({redraw}) {
    const label = el("label", {class: "tool switch", id: "learning-aid-switch"});
    const input = el("input", {type: "checkbox", id: "learning-aid"});
    input.checked = aidOn();
    input.addEventListener("change", () => { setAid(input.checked); redraw(); });
    label.title = t("Learning aid");
    input.setAttribute("aria-label", t("Learning aid"));
    label.append(input, icon("aid"), el("span", {class: "tool-label", "aria-hidden": "true"}, t("Learning aid")),
      el("span", {class: "tool-short", "aria-hidden": "true"}, t("Aid")));
    return [label];
  },

  /** The score sheet in Kids terms: one row per round (team game or lone player, the winning
   * team, its silver coins) and each player's golden coins, round 1 first. */
  sheet(table, ctx) {
    const {state} = ctx;
    table.replaceChildren();
    const caption = table.createCaption();
    caption.textContent = t("Score sheet: one row per round, golden coins per player");
    caption.className = "visually-hidden";
    // beside the table (ctx.compact) the winner goes under the game, in its short form: one
    // column less leaves each player's column room for "Comp. 2"
    const compact = Boolean(ctx.compact);
    sheetHeader(table, compact ? [t("Round"), t("Game")] : [t("Round"), t("Game"), t("Winner")], ctx);
    const body = table.createTBody();
    const running = Array(state.table.players).fill(0);
    state.scores.rounds.forEach((round, i) => {
      const d = round.details || {};
      const row = body.insertRow();
      row.dataset.deal = String(i + 1);
      row.insertCell().textContent = String(round.deal ?? i + 1);
      const game = row.insertCell();
      game.textContent = d.lone ? t("Lone player") : contractName(d.contract || "normal");
      const winner = d.winner ? `${(compact ? TEAMS_SHORT : TEAMS)[d.winner]} (${d.card_points[d.winner]})` : "–";
      if (compact) game.append(el("small", {class: "winner"}, winner));
      else row.insertCell().textContent = winner;
      round.scores.forEach((score, s) => {
        running[s] += score;
        const td = row.insertCell();
        td.className = "running";
        td.append(el("strong", {}, String(running[s])), el("small", {}, ` (+${score})`));
      });
    });
    const foot = table.createTFoot().insertRow();
    const first = foot.insertCell();
    first.textContent = t("Golden coins");
    first.colSpan = compact ? 2 : 3;
    for (const total of state.scores.totals) foot.insertCell().textContent = String(total);
  },
};

export default kids;
