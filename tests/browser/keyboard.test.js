//! Keyboard and screen reader (issue 37, point 9), at 1280×800 and 390×844: a match against the
//! computer started and played with the keyboard alone: focus never falls to the page's body
//! when the match appears or after a move or "End turn", and the list under the board (every
//! region with its owner and units) picks a move; and the page's quiet text, links and state
//! badges contrast at least 4.5:1 with what is behind them (computed from the page).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, SIZES, serverAndBrowser } from './harness.js';
import { createRoomByApi, pageToAct, seqOf } from './play.js';
import { contrast, hexOf } from './colour.js';

/** @typedef {import('playwright-core').Page} Page */

const setup = serverAndBrowser();

/** Where focus is: the body, or the element's tag and text. @param {Page} page */
const focusIs = (page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return !element || element === document.body ? 'body' : `${element.tagName} ${element.textContent?.slice(0, 40)} in match: ${element.closest('.match') !== null}`;
  });

/**
 * Presses Enter on `selector` (focused first, as Tab would) and waits for the server's answer.
 * @param {Page} page @param {string} selector
 */
async function pressAndWait(page, selector) {
  const before = await seqOf(page);
  await page.focus(selector);
  await page.keyboard.press('Enter');
  await page.waitForFunction((seq) => document.querySelector('.match')?.getAttribute('data-seq') !== seq, before, { timeout: 15_000 });
}

for (const [size, options] of Object.entries(SIZES)) {
  test(`${size}: with the keyboard alone, focus stays in the match and the list under the board picks a move`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    // Two presses of Enter from the landing page start the match.
    await page.focus('[data-play-computer=capitals]');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.match .board');
    await page.waitForFunction(() => document.activeElement !== document.body);
    assert.match(await focusIs(page), /in match: true/, 'focus went to the match as it appeared');

    assert.equal(await pageToAct([page], 30_000), page);
    // The board in words: every region with its owner and units; the capital can act.
    await page.focus('[data-testid=region-list] summary');
    await page.keyboard.press('Enter');
    const items = await page.locator('[data-testid=region-list] .region-choice').allTextContents();
    assert.ok(items.length > 20, `every area is listed: ${items.length}`);
    assert.ok(items.some((item) => /capital — Guest \d+ ●: \d+ d6 \(can act\)/.test(item)), `my capital, its owner and units: ${items.find((item) => /capital/.test(item))}`);
    await page.focus('[data-testid=region-list] .region-choice.can-choose');
    await page.keyboard.press('Enter');
    const target = page.locator('[data-testid=region-list] .region-choice.can-choose', { hasText: 'can be chosen now' }).first();
    await target.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-action=attack]');
    await pressAndWait(page, '[data-action=attack]');
    assert.match(await focusIs(page), /in match: true/, 'focus stays in the match after a move');
    await pressAndWait(page, '[data-action=end-turn]');
    assert.notEqual(await focusIs(page), 'body', 'focus stays in the match after End turn');
    assert.match(await focusIs(page), /in match: true/);
    await screenshot(page, `keyboard-${size}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${size}: quiet text, links and state badges contrast at least 4.5:1`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    await enterName(page, size === 'desktop' ? 'Ada' : 'Ari');
    const room = await createRoomByApi(page, { ruleset: 'hexdice', creator_seat: 0, bots: [{ seat: 1, level: 'easy' }], bot_delay_ms: 10_000 });
    /** @type {string[]} */
    const problems = [];
    for (const hash of ['#/', `#/room/${room.id}`, '#/rules/capitals']) {
      await page.goto(`${setup.server.url}/${hash}`);
      await page.waitForSelector(hash === '#/' ? '.room-row .state.playing' : hash.startsWith('#/room') ? '.match .board' : '.screen.rules');
      const samples = await page.$$eval('.muted, a, .state, .option-help, .hint, .seat-chip', (elements) =>
        elements.flatMap((element) => {
          const box = element.getBoundingClientRect();
          if (box.width === 0 || box.height === 0 || !element.textContent?.trim()) return [];
          /** The colour behind the text: the nearest painted background (a gradient's darkest stop). */
          let behind = 'rgb(244, 241, 234)';
          for (let at = /** @type {Element | null} */ (element); at; at = at.parentElement) {
            const style = getComputedStyle(at);
            const image = style.backgroundImage.match(/rgba?\([^)]+\)/g);
            if (image) {
              behind = image[image.length - 1];
              break;
            }
            if (!/rgba\([^)]*, 0\)$/.test(style.backgroundColor) && style.backgroundColor !== 'transparent') {
              behind = style.backgroundColor;
              break;
            }
          }
          return [{ what: `${element.tagName.toLowerCase()}.${element.className} "${element.textContent.trim().slice(0, 30)}"`, colour: getComputedStyle(element).color, behind }];
        }),
      );
      for (const sample of samples) {
        const ratio = contrast(/** @type {string} */ (hexOf(sample.colour)), /** @type {string} */ (hexOf(sample.behind)));
        if (ratio < 4.5) problems.push(`${hash} ${sample.what}: ${ratio.toFixed(2)}:1 (${sample.colour} on ${sample.behind})`);
      }
      assert.ok(samples.length > 0, `${hash}: text sampled (${samples.length})`);
    }
    assert.deepEqual([...new Set(problems)], []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
