//! Words (issue 37, point 10), at 1280×800 and 390×844: computer names in the reader's language
//! in the lobby, the clock and player pages (French); Polish plural forms and no doubled full
//! stop after an abbreviated unit; a move refused because another tab of the same player moved
//! first is said in Dutch and Polish; capitals names a factory by its kind and number, not after
//! a seat that may not hold it, and offers every count of units, not a few of them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, SIZES, serverAndBrowser } from './harness.js';
import { createRoomByApi, pageToAct, clickRegion, refusalsShown, openBotMatch } from './play.js';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').BrowserContext} BrowserContext */

const setup = serverAndBrowser();

/**
 * A client reading `language`, named `name`.
 * @param {string} language @param {string} name @param {object} options
 */
async function reader(language, name, options) {
  const client = await openClient(setup.browser, setup.server.url, options);
  await client.context.addInitScript((code) => localStorage.setItem('warroom.language', code), language);
  await client.page.reload();
  await enterName(client.page, name);
  return client;
}

for (const [size, options] of Object.entries(SIZES)) {
  const tag = size === 'desktop' ? 'D' : 'P';

  test(`${size}: French: the computer's name in the lobby, the clock and its player page`, async () => {
    const { page, context, errors } = await reader('fr', `Zoé${tag}`, options);
    const room = await createRoomByApi(page, {
      ruleset: 'hexdice',
      creator_seat: 0,
      bots: [{ seat: 1, level: 'normal' }],
      bot_delay_ms: 10_000,
      clock: 'fast',
    });
    await page.goto(`${setup.server.url}/#/`);
    await page.waitForSelector(`.room-row[data-room="${room.id}"] .seat-chip`);
    const chips = await page.locator(`.room-row[data-room="${room.id}"] .seat-chip`).allTextContents();
    assert.deepEqual(chips, [`Zoé${tag}`, 'Turing (ordinateur, normal)']);
    await page.goto(`${setup.server.url}/#/room/${room.id}`);
    await page.waitForSelector('[data-testid=clock]:not([hidden])');
    const clock = (await page.textContent('[data-testid=clock]')) ?? '';
    assert.match(clock, /^Temps de jeu : (Zoé|Turing)/, `the clock's label: ${clock}`);
    await page.goto(`${setup.server.url}/#/player/b0700000-0000-4000-8000-000000000002`);
    await page.waitForSelector('[data-testid=player-name]');
    assert.equal(await page.textContent('[data-testid=player-name]'), 'Ordinateur (normal)');
    await page.waitForSelector('[data-testid=player-matches] .player-match');
    assert.doesNotMatch((await page.textContent('[data-testid=player-matches]')) ?? '', /Computer/);
    await screenshot(page, `language-fr-computer-page-${size}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${size}: Polish: plural forms of board sizes, and no doubled full stop after "sek."`, async () => {
    const { page, context, errors } = await reader('pl', `Ola${tag}`, options);
    await page.waitForSelector('#create-ruleset option', { state: 'attached' });
    await page.selectOption('#create-ruleset', 'hexdice');
    const boards = await page.$$eval('#option-board option', (all) => all.map((option) => option.textContent ?? ''));
    for (const cells of [22, 24, 32, 34]) assert.ok(boards.includes(`Losowa, ${cells} pola`), `${cells}: ${boards.filter((label) => label.includes(String(cells)))}`);
    assert.ok(boards.includes('Losowa, 26 pól'), 'and "pól" where Polish says so');
    const room = await createRoomByApi(page, { ruleset: 'hexdice', creator_seat: 0, bots: [{ seat: 1, level: 'easy' }], bot_delay_ms: 10_000, clock: 'none', private: true });
    await page.goto(`${setup.server.url}/#/room/${room.id}?invite=${room.invite_code}`);
    await page.waitForSelector('.match .board');
    await page.click('[data-testid=resign]');
    await page.click('[data-testid=resign-confirm]');
    await page.waitForSelector('[data-testid=match-length]:not(:empty)');
    const length = (await page.textContent('[data-testid=match-length]')) ?? '';
    assert.match(length, /^Partia trwała .*sek\.$/, length);
    assert.doesNotMatch(length, /\.\.$/, length);
    assert.deepEqual(errors, []);
    await context.close();
  });

  for (const language of ['nl', 'pl']) {
    test(`${size}: ${language}: a move refused because another tab moved first is said`, async () => {
      const { page, context, errors } = await reader(language, `Tab${language}${tag}`, options);
      const room = await createRoomByApi(page, {
        ruleset: 'hexdice',
        options: { board: { layout: 'small' } },
        creator_seat: 0,
        bots: [{ seat: 1, level: 'easy' }],
        bot_delay_ms: 2000,
        clock: 'none',
        private: true,
      });
      const url = `${setup.server.url}/#/room/${room.id}?invite=${room.invite_code}`;
      await page.goto(url);
      // The same player in a second tab, which hears of the first tab's move late.
      const other = await context.newPage();
      let hold = false;
      /** @type {(string | Buffer)[]} */
      const held = [];
      /** @type {import('playwright-core').WebSocketRoute | null} */
      let socket = null;
      await other.routeWebSocket(/\/ws$/, (ws) => {
        socket = ws;
        const upstream = ws.connectToServer();
        upstream.onMessage((message) => (hold ? held.push(message) : ws.send(message)));
      });
      await other.goto(url);
      await Promise.all([page.waitForSelector('.match .board'), other.waitForSelector('.match .board')]);
      assert.equal(await pageToAct([page], 30_000), page);
      assert.equal(await pageToAct([other], 30_000), other);
      hold = true;
      await clickRegion(page, '.region.target');
      await page.waitForFunction(() => document.querySelector('.match')?.getAttribute('data-interactive') === 'false');
      const before = await refusalsShown(other);
      await clickRegion(other, '.region.target');
      await other.waitForTimeout(300);
      hold = false;
      for (const message of held.splice(0)) /** @type {import('playwright-core').WebSocketRoute} */ (/** @type {unknown} */ (socket)).send(message);
      await other.waitForFunction((count) => Number(document.getElementById('toasts')?.dataset.errors ?? 0) > count, before, { timeout: 5000 });
      const said = (await other.textContent('.toast.error')) ?? '';
      assert.ok(said.length > 5 && !/decision|seat/.test(said), `refused in ${language}: ${said}`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  test(`${size}: capitals names factories by kind and number, and offers every count of units`, async () => {
    const { page, context, errors } = await reader('en', `Cap${tag}`, options);
    await openBotMatch(page, setup.server.url, { ruleset: 'capitals', levels: ['easy'] });
    assert.equal(await pageToAct([page], 30_000), page);
    const labels = await page.$$eval('.board .region', (regions) => regions.map((region) => region.getAttribute('aria-label') ?? ''));
    const factories = labels.filter((label) => /factory/.test(label));
    assert.ok(factories.length >= 4, `factories: ${factories.length}`);
    for (const label of factories) assert.match(label, /^(fast|strong) factory \d+ — /, label);
    // The capital's units: every count that may go is offered, not only all, all but one and one.
    await clickRegion(page, '.region.source');
    await clickRegion(page, '.region.target-attack');
    await page.waitForSelector('[data-action=attack]');
    const counts = await page.$$eval('.controls [data-kind=d6] button.choice', (buttons) => buttons.map((button) => Number(button.textContent)));
    const most = Math.max(...counts);
    assert.ok(most >= 3, `up to ${most}`);
    assert.deepEqual(counts, Array.from({ length: most }, (_, i) => i + 1), 'every count from one');
    await page.click('.controls [data-kind=d6] button.choice[data-d6="2"]');
    assert.equal(await page.getAttribute('[data-action=attack]', 'data-units'), '2-0');
    await screenshot(page, `language-capitals-units-${size}`);
    const before = await page.getAttribute('.match', 'data-seq');
    await page.click('[data-action=attack]');
    await page.waitForFunction((seq) => document.querySelector('.match')?.getAttribute('data-seq') !== seq, before);
    assert.match((await page.textContent('[data-testid=log]')) ?? '', /2 d6 from Cap\w+’s capital attack/);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
