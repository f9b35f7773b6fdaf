// Doublehead Kids' table: the Doppelkopf engine with the children's names and pictures. Tricks
// are "duels", card points "silver coins", the score is golden coins. A learning aid (switch
// it on under the hand) highlights the legal cards, says in one line why another card is not
// allowed, and after each duel who won it and why. Everything from the seat's own view.
import {el, svgEl} from "./common.js";
import {t} from "../i18n.js";
import {label as gameLabel} from "../words.js";

const FAMILY = {C: "cross", S: "spade", H: "heart"};
const FAMILY_SYMBOL = {cross: "♣", spade: "♠", heart: "♥", royal: "♛"};
const SILVER = {A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0};
// a picture for each named card: a large glyph, drawn as text in the SVG
const GLYPH = {
  "King Friedrich": "♔", "Prince / Princess": "♚", "Queen Elisabeth": "♕",
  "court lady Antoinette": "♛", "court lady Wilhelmine": "♛", "Karlchen": "☺", "Knight": "♘",
  "Foxy": "✦", "August the Strong": "⚔", "Bishop Marc-Antoine": "♗", "Jester Kunz": "♫",
  "castle": "♖", "Earl Ernst August": "♜", "Earl Georg": "♞", "soldier": "♙",
};
const PRINTED = {QC: t("Team"), AD: t("Foxy"), JC: t("Karlchen")};
// the picture names the server sends (app/games/doublehead_kids/names.py) in the page's language
const NAME_WORDS = {
  "King Friedrich": t("King Friedrich"), "Prince / Princess": t("Prince / Princess"),
  "Queen Elisabeth": t("Queen Elisabeth"), "court lady Antoinette": t("court lady Antoinette"),
  "court lady Wilhelmine": t("court lady Wilhelmine"), "Karlchen": t("Karlchen"), "Knight": t("Knight"),
  "Foxy": t("Foxy"), "August the Strong": t("August the Strong"),
  "Bishop Marc-Antoine": t("Bishop Marc-Antoine"), "Jester Kunz": t("Jester Kunz"), "castle": t("castle"),
  "Earl Ernst August": t("Earl Ernst August"), "Earl Georg": t("Earl Georg"), "soldier": t("soldier"),
};
const FAMILY_WORDS = {cross: t("cross"), spade: t("spade"), heart: t("heart"), royal: t("royal")};
const FAMILY_OF_WORDS = {cross: t("crosses"), spade: t("spades"), heart: t("hearts")};
const TEAMS = {re: t("Team Prince/Princess"), kontra: t("Team Without")};
const LABELS = {
  healthy: t("Ready to play"), wedding: t("Wedding (choose a partner)"),
};
const CONTRACTS = {normal: t("Team game"), wedding: t("Wedding"), silent_solo: t("Lone player")};
const AID_KEY = "doppelrunde.kids.aid";

let names = {};
let trumps = [];
let aidReason = "";

function aidOn() { return localStorage.getItem(AID_KEY) === "on"; }

export function familyOf(card) { return trumps.includes(card) ? "royal" : FAMILY[card[1]]; }

/** The picture name of a card, with its family where the name is shared. */
export function kidName(card) {
  const name = pictureName(card);
  const family = familyOf(card);
  if (family === "royal" || !family) return name;
  return t("%(name)s of %(family)s", {name, family: FAMILY_OF_WORDS[family] || family});
}

function pictureName(card) {
  const name = names[card] || card;
  return NAME_WORDS[name] || name;
}

/** A Kids card as SVG: family colour, a large picture glyph, the name, its silver coins. */
export function kidCard(card) {
  const name = pictureName(card);
  const family = familyOf(card) || "royal";
  const svg = svgEl("svg", {viewBox: "0 0 60 90", class: `card-svg kids ${family}`, role: "img",
    "aria-label": kidName(card)});
  svg.appendChild(svgEl("rect", {x: 1, y: 1, width: 58, height: 88, rx: 6, class: "card-face"}));
  svg.appendChild(svgEl("rect", {x: 1, y: 1, width: 58, height: 14, rx: 6, class: "band"}));
  svg.appendChild(svgEl("text", {x: 5, y: 12, class: "family"}, FAMILY_SYMBOL[family]));
  const silver = SILVER[card.slice(0, -1)] ?? 0;
  svg.appendChild(svgEl("circle", {cx: 50, cy: 8, r: 6.5, class: "coin"}));
  svg.appendChild(svgEl("text", {x: 50, y: 11, class: "coin-value", "text-anchor": "middle"}, String(silver)));
  svg.appendChild(svgEl("text", {x: 30, y: 50, class: "glyph", "text-anchor": "middle"}, GLYPH[names[card] || card] || "?"));
  if (PRINTED[card]) {
    svg.appendChild(svgEl("text", {x: 30, y: 62, class: "printed", "text-anchor": "middle"}, PRINTED[card]));
  }
  const words = name.replace(" / ", "/").split(" ");
  const lines = words.length > 2 ? [words.slice(0, words.length - 1).join(" "), words[words.length - 1]] : [words.join(" ")];
  lines.forEach((line, i) => {
    const attrs = {x: 30, y: 75 + i * 9, class: "name", "text-anchor": "middle"};
    if (line.length > 11) Object.assign(attrs, {textLength: 52, lengthAdjust: "spacingAndGlyphs"});
    svg.appendChild(svgEl("text", attrs, line));
  });
  return svg;
}

function label(value) { return LABELS[value] || gameLabel(value); }

function teamName(view, party) {
  return TEAMS[party] || (view.teams && view.teams[party]) || label(party);
}

function seatPanel(ctx, seat) {
  const {state} = ctx;
  const view = state.view;
  const info = state.table.seats.find((s) => s.seat === seat);
  const div = el("div", {class: "seat", "data-seat": seat});
  if (seat === state.you) div.classList.add("you");
  if (view && view.to_move === seat && view.phase !== "done") div.classList.add("to-move");
  div.appendChild(el("strong", {}, info ? ctx.seatName(seat) : t("(free)")));
  const notes = [];
  if (info && info.bot) notes.push(t("computer"));
  if (info && !info.connected) notes.push(t("away"));
  if (view && view.dealer === seat) notes.push(t("dealer"));
  if (view && view.parties && view.parties[seat]) notes.push(teamName(view, view.parties[seat]));
  div.appendChild(el("small", {}, notes.join(" · ")));
  if (view) {
    const duels = view.tricks_won ? view.tricks_won[seat] : 0;
    const line = [duels === 1 ? t("1 duel") : t("%(count)s duels", {count: duels})];
    if (view.points_won && view.phase === "done") line.push(t("%(count)s silver coins", {count: view.points_won[seat]}));
    div.appendChild(el("span", {class: "duels"}, line.join(" · ")));
  }
  const coins = state.scores.totals[seat] ?? 0;
  div.appendChild(el("span", {class: "golden", "data-golden": coins},
    "● " + (coins === 1 ? t("1 golden coin") : t("%(count)s golden coins", {count: coins}))));
  return div;
}

function played(ctx, play, cls) {
  const fig = el("figure", {class: cls, "data-card": play.card});
  fig.appendChild(kidCard(play.card));
  fig.appendChild(el("figcaption", {}, `${ctx.seatName(play.seat)}: ${kidName(play.card)}`));
  return fig;
}

/** Why the last duel went to its winner, in one sentence. */
export function duelWhy(ctx, duel) {
  const cards = duel.cards || [];
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
  return duel.points != null ? text + " " + t("It brings %(count)s silver coins.", {count: duel.points}) : text;
}

/** Why ``card`` may not be played now (null when it may). */
export function notAllowed(ctx, card) {
  const {state} = ctx;
  const view = state.view;
  const legal = (view.legal || []).filter((a) => a.type === "play").map((a) => a.card);
  if (legal.includes(card)) return null;
  if (view.phase !== "play") return t("Cards are played once everyone is ready.");
  if (view.to_move !== state.you) return t("Wait: it is %(player)s's turn.", {player: ctx.seatName(view.to_move)});
  const lead = (view.trick || [])[0];
  if (lead) {
    const family = familyOf(lead.card);
    return family === "royal"
      ? t("A royal card was led: you must play a royal card while you have one.")
      : t("The %(family)s family was led: you must play a %(family)s card while you have one (royal cards do not count as %(family)s).",
        {family: FAMILY_WORDS[family]});
  }
  return t("Not allowed now.");
}

function renderCenter(ctx) {
  const {state} = ctx;
  const view = state.view;
  const info = [];
  if (view.contract) info.push(t("Game: %(contract)s", {contract: CONTRACTS[view.contract] || label(view.contract)}));
  info.push(t("Duel %(number)s", {number: (view.tricks || []).length + (view.phase === "play" ? 1 : 0)}));
  info.push(t("Round %(number)s of %(rounds)s", {number: state.scores.played + (view.phase === "done" ? 0 : 1),
    rounds: state.scores.deals}));
  ctx.$("info").textContent = info.join(" · ");
  ctx.$("trick").replaceChildren(...(view.trick || []).map((p) => played(ctx, p, "played")));
  const box = ctx.$("last-trick");
  box.replaceChildren();
  const last = view.last_trick;
  if (last && last.cards && last.cards.length) {
    box.appendChild(el("span", {}, t("Last duel: %(player)s (%(count)s silver coins)",
      {player: ctx.seatName(last.winner), count: last.points})));
    for (const play of last.cards) box.appendChild(played(ctx, play, "played small"));
  }
  const note = ctx.$("announcements");
  note.replaceChildren();
  const anns = (view.announcements || []).map((a) => `${ctx.seatName(a.seat)}: ${label(a.value)}`);
  if (anns.length) note.appendChild(el("span", {}, anns.join(" · ")));
}

function renderChoices(ctx) {
  const {state, send, seatName} = ctx;
  const view = state.view;
  const box = ctx.$("choices");
  box.replaceChildren();
  for (const action of view.legal || []) {
    if (action.type === "play") continue;
    let text = label(action.value ?? action.type);
    if (action.type === "declare" && action.value === "healthy" && (view.hand || []).filter((c) => c === "QC").length === 2) {
      text = t("Play alone (lone player)");
    }
    if (action.type === "wedding_partner") text = t("Partner: %(player)s", {player: seatName(action.partner)});
    const button = el("button", {type: "button", "data-type": action.type,
      "data-value": action.value ?? action.partner ?? ""}, text);
    button.addEventListener("click", () => send(action));
    box.appendChild(button);
  }
}

function renderHand(ctx) {
  const {state, send} = ctx;
  const view = state.view;
  const playable = new Set((view.legal || []).filter((a) => a.type === "play").map((a) => a.card));
  const aid = aidOn();
  const hand = ctx.$("hand");
  hand.replaceChildren();
  for (const card of view.hand || []) {
    const button = el("button", {type: "button", class: "card", "data-card": card, title: kidName(card)});
    button.appendChild(kidCard(card));
    if (playable.has(card)) {
      button.classList.add("legal");
      button.addEventListener("click", () => { aidReason = ""; send({type: "play", card}); });
    } else if (aid && view.phase === "play") {
      const reason = notAllowed(ctx, card);
      button.classList.add("not-allowed");
      button.title = `${kidName(card)}: ${reason}`;
      button.addEventListener("click", () => { aidReason = `${kidName(card)}: ${reason}`; ctx.render(); });
    } else {
      button.disabled = true;
    }
    hand.appendChild(button);
  }
}

function renderAid(ctx) {
  const {state} = ctx;
  const view = state.view;
  let panel = document.getElementById("learning-aid-panel");
  if (!panel) {
    panel = el("div", {class: "learning-aid", id: "learning-aid-panel"});
    const toggle = el("label", {class: "switch"});
    const input = el("input", {type: "checkbox", id: "learning-aid"});
    toggle.append(input, " " + t("Learning aid"));
    input.addEventListener("change", () => {
      localStorage.setItem(AID_KEY, input.checked ? "on" : "off");
      aidReason = "";
      ctx.render();
    });
    panel.append(toggle, el("p", {id: "aid-rule"}), el("p", {id: "aid-reason"}), el("p", {id: "aid-duel"}));
    ctx.$("hand").after(panel);
  }
  const on = aidOn();
  document.getElementById("learning-aid").checked = on;
  panel.classList.toggle("on", on);
  const rule = document.getElementById("aid-rule");
  const reason = document.getElementById("aid-reason");
  const duel = document.getElementById("aid-duel");
  rule.textContent = reason.textContent = duel.textContent = "";
  if (!on || !view) return;
  if (view.phase === "play" && view.to_move === state.you) {
    const lead = (view.trick || [])[0];
    const count = (view.legal || []).filter((a) => a.type === "play").length;
    const family = lead ? FAMILY_WORDS[familyOf(lead.card)] : "";
    rule.textContent = !lead ? t("You lead this duel: any card is allowed (highlighted).")
      : (count === new Set(view.hand).size
        ? t("You cannot follow the %(family)s family: any card is allowed (highlighted).", {family})
        : t("Follow the %(family)s family: the highlighted cards are allowed.", {family}));
  }
  reason.textContent = aidReason;
  if (view.last_trick && view.last_trick.cards && view.last_trick.cards.length) {
    duel.textContent = duelWhy(ctx, view.last_trick);
  }
}

export function render(ctx) {
  const {state} = ctx;
  const view = state.view;
  if (view) {
    names = view.card_names || names;
    trumps = view.trumps || trumps;
  }
  const seats = ctx.$("seats");
  seats.replaceChildren(...Array.from({length: state.table.players}, (_, s) => seatPanel(ctx, s)));
  if (!view) return;
  renderCenter(ctx);
  renderChoices(ctx);
  renderHand(ctx);
  renderAid(ctx);
}

export function prompt(ctx) {
  const {state, seatName} = ctx;
  const view = state.view;
  if (view.phase === "done") return t("The round is over.");
  if (view.to_move === state.you) {
    return view.phase === "play" ? t("Your turn: play a card to the duel.") : t("Your turn: choose.");
  }
  return view.to_move != null ? t("Waiting for %(player)s…", {player: seatName(view.to_move)}) : "";
}

const REASONS = {
  won: t("won the round"), lone_double: t("lone player: coins doubled"),
  over_150: t("more than 150 silver coins"), over_180: t("more than 180 silver coins"),
  foxy: t("captured Foxy"), karlchen: t("Karlchen won the last duel"),
  karlchen_captured: t("captured Karlchen in the last duel"),
};

/** The round in Kids words: silver coins per team, the winner, the golden coins line by line. */
export function roundResult(ctx, box) {
  const {state, seatName} = ctx;
  const view = state.view;
  const rounds = state.scores.rounds;
  const details = view && view.result ? view.result : (rounds.length ? rounds[rounds.length - 1].details : null);
  if (!details || !details.card_points) return true;
  const teams = TEAMS;
  box.appendChild(el("h2", {}, view && view.phase === "done" ? t("This round") : t("Last round")));
  const parties = details.parties || {};
  const lines = [];
  for (const party of ["re", "kontra"]) {
    const members = (parties[party] || []).map(seatName).join(", ");
    lines.push(t("%(team)s (%(players)s): %(silver)s silver coins, %(duels)s duels", {team: teams[party] || party,
      players: members, silver: details.card_points[party], duels: details.tricks ? details.tricks[party] : "?"}));
  }
  if (details.lone) lines.push(t("%(player)s played alone.", {player: seatName(details.declarer)}));
  lines.push(details.winner ? t("Winner: %(players)s", {players: teams[details.winner] || details.winner})
    : t("Nobody won the round."));
  for (const line of details.coin_lines || []) {
    lines.push(t("%(players)s: +%(coins)s golden coins each (%(reason)s)", {players: line.seats.map(seatName).join(", "),
      coins: line.coins, reason: REASONS[line.reason] || label(line.reason)}));
  }
  const list = el("ul", {class: "kids-result", id: "kids-result"});
  for (const text of lines) list.appendChild(el("li", {}, text));
  box.appendChild(list);
  return true;
}
