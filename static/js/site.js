// Every page (templates/base.html): the guest's "Log out" — a button that opens the warning
// that a guest's games are lost — and, for a signed-in person, the invitation cards and the
// live notices (static/js/notices.js; a page with a socket of its own, body data-live="own",
// hears them there).
import {t} from "./i18n.js";
import {listen, loadInvitations} from "./notices.js";

const logout = document.getElementById("guest-logout-button");
const warning = document.getElementById("guest-logout-box");
if (logout && warning) {
  const show = (open) => {
    warning.hidden = !open;
    logout.setAttribute("aria-expanded", String(open));
  };
  logout.addEventListener("click", () => {
    show(warning.hidden);
    if (!warning.hidden) document.getElementById("guest-logout-register")?.focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !warning.hidden) { show(false); logout.focus(); }
  });
  document.addEventListener("click", (event) => {
    if (!warning.hidden && !event.target.closest("#guest-logout")) show(false);
  });
}

// "You are playing at table N — return" on every page while the person has a running seat
// (GET /api/me's ``playing``): the lobby has a live banner of its own (#playing-banner) and the
// table's own page needs none.
async function showPlaying() {
  if (document.getElementById("playing-banner") || document.getElementById("seat-taken")) return;
  const response = await fetch("/api/me", {headers: {Accept: "application/json"}}).catch(() => null);
  if (!response || !response.ok) return;
  const {playing} = await response.json().catch(() => ({}));
  if (!playing || location.pathname === `/tables/${playing}`) return;
  const banner = document.createElement("p");
  banner.className = "playing-banner site-playing";
  banner.id = "site-playing";
  const link = document.createElement("a");
  link.href = `/tables/${playing}`;
  link.id = "site-playing-return";
  link.textContent = t("You are playing at table %(table)s — return", {table: playing});
  banner.append(link);
  // another table's page: in its notices bar under the toolbar (never over the table)
  const place = document.querySelector(".table-notices") || document.querySelector("main");
  if (place) place.prepend(banner); else document.body.prepend(banner);
}

if (document.getElementById("me")) {
  showPlaying();
  loadInvitations();
  if (document.body.dataset.live === "notices") listen();
}
