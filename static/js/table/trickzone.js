// The cards of a trick as the table shows them: each card in front of the player who played it
// (at-bottom, at-left, at-top, at-right, by where that player sits), the lead first, the winner's
// card marked in a completed trick and annihilated cards (Doppelganger Tricks) marked as such.
// Used by the trick zone in the middle and by the Last trick view.
import {t} from "../i18n.js";
import {el} from "../games/common.js";
import {sideOf} from "./seats.js";

/** A card figure: data-card on it (and data-played-by in a trick), the game's picture. */
export function cardFigure(plugin, code, attrs = {}) {
  const fig = el("figure", {class: "card-fig", "data-card": String(code), ...attrs});
  fig.append(plugin.face(String(code)));
  return fig;
}

/**
 * The figures of ``plays`` ([{seat, card, note?}]) for the player at ``bottom``; ``held``: a
 * completed trick ({winner, gone: [indices], note}) or null. With ``frame`` the figures come in
 * their own fixed-size box (the Last trick view), else as a list for the trick zone.
 */
export function trickFigures(ctx, plugin, plays, held, bottom, frame = false) {
  const players = ctx.state.table.players;
  const figures = plays.map((play, order) => {
    const side = sideOf(play.seat, bottom, players);
    const fig = cardFigure(plugin, play.card, {"data-played-by": String(play.seat)});
    fig.classList.add("trick-card", `at-${side}`);
    fig.style.zIndex = String(order + 1);
    if (order === 0) fig.classList.add("lead");
    const gone = held && (held.gone || []).includes(order);
    if (held && held.winner === play.seat && !gone) fig.classList.add("winner");
    if (gone) {
      fig.classList.add("annihilated");
      fig.append(el("span", {class: "gone-mark"}, t("annihilated")));
    }
    const who = ctx.seatName(play.seat);
    fig.append(el("figcaption", {class: frame ? "who" : "visually-hidden"},
      frame ? who : `${who}: ${plugin.cardName(play.card)}${play.note ? ` (${play.note})` : ""}`));
    if (play.note) fig.append(el("span", {class: "play-note"}, play.note));
    return fig;
  });
  if (!frame) return figures;
  const box = el("div", {class: "trick mini", "data-players": String(players)});
  box.append(...figures);
  return box;
}
