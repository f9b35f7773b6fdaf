// A WebSocket to /ws that says hello, remembers the last seq, and reconnects by itself with
// back-off (0.5 s doubling to 10 s, with jitter), resuming from the last seq it saw.
//
// Table sockets ask for deltas (hello.deltas): events carry a patch of the seat's state, which
// this class applies to the state it holds and hands on as msg.state, so every onMessage sees
// the whole state as before. An event that does not follow (another epoch, a seq gap) or whose
// patch does not apply makes it ask for a snapshot again (a new hello without last_seq).
import {applyPatch} from "./patch.js";
import {t} from "./i18n.js";

export class Socket {
  /**
   * @param {object} hello  the hello message without last_seq/epoch, e.g. {type:"hello", table:7}
   * @param {(msg:object)=>void} onMessage  every server message
   * @param {(text:string, ok:boolean)=>void} onStatus  "connected", "reconnecting…", …
   */
  constructor(hello, onMessage, onStatus) {
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.lastSeq = null;
    this.epoch = null;
    this.state = null;
    this.resyncing = false;
    this.attempts = 0;
    this.stopped = false;
    this.ws = null;
    Socket.current = this;  // the page's socket, for its other modules (chat.js, turnclock.js)
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    // a table's socket names the table in its URL: the load balancer sends every socket of a
    // table to the same server process (docs/scaling.md); the hello says it again
    const route = this.hello.table != null ? `?table=${encodeURIComponent(this.hello.table)}` : "";
    const ws = new WebSocket(scheme + location.host + "/ws" + route);
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.onStatus(t("connected"), true);
      this.resyncing = false;
      ws.send(JSON.stringify({...this.hello, deltas: true, last_seq: this.lastSeq, epoch: this.epoch}));
    };
    ws.onmessage = (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "snapshot" || msg.type === "event") {
        if (!this.track(msg)) return;
        this.lastSeq = msg.seq;
        this.epoch = msg.epoch;
      }
      if (msg.type === "closed" && !msg.reconnect) {
        this.stopped = true;
        this.onStatus(msg.reason === "taken_over"
          ? t("This seat is open in another tab or window.") : t("Disconnected."), false);
      }
      this.onMessage(msg);
      // every server message, for the page's other modules
      window.dispatchEvent(new CustomEvent("dr-message", {detail: msg}));
    };
    ws.onclose = () => {
      if (this.stopped) return;
      this.onStatus(t("reconnecting…"), false);
      const delay = Math.min(10000, 500 * 2 ** this.attempts) * (0.75 + Math.random() / 2);
      this.attempts += 1;
      setTimeout(() => this.connect(), delay);
    };
  }

  /**
   * Keep this.state up to date; fills msg.state for a patch event. False: the message cannot
   * be used (we wait for a snapshot, asked for here).
   */
  track(msg) {
    if (msg.type === "snapshot") {
      this.resyncing = false;
      this.state = msg.state;
      return true;
    }
    if (this.resyncing) return false;
    if (!("patch" in msg)) {
      this.state = msg.state;
      return true;
    }
    try {
      if (msg.epoch !== this.epoch || msg.seq !== this.lastSeq + 1) throw new Error("out of order");
      this.state = applyPatch(this.state, msg.patch);
    } catch (err) {
      console.warn("state patch not applied; asking for a snapshot", err);
      this.resync();
      return false;
    }
    msg.state = this.state;
    return true;
  }

  /** Ask for a fresh snapshot on the open socket (a hello without last_seq). */
  resync() {
    this.resyncing = true;
    this.lastSeq = null;
    this.epoch = null;
    this.send({...this.hello, deltas: true, last_seq: null, epoch: null});
  }

  /** Connect again after the server stopped this socket (e.g. the seat was taken over). */
  resume() {
    this.stopped = false;
    this.attempts = 0;
    this.connect();
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }
}
