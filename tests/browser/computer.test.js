//! One person plays against the computer: a hexdice match created from the lobby form with the
//! other seat taken by a bot, played by clicking to its end; and resigning, asked twice, which
//! ends a match at once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, serverAndBrowser } from './harness.js';
import { pageToAct, playHexdiceOnce } from './play.js';

const setup = serverAndBrowser();

/**
 * Creates a small hexdice room whose other seat a `normal` bot takes; its match starts at once.
 * @param {import('playwright-core').Page} page
 */
async function playTheComputer(page) {
  await page.waitForSelector('#create-ruleset option', { state: 'attached' });
  await page.selectOption('#create-ruleset', 'hexdice');
  await page.selectOption('#create-bots', 'normal');
  await page.selectOption('#option-board', { label: 'Small (10 cells)' });
  await page.click('#create-submit');
  await page.waitForSelector('.match .board');
  const names = await page.locator('.players .player .name').allTextContents();
  assert.ok(
    names.some((name) => name.includes('Turing (computer, normal)')),
    `the computer sits at the table: ${names}`,
  );
}

test('a person plays hexdice against the computer to the end', async () => {
  const ada = await openClient(setup.browser, setup.server.url);
  await enterName(ada.page, 'Ada');
  await playTheComputer(ada.page);

  const tally = { turns: 0, combined: 0, moves: 0, singles: 0 };
  let actions = 0;
  for (;;) {
    // The bot answers after a short, human-readable delay.
    const page = await pageToAct([ada.page], 30_000);
    if (!page) break;
    await playHexdiceOnce(page, tally);
    actions += 1;
    assert.ok(actions < 400, 'the match should end');
  }
  await ada.page.waitForSelector('.player.winner', { timeout: 10_000 });
  assert.match((await ada.page.textContent('[data-testid=prompt]')) ?? '', /won/);
  // The log says which actions the computer took, by its name.
  assert.match((await ada.page.textContent('[data-testid=log]')) ?? '', /Turing \(computer, normal\) (attacks|placed|moves)/);
  assert.ok(actions > 0, 'the person played');
  await screenshot(ada.page, 'computer-hexdice-end');
});

test('resigning asks first, then ends the match against the computer at once', async () => {
  const bea = await openClient(setup.browser, setup.server.url);
  await enterName(bea.page, 'Bea');
  await playTheComputer(bea.page);

  // Changing one's mind: the confirmation closes and nothing is sent.
  await bea.page.click('[data-testid=resign]');
  await bea.page.waitForSelector('[data-testid=resign-confirm]');
  await bea.page.click('[data-testid=resign-cancel]');
  await bea.page.waitForSelector('[data-testid=resign]');
  assert.equal(await bea.page.getAttribute('.match', 'data-over'), 'false');

  await bea.page.click('[data-testid=resign]');
  await bea.page.click('[data-testid=resign-confirm]');
  await bea.page.waitForSelector('.match[data-over=true]', { timeout: 10_000 });
  const prompt = (await bea.page.textContent('[data-testid=prompt]')) ?? '';
  assert.match(prompt, /Turing \(computer, normal\) won \(you resigned\)/);
  assert.match((await bea.page.textContent('[data-testid=log]')) ?? '', /Bea resigned\./);
  assert.equal(await bea.page.locator('[data-testid=resign]').count(), 0, 'no resigning after the end');
  await screenshot(bea.page, 'computer-resigned');
});
