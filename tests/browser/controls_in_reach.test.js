//! Every control needed to finish a move is on screen without scrolling (issue 37, point 3), at
//! 1280×800 and 390×844: capitals with four seats (the units choice and Attack, once a source
//! and a target are chosen on the board) and hexdice's choice of roll after a combined attack.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, SIZES, serverAndBrowser } from './harness.js';
import { pageToAct, playHexdiceOnce, phaseOf, clickRegion, openBotMatch } from './play.js';

/** @typedef {import('playwright-core').Page} Page */

const setup = serverAndBrowser();

/**
 * The controls matching `selector` that are not wholly on screen, or covered where they are (the
 * page as it is scrolled now, and scrolled back to the top).
 * @param {Page} page @param {string} selector
 */
async function outOfReach(page, selector) {
  /** @type {string[]} */
  const problems = [];
  for (const top of [false, true]) {
    if (top) await page.evaluate(() => window.scrollTo(0, 0));
    problems.push(
      ...(await page.$$eval(selector, (controls) => {
        const height = window.innerHeight;
        const width = window.innerWidth;
        return controls.flatMap((control) => {
          const box = control.getBoundingClientRect();
          const name = `${control.textContent?.trim()} at y ${Math.round(box.top)}–${Math.round(box.bottom)} (scroll ${Math.round(window.scrollY)})`;
          if (box.top < 0 || box.bottom > height || box.left < 0 || box.right > width) return [`${name}: off screen`];
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return hit && control.contains(hit) ? [] : [`${name}: covered by ${hit?.className}`];
        });
      }, null)),
    );
  }
  assert.ok((await page.locator(selector).count()) > 0, `${selector} shown`);
  return problems;
}

for (const [size, options] of Object.entries(SIZES)) {
  test(`${size}: capitals with four seats, the units choice and Attack are on screen`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    await enterName(page, size === 'desktop' ? 'Ada' : 'Ari');
    await openBotMatch(page, setup.server.url, { ruleset: 'capitals', levels: ['easy', 'easy', 'easy'] });
    assert.equal(await pageToAct([page], 30_000), page);
    // The capital, then a neighbour to attack: the order waits for its units and Attack.
    await clickRegion(page, '.region.source');
    await clickRegion(page, '.region.target-attack');
    await page.waitForSelector('[data-action=attack]');
    const problems = await outOfReach(page, '.controls button.choice, .controls [data-action=attack]');
    await screenshot(page, `controls-capitals-${size}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${size}: hexdice, the choice of roll after a combined attack is on screen`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    await enterName(page, size === 'desktop' ? 'Bea' : 'Bob');
    await openBotMatch(page, setup.server.url, { ruleset: 'hexdice', levels: ['easy'], options: { board: { layout: 'full' } } });
    const tally = { turns: 0, combined: 0, moves: 0, singles: 0 };
    let chosen = false;
    for (let decisions = 0; decisions < 200 && !chosen; decisions++) {
      if (!(await pageToAct([page], 30_000))) {
        // Over before a combined attack: a new match (the dice decide).
        break;
      }
      if ((await phaseOf(page)) === 'choose_attack') {
        const problems = await outOfReach(page, '.controls button.choice');
        await screenshot(page, `controls-hexdice-${size}`);
        assert.deepEqual(problems, []);
        chosen = true;
      } else {
        await playHexdiceOnce(page, tally);
      }
    }
    assert.ok(chosen, `a combined attack was made (${JSON.stringify(tally)})`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
