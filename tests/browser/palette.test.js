//! The seat palette is told apart by everyone (issue 10, point 7): computed, not eyeballed. Each
//! pair of seat colours stays at least MIN_DELTA_E apart (CIEDE2000) for normal vision and under
//! simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, full
//! severity), and the ink drawn on each seat colour contrasts at least 4.5:1 (WCAG 2).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SEAT_COLORS, SEAT_INKS, SEAT_SYMBOLS, NEUTRAL, NEUTRAL_INK } from '../../web-client/lib/colors.js';
import { linear, apply, lab, deltaE2000, contrast } from './colour.js';

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
