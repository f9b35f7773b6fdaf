// Small DOM helpers for the table and the per-game parts. Text always goes in through
// textContent.
import {t} from "../i18n.js";

export {svgEl} from "../cards.js";

/** An HTML element with attributes and (optional) text. */
export function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The legal actions of a view (games call the list ``legal`` or ``legal_actions``). */
export function legalOf(view) {
  return (view && (view.legal || view.legal_actions)) || [];
}

/** Plays of a trick that look the same for every game: [{seat, card}]. */
export function plays(list) {
  return (list || []).filter((p) => p && p.card != null).map((p) => ({seat: p.seat, card: String(p.card)}));
}

/** "Waiting for Anna…" while another seat is to move ("" for the player's own turn or nobody). */
export function waitingFor(ctx, seat) {
  return seat != null && seat !== ctx.state.you ? t("Waiting for %(player)s…", {player: ctx.seatName(seat)}) : "";
}
