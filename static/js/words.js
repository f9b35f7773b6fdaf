// The words of the games in the page's language, for action values, contracts, parties and
// score lines (German: Gesund, Vorbehalt, Hochzeit, Armut, Kreuzsolo, Keine 90, Schwarz …).
// Used by the table (table.js, games/*.js) and the replay viewer.
import {ngettext, t} from "./i18n.js";

export const LABELS = {
  healthy: t("Healthy"), reservation: t("Reservation"), wedding: t("Wedding"), poverty: t("Poverty"),
  throw_in: t("Throw in"), accept: t("Take the poverty"), decline: t("Decline"),
  re: t("Re"), kontra: t("Kontra"), no90: t("No 90"), no60: t("No 60"), no30: t("No 30"), black: t("Black"),
  win: t("Announce win"), double: t("Double"), won: t("Won"), normal: t("Normal game"),
  solo_clubs: t("Clubs solo"), solo_spades: t("Spades solo"), solo_hearts: t("Hearts solo"),
  solo_diamonds: t("Diamonds solo"), solo_queens: t("Queens solo"), solo_jacks: t("Jacks solo"),
  solo_fleshless: t("Fleshless solo"), solo_kings: t("Kings solo"),
  solo_queens_jacks: t("Queens-and-jacks solo"), solo_kings_queens: t("Kings-and-queens solo"),
  solo_kings_jacks: t("Kings-and-jacks solo"), solo_kings_queens_jacks: t("Kings-queens-and-jacks solo"),
  solo_pure_clubs: t("Pure clubs solo"), solo_pure_spades: t("Pure spades solo"),
  solo_pure_hearts: t("Pure hearts solo"), solo_pure_diamonds: t("Pure diamonds solo"),
  redeal: t("Redeal"), silent_wedding: t("Silent wedding"), silent_solo: t("Silent solo"),
};
// how a match ends (app.rooms.match.EndCondition), the same words everywhere: the New Game
// form, the lobby, the table's header, the score sheet, the result, the replay
const END_TEXTS = {
  deals: (n) => ngettext("%(num)s deal", "%(num)s deals", n),
  coins: (n) => ngettext("first to %(num)s golden coin", "first to %(num)s golden coins", n),
  rounds: (n) => ngettext("%(num)s round, one per player", "%(num)s rounds, one per player", n),
  penalty: (n) => ngettext("up to %(num)s point", "up to %(num)s points", n),
};

/** A match's end condition in words ({kind, target, cap}): "8 deals", "first to 5 golden
 * coins", "3 rounds, one per player", "up to 100 points"; a cap (development and test tables)
 * is stated: "first to 5 golden coins, at most 2 deals"; "" when unknown. */
export function endText(end) {
  const words = end && END_TEXTS[end.kind];
  if (!words) return "";
  return end.cap ? ngettext("%(end)s, at most %(num)s deal", "%(end)s, at most %(num)s deals", end.cap, {end: words(end.target)})
    : words(end.target);
}

/** Where a match stands in its end's unit, for the table's header: "Deal 3 of 8",
 * "Round 2 · first to 5 golden coins", "Round 2 of 3", "Round 4 · up to 100 points".
 * ``number``: the deal or round being played (redeals keep their number). */
export function progressText(end, number) {
  return progressLine(end, number, []);
}

/** The round, ``parts``, then the goal, joined: "Round 2 · Wedding · first to 5 golden coins". */
function progressLine(end, number, parts) {
  return [roundText(end, number), ...parts, goalText(end)].filter(Boolean).join(" · ");
}

/** The deal or round being played: "Deal 3 of 8", "Round 2 of 3", "Round 2". */
function roundText(end, number) {
  if (end && end.kind === "deals") return t("Deal %(number)s of %(deals)s", {number, deals: end.target});
  if (end && end.kind === "rounds") return t("Round %(number)s of %(rounds)s", {number, rounds: end.cap || end.target});
  return t("Round %(number)s", {number});
}

/** The goal of a match that no count of deals or rounds states: "first to 5 golden coins",
 * "up to 100 points"; "" for the others. */
function goalText(end) {
  return end && end.kind !== "deals" && end.kind !== "rounds" ? endText(end) : "";
}

/** The table's status line (#info): where the match stands, then ``parts`` (what changes in a
 * deal: its phase, contract, trick or duel), then the match's goal, which changes least, so
 * that a phone's two lines cut that first: "Round 2 · Wedding · Duel 5 · first to 5 golden
 * coins". */
export function statusLine(state, parts) {
  const {end, number} = matchProgress(state);
  return progressLine(end, number, parts);
}

/** The end condition and the current deal's number of a table state (before the first deal
 * the table's own end, deal 1). */
export function matchProgress(state) {
  const scores = state.scores || {};
  const end = scores.end || (state.table && state.table.end) || null;
  return {end, number: scores.current || (scores.played || 0) + 1};
}

export const TYPE_LABELS = {poverty_give: t("Give the selected cards"), poverty_return: t("Return the selected cards")};

/** The words for an action value, contract or party: "solo_clubs" → "Clubs solo" / "Kreuzsolo".
 * A value without words (a new game's) is shown as it is, underscores as spaces. */
export function label(value) {
  if (LABELS[value]) return LABELS[value];
  return String(value).replaceAll("_", " ");
}

// a computer player's level in its name: "Computer 2 (beginner)" / "Computer 2 (Anfänger)"
const LEVELS = {beginner: t("beginner"), intermediate: t("intermediate"), expert: t("expert")};

/** A computer level in words: "expert" → "Experte". */
export function levelName(level) {
  return LEVELS[level] || level || "";
}

/** A seat's player in words: a person's name, or "Computer 2 (Anfänger)" for a computer
 * player ({seat, name, bot: level}). */
/** A person's name as shown in the page's language: a guest's stored name "Guest-866596"
 * (unique and stable) reads "Gast-866596" in German (app/i18n/names.py person_name). */
export function personName(name) {
  const guest = /^Guest-(\d+)$/.exec(name || "");
  return guest ? t("Guest-%(number)s", {number: guest[1]}) : (name || "");
}

export function playerName(info) {
  if (!info || !info.bot) return info ? personName(info.name) : "";
  return t("Computer %(number)s (%(level)s)", {number: info.seat + 1, level: LEVELS[info.bot] || info.bot});
}

// Doppelkopf score lines (app/games/doppelkopf/scoring.py reasons), as players say them
const REASONS = {
  won: t("Won"),
  no90: t("Opponents under 90"), no60: t("Opponents under 60"), no30: t("Opponents under 30"), black: t("Black (opponents took no trick)"),
  announced_re: t("Re announced"), announced_kontra: t("Kontra announced"),
  announced_no90: t("No 90 announced"), announced_no60: t("No 60 announced"),
  announced_no30: t("No 30 announced"), announced_black: t("Black announced"),
  against_no90: t("120 against no 90"), against_no60: t("90 against no 60"),
  against_no30: t("60 against no 30"), against_black: t("30 against black"),
  against_the_elders: t("Against the elders"), doppelkopf: t("Doppelkopf (a trick of 40 or more)"),
  fox_caught: t("Fox caught"), charlie: t("Charlie (last trick)"), charlie_caught: t("Charlie caught"),
  no_back_door: t("No back door"),
};

/** The words for a score line's reason alone: "announced_no90" → "No 90 announced". */
export function reasonWords(reason) {
  return REASONS[reason] || label(reason);
}

/** A score line's words with the party it counts for, party first so that the reason's own
 * brackets never stack: ("charlie", "kontra") → "Kontra: Charlie (last trick)" / "Kontra:
 * Karlchen (letzter Stich)"; without a party the reason alone. */
export function partyReason(reason, party) {
  const words = reasonWords(reason);
  return party ? t("%(party)s: %(reason)s", {party: label(party), reason: words}) : words;
}

/** One score line as players say it: {reason: "announced_no90", party: "re", points: 1} →
 * "Re: Keine 90 angesagt, +1" / "Re: No 90 announced, +1" (no brackets of its own: a reason
 * may hold some, "Charlie (last trick)"). */
export function scoreLine(line) {
  const words = partyReason(line.reason, line.party);
  if (line.points == null) return words;
  return t("%(line)s, %(points)s", {line: words, points: (line.points > 0 ? "+" : "") + line.points});
}

/** A number of cards in words: "1 card", "3 cards" / "1 Karte", "3 Karten". */
export function cardCount(n) {
  return ngettext("%(num)s card", "%(num)s cards", n);
}

/** A seat's counts with the right number ({hand_sizes, tricks_won, points_won, phase} of a
 * view, seat index) as badges → [{text: "1 card"}, {text: "3 tricks"}] / "1 Karte", "3 Stiche";
 * points only once the deal is done, with a short form for narrow plates ("157 pts"). */
export function seatCounts(view, seat) {
  const words = [];
  if (!view) return words;
  if (view.hand_sizes) words.push({text: cardCount(view.hand_sizes[seat])});
  if (view.tricks_won) words.push({text: ngettext("%(num)s trick", "%(num)s tricks", view.tricks_won[seat])});
  if (view.points_won && view.phase === "done") {
    const points = view.points_won[seat];
    // a phone's narrow plate: "157 pts" ("157 Aug.") where "157 points" was cut to "157 poi…"
    words.push({text: ngettext("%(num)s point", "%(num)s points", points),
      short: ngettext("%(num)s pt", "%(num)s pts", points)});
  }
  return words;
}

/** The counted deal or round in words, the same on the table, the score sheet, the replay and
 * the analysis: "Deal 2" (Doppelkopf) or "Round 2" (the games whose plugin says roundWord
 * "round"). */
export function roundName(plugin, number) {
  return plugin.roundWord === "round" ? t("Round %(number)s", {number}) : t("Deal %(number)s", {number});
}

/** An action of a seat in words, as the replay and the analysis say it: a card's name ("navy
 * 8, leading pink" for a navy card led as another suit), "a bid of 3", "discarding card 11 at
 * L2", "announcing Re", "partner: Anna", a declaration in the game's words. opts.card: the card
 * an action moves without naming it (a Doppio discard or catch); opts.seatName(seat). */
export function actionWords(plugin, action, opts = {}) {
  const {card = null, seatName = null} = opts;
  if (action.card != null) {
    const name = plugin.cardName(String(action.card));
    if (!action.suit) return name;
    const suit = plugin.suitName ? plugin.suitName(action.suit) : label(action.suit);
    return t("%(card)s, leading %(suit)s", {card: name, suit});
  }
  if (action.type === "bid") return t("a bid of %(bid)s", {bid: action.value});
  if (action.type === "discard") {
    return card != null ? t("discarding %(card)s at %(position)s", {card: plugin.cardName(String(card)), position: action.position})
      : t("discarding %(position)s", {position: action.position});
  }
  if (action.type === "catch") return card != null ? t("catching %(card)s", {card: plugin.cardName(String(card))}) : t("catching");
  if (action.type === "pass") return t("passing");
  if (action.type === "doppio") return t("declaring Doppio");
  if (action.type === "announce") return t("announcing %(value)s", {value: label(action.value)});
  if (action.partner != null) {
    return t("Partner: %(player)s", {player: seatName ? seatName(action.partner) : t("Seat %(number)s", {number: action.partner + 1})});
  }
  if (plugin.actionLabel) return plugin.actionLabel(action);
  return label(action.value ?? action.type);
}
