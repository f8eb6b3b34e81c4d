//! The log and the end say who acted and how (issue 37, point 7), at 1280×800 and 390×844: a
//! person's own lines are never marked as the computer's (the next player's turn comes in the
//! computer's action, but is not its move), a computer's lines say so by its name, and the
//! player who resigned reads that they resigned.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, SIZES, serverAndBrowser } from './harness.js';
import { pageToAct, playHexdiceOnce, openBotMatch } from './play.js';

const setup = serverAndBrowser();

for (const [size, options] of Object.entries(SIZES)) {
  test(`${size}: the log marks no person's line as the computer's, and the resigner reads they resigned`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    const me = size === 'desktop' ? 'Ada' : 'Ari';
    await enterName(page, me);
    await openBotMatch(page, setup.server.url, { ruleset: 'hexdice', levels: ['easy'], options: { board: { layout: 'small' } } });
    // Play until each side has had a turn after the occupation.
    const tally = { turns: 0, combined: 0, moves: 0, singles: 0 };
    while (tally.turns < 2) {
      if (!(await pageToAct([page], 30_000))) break;
      await playHexdiceOnce(page, tally);
    }
    const lines = await page.$$eval('[data-testid=log] li', (items) =>
      items.map((item) => ({ text: item.textContent ?? '', bot: item.querySelector('[data-by=bot]') !== null })),
    );
    assert.deepEqual(lines.filter((line) => line.bot && line.text.includes(me)), [], 'no line of mine is marked as the computer\'s');
    const computerLines = lines.filter((line) => line.text.includes('(computer, easy)'));
    assert.ok(computerLines.length > 3, `the computer's moves are in the log by its name: ${computerLines.length}`);
    assert.deepEqual(computerLines.filter((line) => line.bot), [], 'the computer seat\'s lines are not marked as a bot playing for someone');

    if ((await page.getAttribute('.match', 'data-over')) === 'false') {
      await page.click('[data-testid=resign]');
      await page.click('[data-testid=resign-confirm]');
      await page.waitForSelector('[data-testid=end-screen]');
      const end = (await page.textContent('[data-testid=end-screen]')) ?? '';
      assert.match(end, /You resigned\./);
      assert.doesNotMatch(end, /the opponent resigned/i, 'not told the opponent resigned');
      assert.doesNotMatch((await page.textContent('[data-testid=prompt]')) ?? '', /opponent resigned/);
      assert.match((await page.textContent('[data-testid=prompt]')) ?? '', /you resigned/);
      await screenshot(page, `who-acted-resigned-${size}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}
