// Small sound effects made with WebAudio oscillators (no sound files): your turn, a card
// played, a trick won. Silent when the settings switch sound off or the browser has no audio.
import {settings} from "./settings.js";

let audio = null;

/** The AudioContext, made on the first user gesture (browsers refuse it before). */
export function unlockAudio() {
  if (audio || !(window.AudioContext || window.webkitAudioContext)) return;
  try { audio = new (window.AudioContext || window.webkitAudioContext)(); } catch { audio = null; }
}

// tones: [frequency Hz, start s, length s]
const TONES = {
  turn: [[660, 0, 0.12], [880, 0.13, 0.16]],
  card: [[220, 0, 0.06]],
  trick: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.18]],
};

/** Play one of the effects "turn", "card", "trick" (if sound is on). */
export function play(name) {
  if (!audio || !settings().sound || !TONES[name]) return;
  const now = audio.currentTime;
  for (const [freq, start, length] of TONES[name]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}
