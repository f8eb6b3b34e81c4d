//! The client is served from the binary and its first screen works: a guest identity is created
//! from a name and survives a reload; the lobby lists rulesets to create rooms with.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, serverAndBrowser, namedClients, SIZES } from './harness.js';

const setup = serverAndBrowser();

test('a guest name survives a reload and the lobby offers every ruleset', async () => {
  const { page, errors, context } = await openClient(setup.browser, setup.server.url);
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
  const { page, context } = await openClient(setup.browser, setup.server.url);
  await page.fill('#display-name', '<script>');
  await page.click('.name-picker button[type=submit]');
  await page.waitForSelector('.name-picker .problem:not(:empty)');
  assert.match(await page.textContent('.name-picker .problem') ?? '', /letters/);
  await context.close();
});

test('the interface switches language and remembers it', async () => {
  const { page, context } = await openClient(setup.browser, setup.server.url);
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
  const { page, context } = await openClient(setup.browser, setup.server.url);
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
  const [ada, bob] = await namedClients(setup, 'Amy', 'Ben');
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
  // The creator was seated on creating the room: Bob's seat fills it and the match starts.
  await bob.page.waitForSelector('.match .board');
  await ada.page.waitForSelector('.match .board');
  await Promise.all([ada.context.close(), bob.context.close()]);
});

test('the landing shows the three games with a picture each, and each has a rules page in every language', async () => {
  const { page, context, errors } = await openClient(setup.browser, setup.server.url, SIZES.desktop);
  await enterName(page, 'Lea');
  assert.equal(await page.locator('[data-testid=games] .game-card').count(), 3);
  assert.equal(await page.locator('[data-testid=games] .game-card svg.game-picture').count(), 3);
  await screenshot(page, 'landing-1280');
  /** @type {Record<string, string>} */
  const seen = {};
  for (const language of ['en', 'es', 'fr', 'it', 'nl', 'pl']) {
    await page.selectOption('#language', language);
    await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
    for (const ruleset of ['hexdice', 'capitals', 'classic']) {
      await page.goto(`${setup.server.url}/#/rules/${ruleset}`);
      await page.waitForSelector(`.screen.rules[data-ruleset=${ruleset}] [data-section]`);
      const sections = await page.$$eval('.screen.rules [data-section]', (paragraphs) => paragraphs.map((p) => p.textContent ?? ''));
      assert.equal(sections.length, 5, `${language} ${ruleset}`);
      for (const text of sections) assert.ok(text.length > 40 && !text.startsWith('rules_'), `${language} ${ruleset}: ${text}`);
      const key = `${ruleset}:${sections[0]}`;
      assert.ok(!(key in seen), `${language} ${ruleset} is not a copy of ${seen[key]}`);
      seen[key] = language;
    }
  }
  const phone = await openClient(setup.browser, setup.server.url, SIZES.phone);
  await enterName(phone.page, 'Bea');
  await screenshot(phone.page, 'landing-390');
  await phone.page.click('[data-testid=rules-capitals]');
  await phone.page.waitForSelector('.screen.rules [data-section]');
  await screenshot(phone.page, 'rules-capitals-390');
  const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (${width}px)`);
  assert.deepEqual(errors, []);
  await Promise.all([context.close(), phone.context.close()]);
});

test('a reload takes the client from the cache instead of downloading it again, and only one language is loaded', async () => {
  const { page, context } = await openClient(setup.browser, setup.server.url);
  await enterName(page, 'Ida');
  /** @type {{url: string, status: number, body: number, cached: boolean}[]} */
  const seen = [];
  page.on('requestfinished', async (request) => {
    const response = await request.response();
    if (!response || !/\.(js|css|html|svg)$|\/$/.test(new URL(request.url()).pathname)) return;
    const sizes = await request.sizes();
    const cached = await response.headerValue('cache-control');
    seen.push({ url: new URL(request.url()).pathname, status: response.status(), body: sizes.responseBodySize, cached: cached?.includes('immutable') ?? false });
  });
  await page.reload();
  await page.waitForSelector('.lobby');
  await page.waitForTimeout(300);
  // The page names its files under the client's version; those are immutable, so the browser
  // takes them from its cache; only the page itself is revalidated (304, no body).
  const scripts = seen.filter((entry) => entry.url.endsWith('.js'));
  assert.ok(scripts.length >= 10, `the modules were loaded (${scripts.length})`);
  for (const entry of seen.filter((item) => item.url !== '/')) {
    assert.match(entry.url, /^\/v\/[0-9a-f]{16}\//, `${entry.url} is versioned`);
    assert.ok(entry.cached, `${entry.url} is immutable`);
  }
  const downloaded = seen.filter((entry) => entry.status !== 304 && entry.body > 0);
  assert.deepEqual(downloaded, [], 'nothing is downloaded twice');
  const languages = seen.filter((entry) => /\/i18n\//.test(entry.url));
  assert.equal(languages.length, 1, 'one language file');
  assert.match(languages[0].url, /\/i18n\/en\.js$/);
  await context.close();
});
