//! A chat flood (issue 37, point 8), at 1280×800 and 390×844: the refusals show one notice at a
//! time, never a stack over the board, and a refused line stays in the input to send again.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, SIZES, serverAndBrowser } from './harness.js';
import { createRoom } from './play.js';

const setup = serverAndBrowser();

/** Counts, in `window.mostNotices`, the most notices on screen at once. Runs before the page's scripts. */
function watchNotices() {
  const w = /** @type {any} */ (window);
  w.mostNotices = 0;
  new MutationObserver(() => {
    w.mostNotices = Math.max(w.mostNotices, document.querySelectorAll('#toasts .toast').length);
  }).observe(document, { childList: true, subtree: true });
}

for (const [size, options] of Object.entries(SIZES)) {
  test(`${size}: a chat flood shows one notice at a time and keeps the refused line`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    await context.addInitScript(watchNotices);
    await page.reload();
    await enterName(page, size === 'desktop' ? 'Ada' : 'Ari');
    await createRoom(page, 'hexdice');
    const input = page.locator('[data-testid=chat-input]');
    for (let i = 1; i <= 25; i++) {
      await input.fill(`line ${i}`);
      await input.press('Enter');
    }
    await page.waitForSelector('.toast.error');
    // Let every answer arrive before counting.
    await page.waitForTimeout(1000);
    const most = await page.evaluate(() => /** @type {any} */ (window).mostNotices);
    assert.equal(most, 1, `notices on screen at once: ${most}`);
    assert.match((await page.textContent('.toast.error')) ?? '', /Too many lines|too many messages/i);
    const said = await page.locator('[data-testid=chat-lines] .chat-text').allTextContents();
    assert.ok(said.length > 0 && !said.includes('line 25'), `some lines went through, not the last: ${said.length}`);
    assert.equal(await input.inputValue(), 'line 25', 'the refused line is still in the input');
    await screenshot(page, `chat-flood-${size}`);
    assert.deepEqual(errors.filter((error) => !/rate|too many/i.test(error)), []);
    await context.close();
  });
}
