//! The seat palette is told apart by everyone (issue 10, point 7): computed, not eyeballed. Each
//! pair of seat colours stays at least MIN_DELTA_E apart (CIEDE2000) for normal vision and under
//! simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, full
//! severity), and the ink drawn on each seat colour contrasts at least 4.5:1 (WCAG 2).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SEAT_COLORS, SEAT_INKS, SEAT_SYMBOLS, NEUTRAL, NEUTRAL_INK } from '../../web-client/lib/colors.js';

/** The smallest colour difference allowed between two seats, in any of the four visions. */
const MIN_DELTA_E = 10;

/** Machado et al. 2009 simulation matrices (severity 1.0), on linear RGB. */
const DEFICIENCIES = /** @type {Record<string, number[][]>} */ ({
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
});

/** @param {string} hex @returns {number[]} linear RGB, 0..1 */
function linear(hex) {
  return [1, 3, 5].map((at) => {
    const c = parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
}

/** @param {number[]} rgb linear @param {number[][]} m */
const apply = (rgb, m) => m.map((row) => Math.min(1, Math.max(0, row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2])));

/** CIE Lab (D65) of a linear RGB colour. @param {number[]} rgb */
function lab([r, g, b]) {
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (/** @type {number} */ t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIEDE2000 colour difference. @param {number[]} a @param {number[]} b */
export function deltaE2000([l1, a1, b1], [l2, a2, b2]) {
  const rad = Math.PI / 180;
  const c1 = Math.hypot(a1, b1);
  const c2 = Math.hypot(a2, b2);
  const cMean = (c1 + c2) / 2;
  const g = 0.5 * (1 - Math.sqrt(cMean ** 7 / (cMean ** 7 + 25 ** 7)));
  const a1p = (1 + g) * a1;
  const a2p = (1 + g) * a2;
  const c1p = Math.hypot(a1p, b1);
  const c2p = Math.hypot(a2p, b2);
  const hue = (/** @type {number} */ bb, /** @type {number} */ aa) => {
    const h = Math.atan2(bb, aa) / rad;
    return h < 0 ? h + 360 : h;
  };
  const h1p = hue(b1, a1p);
  const h2p = hue(b2, a2p);
  const dL = l2 - l1;
  const dC = c2p - c1p;
  let dh = 0;
  if (c1p * c2p !== 0) {
    dh = h2p - h1p;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(c1p * c2p) * Math.sin((dh / 2) * rad);
  const lMean = (l1 + l2) / 2;
  const cMeanP = (c1p + c2p) / 2;
  let hMean = h1p + h2p;
  if (c1p * c2p !== 0) {
    hMean = Math.abs(h1p - h2p) > 180 ? (h1p + h2p + (h1p + h2p < 360 ? 360 : -360)) / 2 : (h1p + h2p) / 2;
  }
  const t =
    1 - 0.17 * Math.cos((hMean - 30) * rad) + 0.24 * Math.cos(2 * hMean * rad) +
    0.32 * Math.cos((3 * hMean + 6) * rad) - 0.2 * Math.cos((4 * hMean - 63) * rad);
  const sl = 1 + (0.015 * (lMean - 50) ** 2) / Math.sqrt(20 + (lMean - 50) ** 2);
  const sc = 1 + 0.045 * cMeanP;
  const sh = 1 + 0.015 * cMeanP * t;
  const rt = -2 * Math.sqrt(cMeanP ** 7 / (cMeanP ** 7 + 25 ** 7)) * Math.sin(60 * Math.exp(-(((hMean - 275) / 25) ** 2)) * rad);
  return Math.sqrt((dL / sl) ** 2 + (dC / sc) ** 2 + (dH / sh) ** 2 + rt * (dC / sc) * (dH / sh));
}

/** WCAG 2 contrast ratio. @param {string} x @param {string} y */
export function contrast(x, y) {
  const luminance = (/** @type {string} */ hex) => {
    const [r, g, b] = linear(hex);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
  return (hi + 0.05) / (lo + 0.05);
}

test('deltaE2000 matches the published test pairs (Sharma, Wu and Dalal 2005)', () => {
  assert.equal(deltaE2000([50, 2.6772, -79.7751], [50, 0, -82.7485]).toFixed(4), '2.0425');
  assert.equal(deltaE2000([50, -1.3802, -84.2814], [50, 0, -82.7485]).toFixed(4), '1.0000');
  assert.equal(deltaE2000([60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387]).toFixed(4), '1.2644');
});

test('every pair of seat colours stays apart for normal vision and the three common deficiencies', () => {
  const visions = { normal: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], ...DEFICIENCIES };
  const colours = [...SEAT_COLORS, NEUTRAL];
  /** @type {string[]} */
  const report = [];
  for (const [vision, matrix] of Object.entries(visions)) {
    let smallest = Infinity;
    for (let i = 0; i < colours.length; i++) {
      for (let j = i + 1; j < colours.length; j++) {
        const distance = deltaE2000(lab(apply(linear(colours[i]), matrix)), lab(apply(linear(colours[j]), matrix)));
        smallest = Math.min(smallest, distance);
        assert.ok(distance >= MIN_DELTA_E, `${vision}: ${colours[i]} and ${colours[j]} are only ΔE ${distance.toFixed(1)} apart`);
      }
    }
    report.push(`${vision} ${smallest.toFixed(1)}`);
  }
  console.log(`smallest ΔE2000 between seats: ${report.join(', ')}`);
});

test('text on every seat colour and on neutral land contrasts at least 4.5:1', () => {
  assert.equal(SEAT_INKS.length, SEAT_COLORS.length);
  SEAT_COLORS.forEach((colour, seat) => {
    const ratio = contrast(colour, SEAT_INKS[seat]);
    assert.ok(ratio >= 4.5, `seat ${seat}: ${SEAT_INKS[seat]} on ${colour} is ${ratio.toFixed(2)}:1`);
  });
  assert.ok(contrast(NEUTRAL, NEUTRAL_INK) >= 4.5);
});

test('each seat has its own symbol besides its colour', () => {
  assert.equal(new Set(SEAT_SYMBOLS).size, SEAT_COLORS.length);
});
