//! Seat colours, shared by every ruleset so a player keeps one colour everywhere. The palette is
//! Okabe and Ito's, chosen to stay apart under the common colour-vision deficiencies (protanopia,
//! deuteranopia, tritanopia); tests/browser/palette.test.js computes the distances and the text
//! contrast. Colour is never the only cue: each seat also has a symbol and a hatching pattern.

/** Fill colours by seat number: vermillion, blue, yellow, bluish green, reddish purple, sky blue. */
export const SEAT_COLORS = ['#d55e00', '#0072b2', '#f0e442', '#009e73', '#cc79a7', '#56b4e9'];

/** Text drawn on a seat's colour: whichever of dark ink and white contrasts at least 4.5:1. */
export const SEAT_INKS = ['#000000', '#ffffff', '#000000', '#000000', '#000000', '#000000'];

/** A symbol per seat, shown next to the colour (player list, seat chips, board badges). */
export const SEAT_SYMBOLS = ['●', '▲', '■', '◆', '✚', '✖'];

/** The fill of land no player owns. */
export const NEUTRAL = '#c9c3b4';

/** The ink on neutral land. */
export const NEUTRAL_INK = '#000000';

/** @param {number | null | undefined} seat */
export function seatColor(seat) {
  return seat === null || seat === undefined ? NEUTRAL : SEAT_COLORS[seat % SEAT_COLORS.length];
}

/** @param {number | null | undefined} seat */
export function seatInk(seat) {
  return seat === null || seat === undefined ? NEUTRAL_INK : SEAT_INKS[seat % SEAT_INKS.length];
}

/** @param {number | null | undefined} seat */
export function seatSymbol(seat) {
  return seat === null || seat === undefined ? '' : SEAT_SYMBOLS[seat % SEAT_SYMBOLS.length];
}
