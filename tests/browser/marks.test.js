//! What can be chosen stands out on every seat colour, and seats differ by more than colour
//! (issue 37, point 4), at 1280×800 and 390×844. Computed from the page as drawn: the strokes of
//! the source, target and selection marks, of which one at least contrasts 3:1 with each seat
//! colour and with neutral land, drawn at least 2 px wide, steady (no pulse); and each owned
//! region carries its owner's symbol.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, SIZES, serverAndBrowser } from './harness.js';
import { pageToAct, clickRegion, openBotMatch } from './play.js';
import { contrast, hexOf } from './colour.js';
import { SEAT_COLORS, SEAT_SYMBOLS, NEUTRAL } from '../../web-client/lib/colors.js';

/** @typedef {import('playwright-core').Page} Page */

const setup = serverAndBrowser();

/**
 * The strokes that draw the first mark of `kind` on the board: colour, width on screen (px),
 * opacity and animation, of each of its lines.
 * @param {Page} page @param {string} kind
 */
function strokesOf(page, kind) {
  return page.$eval(`.board .marks .${kind}`, (mark) => {
    const board = /** @type {SVGSVGElement} */ (mark.closest('svg'));
    const unit = board.getBoundingClientRect().width / board.viewBox.baseVal.width;
    const lines = mark.matches('path') ? [mark] : [...mark.querySelectorAll('path')];
    return lines.map((line) => {
      const style = getComputedStyle(line);
      const width = parseFloat(style.strokeWidth);
      return {
        colour: style.stroke,
        px: style.vectorEffect === 'non-scaling-stroke' ? width : width * unit,
        opacity: Number(style.opacity) * Number(getComputedStyle(mark).opacity),
        animated: style.animationName !== 'none' || getComputedStyle(mark).animationName !== 'none',
      };
    });
  });
}

for (const [size, options] of Object.entries(SIZES)) {
  test(`${size}: sources, targets and the selection contrast 3:1 with every seat colour; each seat has a symbol`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    await enterName(page, size === 'desktop' ? 'Ada' : 'Ari');
    await openBotMatch(page, setup.server.url, { ruleset: 'capitals', levels: ['easy', 'easy', 'easy'] });
    assert.equal(await pageToAct([page], 30_000), page);

    /** @type {Record<string, Awaited<ReturnType<typeof strokesOf>>>} */
    const marks = { source: await strokesOf(page, 'source') };
    await clickRegion(page, '.region.source');
    await page.waitForSelector('.board .marks .target');
    marks.target = await strokesOf(page, 'target');
    marks.selected = await strokesOf(page, 'selected');
    await screenshot(page, `marks-capitals-${size}`);

    /** @type {string[]} */
    const problems = [];
    for (const [kind, strokes] of Object.entries(marks)) {
      for (const stroke of strokes) {
        if (stroke.animated) problems.push(`${kind} pulses`);
        if (stroke.opacity < 1) problems.push(`${kind} is drawn at opacity ${stroke.opacity}`);
      }
      for (const fill of [...SEAT_COLORS, NEUTRAL]) {
        const visible = strokes.filter((stroke) => stroke.px >= 2 && hexOf(stroke.colour) !== null);
        const best = Math.max(0, ...visible.map((stroke) => contrast(/** @type {string} */ (hexOf(stroke.colour)), fill)));
        if (best < 3) problems.push(`${kind} on ${fill}: ${best.toFixed(2)}:1 (${strokes.map((stroke) => `${stroke.colour} ${stroke.px.toFixed(1)}px`).join(', ')})`);
      }
    }
    assert.deepEqual(problems, []);

    // Every owned region shows its owner's symbol on the board, not only its colour.
    const owned = await page.$$eval('.board [data-hatch]', (hatches) =>
      hatches.filter((hatch) => /** @type {HTMLElement} */ (/** @type {unknown} */ (hatch)).dataset.owner).map((hatch) => ({
        region: hatch.getAttribute('data-hatch'),
        owner: Number(/** @type {HTMLElement} */ (/** @type {unknown} */ (hatch)).dataset.owner),
        symbol: document.querySelector(`.board [data-label="${hatch.getAttribute('data-hatch')}"] [data-seat-symbol]`)?.textContent ?? null,
      })),
    );
    assert.equal(new Set(owned.map((region) => region.owner)).size, 4, `four seats own land: ${JSON.stringify(owned)}`);
    for (const region of owned) assert.equal(region.symbol, SEAT_SYMBOLS[region.owner], `region ${region.region} of seat ${region.owner}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
