// Every page (templates/base.html): the guest's "Log out" — a button that opens the warning
// that a guest's games are lost — and, for a signed-in person, the invitation cards and the
// live notices (static/js/notices.js; a page with a socket of its own, body data-live="own",
// hears them there).
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

if (document.getElementById("me")) {
  loadInvitations();
  if (document.body.dataset.live === "notices") listen();
}
