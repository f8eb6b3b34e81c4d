//! The client is served from the binary and its first screen works: a guest identity is created
//! from a name and survives a reload; the lobby lists rulesets to create rooms with.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openClient, enterName, screenshot } from './harness.js';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a guest name survives a reload and the lobby offers every ruleset', async () => {
  const { page, errors, context } = await openClient(browser, server.url);
  await enterName(page, 'Ada');
  await page.reload();
  await page.waitForSelector('.lobby');
  assert.equal(await page.textContent('#whoami'), 'Ada');
  await page.waitForSelector('#create-ruleset option', { state: 'attached' });
  const rulesets = await page.$$eval('#create-ruleset option', (options) => options.map((o) => o.getAttribute('value')));
  assert.deepEqual([...rulesets].sort(), ['capitals', 'classic', 'hexdice']);
  await screenshot(page, 'lobby');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a refused name is explained', async () => {
  const { page, context } = await openClient(browser, server.url);
  await page.fill('#display-name', '<script>');
  await page.click('.name-picker button[type=submit]');
  await page.waitForSelector('.name-picker .problem:not(:empty)');
  assert.match(await page.textContent('.name-picker .problem') ?? '', /letters/);
  await context.close();
});

test('the interface switches language and remembers it', async () => {
  const { page, context } = await openClient(browser, server.url);
  await enterName(page, 'Zoé');
  await page.selectOption('#language', 'fr');
  await page.waitForSelector('text=Salles publiques');
  await page.reload();
  await page.waitForSelector('text=Salles publiques');
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  await screenshot(page, 'lobby-fr');
  await context.close();
});

test('a room refused by the rules says why, in words', async () => {
  const { page, context } = await openClient(browser, server.url);
  await enterName(page, 'Ann');
  await page.waitForSelector('#create-ruleset option', { state: 'attached' });
  await page.selectOption('#create-ruleset', 'hexdice');
  // A custom board of 3 cells breaks H-BOARD-1 (an even count from 8 to 36).
  await page.selectOption('#option-board', { label: 'Custom (JSON)…' });
  await page.fill('textarea[aria-label="Board"]', '{"custom": [{"q": 0, "r": 0}, {"q": 1, "r": 0}, {"q": 2, "r": 0}]}');
  await page.click('#create-submit');
  await page.waitForSelector('.create-room .problem:not(:empty)');
  const problem = (await page.textContent('.create-room .problem')) ?? '';
  assert.ok(problem.length > 10, `a readable refusal: ${problem}`);
  assert.equal(await page.locator('.screen.lobby').count(), 1, 'still in the lobby');
  await context.close();
});

test('a private room stays out of the lobby and is joined by its invite link', async () => {
  const ada = await openClient(browser, server.url);
  const bob = await openClient(browser, server.url);
  await enterName(ada.page, 'Amy');
  await enterName(bob.page, 'Ben');
  await ada.page.waitForSelector('#create-ruleset option', { state: 'attached' });
  await ada.page.check('#create-private');
  await ada.page.click('#create-submit');
  await ada.page.waitForSelector('.screen.room .waiting');
  const room = await ada.page.getAttribute('.screen.room', 'data-room');
  const invite = await ada.page.inputValue('[data-testid=invite-link]');
  assert.match(invite, /\?invite=/);
  // Not listed publicly (the lobby polls every two seconds).
  await bob.page.waitForTimeout(2500);
  assert.equal(await bob.page.locator(`.room-row[data-room="${room}"]`).count(), 0);
  await bob.page.goto(invite);
  await bob.page.waitForSelector('.seat-list button[data-seat]');
  await bob.page.click('.seat-list button[data-seat]');
  await bob.page.waitForFunction(() => document.querySelector('.seat-list')?.textContent?.includes('Ben') ?? false);
  await Promise.all([ada.context.close(), bob.context.close()]);
});
