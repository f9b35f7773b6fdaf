// Doublehead Kids' table: the Doppelkopf engine with the children's names and pictures. Tricks
// are "duels", card points "silver coins", the score is golden coins. A learning aid (switch
// it on under the hand) highlights the legal cards, says in one line why another card is not
// allowed, and after each duel who won it and why. Everything from the seat's own view.
import {el, svgEl} from "./common.js";

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
const PRINTED = {QC: "Team", AD: "Foxy", JC: "Karlchen"};
const LABELS = {
  healthy: "Ready to play", wedding: "Wedding (choose a partner)", re: "Re", kontra: "Kontra",
  no90: "No 90", no60: "No 60", no30: "No 30", black: "Black",
};
const CONTRACTS = {normal: "Team game", wedding: "Wedding", silent_solo: "Lone player"};
const AID_KEY = "doppelrunde.kids.aid";

let names = {};
let trumps = [];
let aidReason = "";

function aidOn() { return localStorage.getItem(AID_KEY) === "on"; }

export function familyOf(card) { return trumps.includes(card) ? "royal" : FAMILY[card[1]]; }

/** The picture name of a card, with its family where the name is shared. */
export function kidName(card) {
  const name = names[card] || card;
  const family = familyOf(card);
  if (family === "royal" || !family) return name;
  return `${name} of ${family}s`.replace("crosss", "crosses");
}

/** A Kids card as SVG: family colour, a large picture glyph, the name, its silver coins. */
export function kidCard(card) {
  const name = names[card] || card;
  const family = familyOf(card) || "royal";
  const svg = svgEl("svg", {viewBox: "0 0 60 90", class: `card-svg kids ${family}`, role: "img",
    "aria-label": kidName(card)});
  svg.appendChild(svgEl("rect", {x: 1, y: 1, width: 58, height: 88, rx: 6, class: "card-face"}));
  svg.appendChild(svgEl("rect", {x: 1, y: 1, width: 58, height: 14, rx: 6, class: "band"}));
  svg.appendChild(svgEl("text", {x: 5, y: 12, class: "family"}, FAMILY_SYMBOL[family]));
  const silver = SILVER[card.slice(0, -1)] ?? 0;
  svg.appendChild(svgEl("circle", {cx: 50, cy: 8, r: 6.5, class: "coin"}));
  svg.appendChild(svgEl("text", {x: 50, y: 11, class: "coin-value", "text-anchor": "middle"}, String(silver)));
  svg.appendChild(svgEl("text", {x: 30, y: 50, class: "glyph", "text-anchor": "middle"}, GLYPH[name] || "?"));
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

function label(value) { return LABELS[value] || String(value).replaceAll("_", " "); }

function teamName(view, party) {
  return (view.teams && view.teams[party]) || label(party);
}

function seatPanel(ctx, seat) {
  const {state} = ctx;
  const view = state.view;
  const info = state.table.seats.find((s) => s.seat === seat);
  const div = el("div", {class: "seat", "data-seat": seat});
  if (seat === state.you) div.classList.add("you");
  if (view && view.to_move === seat && view.phase !== "done") div.classList.add("to-move");
  div.appendChild(el("strong", {}, info ? info.name : "(free)"));
  const notes = [];
  if (info && info.bot) notes.push("computer");
  if (info && !info.connected) notes.push("away");
  if (view && view.dealer === seat) notes.push("dealer");
  if (view && view.parties && view.parties[seat]) notes.push(teamName(view, view.parties[seat]));
  div.appendChild(el("small", {}, notes.join(" · ")));
  if (view) {
    const duels = view.tricks_won ? view.tricks_won[seat] : 0;
    const line = [`${duels} duel${duels === 1 ? "" : "s"}`];
    if (view.points_won && view.phase === "done") line.push(`${view.points_won[seat]} silver coins`);
    div.appendChild(el("span", {class: "duels"}, line.join(" · ")));
  }
  const coins = state.scores.totals[seat] ?? 0;
  div.appendChild(el("span", {class: "golden", "data-golden": coins}, `● ${coins} golden coin${coins === 1 ? "" : "s"}`));
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
    why = "the strongest royal card in the duel" + (twins ? " (of two equal cards the first one played wins)" : "");
  } else {
    const family = familyOf(cards[0].card);
    why = `the highest card of the ${family} family that was led` + (royal ? "" : ", and nobody played a royal card")
      + (twins ? " (of two equal cards the first one played wins)" : "");
  }
  const silver = duel.points != null ? ` It brings ${duel.points} silver coins.` : "";
  return `${who} won the duel with ${kidName(win.card)}: ${why}.${silver}`;
}

/** Why ``card`` may not be played now (null when it may). */
export function notAllowed(ctx, card) {
  const {state} = ctx;
  const view = state.view;
  const legal = (view.legal || []).filter((a) => a.type === "play").map((a) => a.card);
  if (legal.includes(card)) return null;
  if (view.phase !== "play") return "Cards are played once everyone is ready.";
  if (view.to_move !== state.you) return `Wait: it is ${ctx.seatName(view.to_move)}'s turn.`;
  const lead = (view.trick || [])[0];
  if (lead) {
    const family = familyOf(lead.card);
    return family === "royal"
      ? "A royal card was led: you must play a royal card while you have one."
      : `The ${family} family was led: you must play a ${family} card while you have one (royal cards do not count as ${family}).`;
  }
  return "Not allowed now.";
}

function renderCenter(ctx) {
  const {state} = ctx;
  const view = state.view;
  const info = [];
  if (view.contract) info.push(`Game: ${CONTRACTS[view.contract] || label(view.contract)}`);
  info.push(`Duel ${(view.tricks || []).length + (view.phase === "play" ? 1 : 0)}`);
  info.push(`Round ${state.scores.played + (view.phase === "done" ? 0 : 1)} of ${state.scores.deals}`);
  ctx.$("info").textContent = info.join(" · ");
  ctx.$("trick").replaceChildren(...(view.trick || []).map((p) => played(ctx, p, "played")));
  const box = ctx.$("last-trick");
  box.replaceChildren();
  const last = view.last_trick;
  if (last && last.cards && last.cards.length) {
    box.appendChild(el("span", {}, `Last duel: ${ctx.seatName(last.winner)} (${last.points} silver coins)`));
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
      text = "Play alone (lone player)";
    }
    if (action.type === "wedding_partner") text = `Partner: ${seatName(action.partner)}`;
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
    toggle.append(input, " Learning aid");
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
    rule.textContent = !lead ? "You lead this duel: any card is allowed (highlighted)."
      : (count === new Set(view.hand).size
        ? `You cannot follow the ${familyOf(lead.card)} family: any card is allowed (highlighted).`
        : `Follow the ${familyOf(lead.card)} family: the highlighted cards are allowed.`);
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
  if (view.phase === "done") return "The round is over.";
  if (view.to_move === state.you) {
    return view.phase === "play" ? "Your turn: play a card to the duel." : "Your turn: choose.";
  }
  return view.to_move != null ? `Waiting for ${seatName(view.to_move)}…` : "";
}

const REASONS = {
  won: "won the round", lone_double: "lone player: coins doubled", over_150: "more than 150 silver coins",
  over_180: "more than 180 silver coins", foxy: "captured Foxy", karlchen: "Karlchen won the last duel",
  karlchen_captured: "captured Karlchen in the last duel",
};

/** The round in Kids words: silver coins per team, the winner, the golden coins line by line. */
export function roundResult(ctx, box) {
  const {state, seatName} = ctx;
  const view = state.view;
  const rounds = state.scores.rounds;
  const details = view && view.result ? view.result : (rounds.length ? rounds[rounds.length - 1].details : null);
  if (!details || !details.card_points) return true;
  const teams = details.teams || {};
  box.appendChild(el("h2", {}, view && view.phase === "done" ? "This round" : "Last round"));
  const parties = details.parties || {};
  const lines = [];
  for (const party of ["re", "kontra"]) {
    const members = (parties[party] || []).map(seatName).join(", ");
    lines.push(`${teams[party] || party} (${members}): ${details.card_points[party]} silver coins, `
      + `${details.tricks ? details.tricks[party] : "?"} duels`);
  }
  if (details.lone) lines.push(`${seatName(details.declarer)} played alone.`);
  lines.push(details.winner ? `Winner: ${teams[details.winner] || details.winner}` : "Nobody won the round.");
  for (const line of details.coin_lines || []) {
    lines.push(`${line.seats.map(seatName).join(", ")}: +${line.coins} golden coin${line.coins === 1 ? "" : "s"} each (${REASONS[line.reason] || label(line.reason)})`);
  }
  const list = el("ul", {class: "kids-result", id: "kids-result"});
  for (const text of lines) list.appendChild(el("li", {}, text));
  box.appendChild(list);
  return true;
}
