// Playing cards drawn as SVG (60×90 units, scaled by CSS), as French-suited Doppelkopf cards
// look: rank and suit in two corners (the top-left corner is what shows when cards overlap in
// a hand), the pips of the nine, ten and ace in their usual places, the court cards (jack,
// queen, king) as a framed figure. Hearts and diamonds red. Codes are rank then suit (QC, TH,
// 9D); anything else is drawn as a plain labelled card. A card back for hidden cards.
import {t} from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
export const SUITS = {C: "♣", S: "♠", H: "♥", D: "♦"};
// the corner letters: A K Q J in English, A K D B (Ass, König, Dame, Bube) in German
const RANKS = {A: t("A"), T: "10", K: t("K"), Q: t("Q"), J: t("J"), 9: "9"};
// the card's name in the page's language: "Queen of clubs" / "Kreuz-Dame"
export const SUIT_NAMES = {C: t("clubs"), S: t("spades"), H: t("hearts"), D: t("diamonds")};
const RANK_NAMES = {A: t("Ace"), T: t("Ten"), K: t("King"), Q: t("Queen"), J: t("Jack"), 9: t("Nine")};
// the figure of a court card
const FIGURES = {K: "♚", Q: "♛", J: "♞"};
// pip places of the number cards (x, y in card units)
const PIPS = {
  9: [[19, 22], [41, 22], [19, 37], [41, 37], [30, 45], [19, 53], [41, 53], [19, 68], [41, 68]],
  T: [[19, 22], [41, 22], [30, 30], [19, 38], [41, 38], [19, 52], [41, 52], [30, 60], [19, 68], [41, 68]],
};

/** An SVG element with attributes and (optional) text. */
export function svgEl(name, attrs = {}, text) {
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

/** The empty card every face is drawn on: ``classes`` on the <svg>, ``name`` its label. */
export function blankCard(classes, name) {
  const svg = svgEl("svg", {viewBox: "0 0 60 90", class: `card-svg ${classes}`.trim(), role: "img",
    "aria-label": name});
  svg.appendChild(svgEl("rect", {x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 5, class: "card-face"}));
  return svg;
}

function corners(svg, rank, suit) {
  for (const turn of [null, "rotate(180 30 45)"]) {
    const g = svgEl("g", turn ? {transform: turn} : {});
    const attrs = {x: 7.5, y: 15, class: "corner", "text-anchor": "middle"};
    if (rank.length > 1) Object.assign(attrs, {textLength: 12, lengthAdjust: "spacingAndGlyphs"});
    g.appendChild(svgEl("text", attrs, rank));
    g.appendChild(svgEl("text", {x: 7.5, y: 27, class: "corner-suit", "text-anchor": "middle"}, suit));
    svg.appendChild(g);
  }
}

/** An <svg> of one Doppelkopf card (60×90 units, scaled by CSS). */
export function cardSVG(code) {
  const rankKey = code.slice(0, -1);
  const suitKey = code.slice(-1);
  const known = RANKS[rankKey] && SUITS[suitKey];
  const red = suitKey === "H" || suitKey === "D";
  const svg = blankCard("french" + (red ? " red" : ""), cardName(code));
  if (!known) {
    svg.appendChild(svgEl("text", {x: 30, y: 50, class: "pip", "text-anchor": "middle"}, code));
    return svg;
  }
  const rank = RANKS[rankKey];
  const suit = SUITS[suitKey];
  corners(svg, rank, suit);
  if (FIGURES[rankKey]) {
    svg.appendChild(svgEl("rect", {x: 14, y: 12, width: 32, height: 66, rx: 3, class: "court-frame"}));
    svg.appendChild(svgEl("text", {x: 30, y: 40, class: "figure", "text-anchor": "middle"}, FIGURES[rankKey]));
    svg.appendChild(svgEl("text", {x: 30, y: 62, class: "court-letter", "text-anchor": "middle"}, rank));
    svg.appendChild(svgEl("text", {x: 30, y: 73, class: "court-suit", "text-anchor": "middle"}, suit));
  } else if (rankKey === "A") {
    svg.appendChild(svgEl("text", {x: 30, y: 58, class: "ace", "text-anchor": "middle"}, suit));
  } else {
    for (const [x, y] of PIPS[rankKey]) {
      svg.appendChild(svgEl("text", {x, y: y + 4.5, class: "pip-small", "text-anchor": "middle"}, suit));
    }
  }
  return svg;
}

/** The back of a card (a hidden card, e.g. another player's hand). */
export function cardBack() {
  const svg = svgEl("svg", {viewBox: "0 0 60 90", class: "card-svg back", "aria-hidden": "true"});
  svg.appendChild(svgEl("rect", {x: 0.75, y: 0.75, width: 58.5, height: 88.5, rx: 5, class: "back-face"}));
  svg.appendChild(svgEl("rect", {x: 5, y: 5, width: 50, height: 80, rx: 3, class: "back-inner"}));
  svg.appendChild(svgEl("path", {d: "M30 14 L48 45 L30 76 L12 45 Z", class: "back-diamond"}));
  return svg;
}
