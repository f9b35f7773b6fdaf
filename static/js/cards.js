// Playing cards drawn as SVG: rank and suit symbol in two corners, a large suit symbol in the
// middle; hearts and diamonds red. Card names are rank then suit (QC, TH, 9D); anything else
// is drawn as a plain labelled card.
import {t} from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
export const SUITS = {C: "♣", S: "♠", H: "♥", D: "♦"};
// the corner letters: A K Q J in English, A K D B (Ass, König, Dame, Bube) in German
const RANKS = {A: t("A"), T: "10", K: t("K"), Q: t("Q"), J: t("J"), 9: "9"};
// the card's name in the page's language: "Queen of clubs" / "Kreuz-Dame"
const SUIT_NAMES = {C: t("clubs"), S: t("spades"), H: t("hearts"), D: t("diamonds")};
const RANK_NAMES = {A: t("Ace"), T: t("Ten"), K: t("King"), Q: t("Queen"), J: t("Jack"), 9: t("Nine")};

function el(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A readable name for a card code: "Queen of clubs" (German "Kreuz-Dame"). */
export function cardName(code) {
  const rank = RANK_NAMES[code.slice(0, -1)];
  const suit = SUIT_NAMES[code.slice(-1)];
  return rank && suit ? t("%(rank)s of %(suit)s", {rank, suit}) : code;
}

/** The label of a card code: "Q♣", "10♥". */
export function cardLabel(code) {
  const rank = RANKS[code.slice(0, -1)];
  const suit = SUITS[code.slice(-1)];
  return rank && suit ? rank + suit : code;
}

// Doppelganger Tricks: suit letter then 1-10 (P pink, G green, Y yellow, N navy)
const COLOURED = {P: "pink", G: "green", Y: "yellow", N: "navy"};
const COLOUR_NAMES = {P: t("pink"), G: t("green"), Y: t("yellow"), N: t("navy")};

function colouredSVG(code) {
  const colour = COLOURED[code[0]];
  const svg = el("svg", {viewBox: "0 0 60 90", class: `card-svg coloured ${colour}`, role: "img",
    "aria-label": t("%(colour)s %(number)s", {colour: COLOUR_NAMES[code[0]], number: code.slice(1)})});
  svg.appendChild(el("rect", {x: 1, y: 1, width: 58, height: 88, rx: 6, class: "card-face"}));
  svg.appendChild(el("rect", {x: 8, y: 24, width: 44, height: 42, rx: 21, class: "band"}));
  svg.appendChild(el("text", {x: 5, y: 17, class: "corner"}, code.slice(1)));
  svg.appendChild(el("text", {x: 30, y: 55, class: "number", "text-anchor": "middle"}, code.slice(1)));
  return svg;
}

/** An <svg> of one card (60×90 units, scaled by CSS). */
export function cardSVG(code) {
  if (/^[PGYN]\d+$/.test(code)) return colouredSVG(code);
  const rankKey = code.slice(0, -1);
  const suitKey = code.slice(-1);
  const known = RANKS[rankKey] && SUITS[suitKey];
  const rank = known ? RANKS[rankKey] : code;
  const suit = known ? SUITS[suitKey] : "";
  const red = suitKey === "H" || suitKey === "D";
  const svg = el("svg", {viewBox: "0 0 60 90", class: "card-svg" + (red ? " red" : ""),
    role: "img", "aria-label": cardName(code)});
  svg.appendChild(el("rect", {x: 1, y: 1, width: 58, height: 88, rx: 6, class: "card-face"}));
  svg.appendChild(el("text", {x: 5, y: 17, class: "corner"}, rank));
  svg.appendChild(el("text", {x: 5, y: 31, class: "corner-suit"}, suit));
  svg.appendChild(el("text", {x: 30, y: 60, class: "pip", "text-anchor": "middle"}, suit || ""));
  const bottom = el("g", {transform: "rotate(180 30 45)"});
  bottom.appendChild(el("text", {x: 5, y: 17, class: "corner"}, rank));
  bottom.appendChild(el("text", {x: 5, y: 31, class: "corner-suit"}, suit));
  svg.appendChild(bottom);
  return svg;
}
