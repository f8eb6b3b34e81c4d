//! Tells a player it is their turn when they look elsewhere: the tab's title and icon change,
//! and a short sound plays if they switched it on (remembered in localStorage). `notes` also
//! serves the clock's warning sound.

const SOUND_KEY = 'warroom.turn-sound';
const ICON_NORMAL = new URL('../favicon.svg', import.meta.url).href;
/** The icon with a bright dot: someone waits for you. */
const ICON_TURN =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d2330"/>' +
      '<path d="M8 24 16 8l8 16z" fill="#f0e442"/><circle cx="25" cy="7" r="6" fill="#d55e00" stroke="#fff" stroke-width="2"/></svg>',
  );

let myTurn = false;
/** The title without the turn mark. */
let baseTitle = 'warroom';
/** @type {string} */
let turnText = '';

/** @param {string} title the screen's own title @param {string} yourTurnText the mark's words */
export function setTitle(title, yourTurnText) {
  baseTitle = title;
  turnText = yourTurnText;
  apply();
}

/** Whether this player must act now; a change to `true` plays the sound. @param {boolean} now */
export function setTurn(now) {
  if (now === myTurn) return;
  myTurn = now;
  apply();
  if (now && soundOn()) beep();
}

/** @returns {boolean} */
export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === 'on';
}

/** @param {boolean} on */
export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
  if (on) beep();
}

function apply() {
  document.title = myTurn ? `● ${turnText} — ${baseTitle}` : baseTitle;
  const link = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel=icon]'));
  if (link) link.href = myTurn ? ICON_TURN : ICON_NORMAL;
  document.documentElement.dataset.yourTurn = String(myTurn);
}

/** Two short notes (no file to download). */
function beep() {
  notes([660, 880]);
}

/**
 * Short notes one after another, made by Web Audio (no file to download); nothing when the
 * browser has no audio for the page.
 * @param {number[]} frequencies in Hz
 */
export function notes(frequencies) {
  try {
    const audio = new AudioContext();
    const gain = audio.createGain();
    gain.gain.value = 0.08;
    gain.connect(audio.destination);
    frequencies.forEach((frequency, index) => {
      const tone = audio.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(audio.currentTime + index * 0.15);
      tone.stop(audio.currentTime + index * 0.15 + 0.12);
    });
    setTimeout(() => audio.close(), 300 + frequencies.length * 150);
  } catch {
    // No audio here (autoplay policy, no device): the title and icon still change.
  }
}
