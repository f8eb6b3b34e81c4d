// The client is served from the binary and its first screen works: a guest identity is created
// from a name and survives a reload; the lobby lists rulesets to create rooms with.

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
