// The refusal of a second live seat (app/lobby/service.py SeatTaken: 409 with ``table``):
// "Return to table N" (a link) and "Leave it" (hands that seat over, then ``retry``) — the
// same offer as templates/_seat_taken.html, for the answers that come by fetch (Play now, an
// invitation card's Join).
import {t} from "./i18n.js";

/** The offer for ``table``; ``onError(text)`` shows a refused leave. */
export function seatTakenOffer(table, retry, onError) {
  const csrf = document.querySelector("meta[name=csrf-token]").content;
  const back = document.createElement("a");
  back.className = "button";
  back.id = "seat-taken-return";
  back.href = `/tables/${table}`;
  back.textContent = t("Return to table %(table)s", {table});
  const leave = document.createElement("button");
  leave.type = "button";
  leave.className = "secondary";
  leave.id = "seat-taken-leave";
  leave.textContent = t("Leave it");
  leave.addEventListener("click", async () => {
    const left = await fetch(`/api/tables/${table}/leave`, {method: "POST", body: "{}",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}});
    if (left.ok) { offer.remove(); retry(); }
    else onError((await left.json().catch(() => ({}))).detail || t("Not possible now."));
  });
  const offer = document.createElement("div");
  offer.className = "seat-taken";
  offer.dataset.table = table;
  offer.append(back, " ", leave);
  return offer;
}
