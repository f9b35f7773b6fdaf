// The Tournaments page (templates/tournaments.html): live countdowns, and the live notices of
// the signed-in person (a tournament starting: "go to table N") over a WebSocket that says no
// hello (the server tracks every socket of a person for notices, app/lobby/hub.py).
import {startClocks} from "./countdown.js";
import {showNotice} from "./notices.js";

startClocks();

function listen(attempt = 0) {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(scheme + location.host + "/ws");
  ws.onopen = () => { attempt = 0; };
  ws.onmessage = (event) => {
    try { showNotice(JSON.parse(event.data)); } catch { /* not a notice */ }
  };
  ws.onclose = () => setTimeout(() => listen(attempt + 1), Math.min(10000, 500 * 2 ** attempt));
}

if (document.querySelector("meta[name=csrf-token]") && document.getElementById("me")) listen();
