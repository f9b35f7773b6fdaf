// The hand in the order players hold it: trumps first, highest first (the view's ``trumps``
// list, which is the seat's own knowledge of the contract), then the plain suits ♣ ♠ ♥ ♦,
// each from ace down. A game without a trump list keeps the server's order.
const SUIT_ORDER = "CSHD";
const RANK_ORDER = "ATKQJ9";

/** A sorted copy of ``hand`` (card codes like "QC") for the trump list ``trumps`` (high first). */
export function sortHand(hand, trumps) {
  if (!Array.isArray(trumps) || !trumps.length) return [...hand];
  const key = (card) => {
    const trump = trumps.indexOf(card);
    if (trump >= 0) return [0, trump, 0];
    const suit = SUIT_ORDER.indexOf(card.slice(-1));
    return [1, suit < 0 ? 9 : suit, RANK_ORDER.indexOf(card.slice(0, -1))];
  };
  return [...hand].sort((a, b) => {
    const ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2];
  });
}
