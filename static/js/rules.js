// The rules pages (templates/rules/): draw each Doppelkopf and Doppelganger Tricks card with the
// site's card picture (cards.js). The server wrote the card's name inside the element; it stays
// for screen readers (the picture is decoration beside it) and shows if this script does not run.
import {cardSVG} from "./cards.js";

const PICTURED = new Set(["doppelkopf", "doppelganger_tricks"]);
const game = document.getElementById("rules")?.dataset.game;

if (PICTURED.has(game)) {
  for (const node of document.querySelectorAll(".rcard[data-card]")) {
    const svg = cardSVG(node.dataset.card);
    svg.setAttribute("aria-hidden", "true");
    svg.removeAttribute("role");
    node.prepend(svg);
    node.classList.add("drawn");
  }
}
