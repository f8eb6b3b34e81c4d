//! Seat colours, shared by every ruleset so a player keeps one colour everywhere; chosen to stay
//! apart for the common kinds of colour blindness and to carry white text.

/** Fill colours by seat number. */
export const SEAT_COLORS = ['#d9534f', '#3a7bd5', '#e0a526', '#3fa66b', '#8e5cc7', '#2fb3b3'];

/** The fill of land no player owns. */
export const NEUTRAL = '#c9c3b4';

/** @param {number | null | undefined} seat */
export function seatColor(seat) {
  return seat === null || seat === undefined ? NEUTRAL : SEAT_COLORS[seat % SEAT_COLORS.length];
}
