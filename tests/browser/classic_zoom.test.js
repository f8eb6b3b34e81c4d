//! The whole classic board stays readable zoomed out (issue 37, point 11), at 1280×800 and
//! 390×844: every count is at least 10 px high on screen (names make way, counts stay), no name
//! covers a count; and on a phone two fingers pinch the board bigger (the page itself does not
//! zoom).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, SIZES, serverAndBrowser } from './harness.js';
import { createRoomByApi } from './play.js';

/** @typedef {import('playwright-core').Page} Page */

const setup = serverAndBrowser();

/** Each count drawn on the board: its text, its size on screen (px) and its box. @param {Page} page */
const counts = (page) =>
  page.$$eval('.board .labels .badge', (badges) =>
    badges.flatMap((badge) => {
      const text = /** @type {SVGTextElement} */ (badge.querySelector(':scope > text'));
      if (!text?.textContent) return [];
      const matrix = /** @type {DOMMatrix} */ (text.getScreenCTM());
      const px = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(matrix.a, matrix.b);
      const box = text.getBoundingClientRect();
      return [{ text: text.textContent, px, box: { x: box.x, y: box.y, width: box.width, height: box.height } }];
    }),
  );

/** @param {{x: number, y: number, width: number, height: number}} a @param {{x: number, y: number, width: number, height: number}} b */
const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const [size, options] of Object.entries(SIZES)) {
  test(`${size}: the whole classic board shows every count at 10 px or more${size === 'phone' ? ', and pinching zooms it' : ''}`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    await enterName(page, size === 'desktop' ? 'Ada' : 'Ari');
    const room = await createRoomByApi(page, {
      ruleset: 'classic',
      seats: 6,
      options: { setup: 'random' },
      creator_seat: 0,
      bots: [1, 2, 3, 4, 5].map((seat) => ({ seat, level: 'easy' })),
      bot_delay_ms: 10_000,
      clock: 'none',
      private: true,
    });
    await page.goto(`${setup.server.url}/#/room/${room.id}?invite=${room.invite_code}`);
    await page.waitForSelector('.match .board .labels .badge');
    await page.click('[data-zoom=reset]');
    assert.equal(await page.getAttribute('.board', 'data-zoom'), '1.00');
    const shown = await counts(page);
    assert.equal(shown.length, 42, 'every territory has its count');
    const small = shown.filter((count) => count.px < 10).map((count) => `${count.text}: ${count.px.toFixed(1)}px`);
    assert.deepEqual(small, [], 'counts under 10 px');
    const names = await page.$$eval('.board .names text', (texts) => texts.map((text) => {
      const box = text.getBoundingClientRect();
      return { name: text.textContent, box: { x: box.x, y: box.y, width: box.width, height: box.height } };
    }));
    for (const name of names) {
      for (const count of shown) assert.ok(!overlap(name.box, count.box), `${name.name} covers a count`);
    }
    // Counts do not cover each other (their glyphs' boxes, a pixel in).
    const inner = shown.map((count) => ({ ...count.box, x: count.box.x + 1, y: count.box.y + 1, width: count.box.width - 2, height: count.box.height - 2 }));
    /** @type {string[]} */
    const covered = [];
    for (let i = 0; i < inner.length; i++) for (let j = i + 1; j < inner.length; j++) if (overlap(inner[i], inner[j])) covered.push(`${i}/${j}`);
    assert.deepEqual(covered, [], 'counts covering each other');
    await screenshot(page, `classic-zoomed-out-${size}`);

    if (size === 'phone') {
      const cdp = await context.newCDPSession(page);
      // Where the fingers go: the middle of the board as it is on screen now.
      const middle = async () => {
        await page.locator('svg.board').scrollIntoViewIfNeeded();
        const board = /** @type {{x: number, y: number, width: number, height: number}} */ (await page.locator('svg.board').boundingBox());
        return [board.x + board.width / 2, board.y + board.height / 2];
      };
      // Fingers apart, and drifting down a little as real ones do (which a browser may take
      // for a two-finger scroll of the page).
      /** @param {number} x @param {number} y @param {'touchStart' | 'touchMove' | 'touchEnd'} type @param {number} spread @param {number} drift */
      const touch = (x, y, type, spread, drift) =>
        cdp.send('Input.dispatchTouchEvent', {
          type,
          touchPoints: type === 'touchEnd' ? [] : [{ x: x - spread, y: y + drift, id: 0 }, { x: x + spread, y: y + drift, id: 1 }],
        });
      // Up to three pinches, each a whole real pinch, and one must zoom the board. A browser may
      // take a pinch whose fingers drift for a two-finger scroll of the page (a pinch then left
      // the zoom at 1 in about one run in seven, and once in 81 files since lib/zoom.js forgets
      // pointers whose `pointerup` never came); a scrolled page moves the board, so each pinch
      // aims at the board where it is then, as a person's fingers would, and the failure says
      // where each pinch went.
      let zoom = 1;
      /** @type {string[]} */
      const tries = [];
      for (let attempt = 0; attempt < 3 && !(zoom > 1.8); attempt++) {
        if (attempt > 0 && zoom !== 1) await page.click('[data-zoom=reset]');
        const [x, y] = await middle();
        await touch(x, y, 'touchStart', 20, 0);
        for (let step = 1; step <= 12; step++) await touch(x, y, 'touchMove', 20 + step * 8, step * 3);
        await touch(x, y, 'touchEnd', 0, 0);
        // The renderer handles the touches after they are sent: the board may show its new
        // zoom a moment later.
        await page
          .waitForFunction(() => Number(document.querySelector('.board')?.getAttribute('data-zoom')) > 1.8, null, { timeout: 5000 })
          .catch(() => {});
        zoom = Number(await page.getAttribute('.board', 'data-zoom'));
        tries.push(`at ${Math.round(x)},${Math.round(y)} (page scrolled ${await page.evaluate(() => window.scrollY)} px): zoom ${zoom}`);
      }
      assert.ok(zoom > 1.8, `two fingers zoomed the board: ${tries.join('; ')}`);
      assert.equal(await page.evaluate(() => window.visualViewport?.scale ?? 1), 1, 'the page itself did not zoom');
      await screenshot(page, `classic-pinched-${size}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}
