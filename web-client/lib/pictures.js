//! A small picture of each game for the landing page and the rules pages, drawn with the board's
//! own hexes, dice and seat colours (no image files to download).

import { s } from './dom.js';
import { centre, dieFace, hexPoints } from './board.js';
import { seatColor, NEUTRAL } from './colors.js';

/** A flower of seven cells around the origin, then the ring around it. */
const FLOWER = [
  { q: 0, r: 0 }, { q: 1, r: 0 }, { q: 1, r: -1 }, { q: 0, r: -1 }, { q: -1, r: 0 }, { q: -1, r: 1 }, { q: 0, r: 1 },
];
const RING = [
  { q: 2, r: 0 }, { q: 2, r: -1 }, { q: 2, r: -2 }, { q: 1, r: -2 }, { q: 0, r: -2 }, { q: -1, r: -1 },
  { q: -2, r: 0 }, { q: -2, r: 1 }, { q: -2, r: 2 }, { q: -1, r: 2 }, { q: 0, r: 2 }, { q: 1, r: 1 },
];

/** @param {{q: number, r: number}} cell @param {string} fill */
const hex = (cell, fill) => s('polygon', { points: hexPoints(cell), fill, stroke: '#2b2b2b', 'stroke-width': 0.5 });

/**
 * The picture of `ruleset` (an SVG with a text alternative given by the caller).
 * @param {string} ruleset
 */
export function gamePicture(ruleset) {
  const svg = s('svg', { class: 'game-picture', viewBox: '-22 -20 44 40', 'aria-hidden': 'true' });
  if (ruleset === 'hexdice') {
    const faces = [5, 3, 6, 2, 4, 1, 6];
    FLOWER.forEach((cell, i) => {
      const seat = i % 2;
      const [x, y] = centre(cell);
      svg.append(hex(cell, seatColor(seat)), s('g', { transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})` }, dieFace(faces[i], { size: 8 })));
    });
  } else if (ruleset === 'capitals') {
    [...FLOWER, ...RING].forEach((cell, i) => {
      const owner = i === 0 ? null : i < 4 ? 0 : i < 7 ? 1 : i % 3 === 0 ? 0 : i % 3 === 1 ? 1 : null;
      svg.append(hex(cell, owner === null ? NEUTRAL : seatColor(owner)));
    });
    svg.append(
      s('text', { x: centre(FLOWER[2])[0], y: centre(FLOWER[2])[1] + 2.5, 'text-anchor': 'middle', 'font-size': 7, fill: '#000' }, '★'),
      s('text', { x: centre(FLOWER[5])[0], y: centre(FLOWER[5])[1] + 2.5, 'text-anchor': 'middle', 'font-size': 7, fill: '#fff' }, '★'),
    );
  } else {
    [...FLOWER, ...RING].forEach((cell, i) => svg.append(hex(cell, seatColor([0, 1, 2, 3][(i * 7) % 4]))));
  }
  return svg;
}
