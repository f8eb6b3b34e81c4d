//! A classic match for three is created, joined and started from the browser; the player to act
//! places reinforcements and attacks by clicking, choosing the dice count, and the dice show.
//! The map stays readable (names never overlap, continents and bonuses can be shown, a phone can
//! zoom), a click places one unit unless asked for more, and "place for me" does the claim setup.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, serverAndBrowser, namedClients, namedClientsAt, SIZES } from './harness.js';
import { createRoom, joinByInvite, pageToAct, actAndWait, phaseOf, clickRegion, aimClassicAttack } from './play.js';

const setup = serverAndBrowser();

test('classic: three players start a match and the first attacks by clicking', async () => {
  const clients = await namedClients(setup, 'Ada', 'Bob', 'Cyd');
  const { invite } = await createRoom(clients[0].page, 'classic', {
    seats: 3,
    options: { setup: 'deal territories at random' },
  });
  for (const client of clients.slice(1)) await joinByInvite(client.page, invite);
  for (const client of clients) await client.page.waitForSelector('.match .board');

  const page = await pageToAct(clients.map((client) => client.page));
  assert.ok(page);
  assert.equal(await phaseOf(page), 'reinforce');
  // `applied` views leave out each territory's name (the snapshot had them): the map must
  // still name every territory after them, and the same ones.
  const namesAtStart = (await nameBoxes(page)).map((box) => box.name).sort();
  // Place every reinforcement with one click on an own territory.
  while ((await phaseOf(page)) === 'reinforce') {
    await actAndWait(page, () => clickRegion(page, '.region.clickable'));
  }
  assert.equal(await phaseOf(page), 'attack');
  // Pick a source that borders an enemy, choose the dice, attack.
  const sources = page.locator('.board .region.source');
  const count = await sources.count();
  let attacked = false;
  for (let i = 0; i < count && !attacked; i++) {
    if (!(await aimClassicAttack(page, sources.nth(i)))) continue;
    await actAndWait(page, () => page.click('[data-action=attack]'));
    attacked = true;
  }
  assert.ok(attacked, 'an attack was made');
  const log = (await page.textContent('[data-testid=log]')) ?? '';
  assert.match(log, /attacks/);
  assert.equal(await page.locator('[data-testid=dice] .roll').count(), 2, 'attacker and defender dice are shown');
  // The dice are shown as the pairs compared, highest against highest, each with its winner.
  const pairs = await page.$$eval('[data-testid=dice-pairs] [data-pair]', (shown) =>
    shown.map((pair) => ({ dice: (pair.getAttribute('data-pair') ?? '').split('-').map(Number), attackerWins: pair.classList.contains('attacker') })),
  );
  assert.ok(pairs.length >= 1 && pairs.length <= 2, `pairs compared: ${pairs.length}`);
  for (const side of [0, 1]) {
    const values = pairs.map((pair) => pair.dice[side]);
    assert.deepEqual(values, [...values].sort((a, b) => b - a), `sorted highest first: ${values.join(' ')}`);
  }
  for (const pair of pairs) assert.equal(pair.attackerWins, pair.dice[0] > pair.dice[1], `winner of ${pair.dice.join(' vs ')}`);
  if ((await phaseOf(page)) === 'move_in') {
    await screenshot(page, 'classic-move-in');
    await actAndWait(page, () => page.click('[data-action=move-in]'));
  }
  await screenshot(page, 'classic-board');
  const namesAfterPlay = (await nameBoxes(page)).map((box) => box.name).sort();
  assert.ok(namesAtStart.length >= 10 && namesAtStart.every((name) => name.length > 0), `names at the start: ${namesAtStart.length}`);
  assert.deepEqual(namesAfterPlay, namesAtStart, 'the names drawn after applied views are those of the snapshot');
  // Every other player saw the same battle.
  for (const client of clients) {
    await client.page.waitForFunction(() => /attacks/.test(document.querySelector('[data-testid=log]')?.textContent ?? ''));
  }
  for (const client of clients) assert.deepEqual(client.errors, []);
  await Promise.all(clients.map((client) => client.context.close()));
});

/** @typedef {{x: number, y: number, width: number, height: number}} Rect */

/** The on-screen boxes of the territory names drawn. @param {import('playwright-core').Page} page */
const nameBoxes = (page) =>
  page.$$eval('.board .names text', (texts) =>
    texts.map((text) => {
      const box = text.getBoundingClientRect();
      return { name: text.textContent ?? '', x: box.x, y: box.y, width: box.width, height: box.height };
    }),
  );

/** @param {Rect} a @param {Rect} b */
const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('classic: names never overlap, continents show with their bonuses, one click places one unit', async () => {
  const clients = await namedClientsAt(setup, SIZES.desktop, 'Amy', 'Ben', 'Cal');
  const { invite } = await createRoom(clients[0].page, 'classic', { seats: 3 });
  for (const client of clients.slice(1)) await joinByInvite(client.page, invite);
  for (const client of clients) await client.page.waitForSelector('.match .board');
  const page = /** @type {import('playwright-core').Page} */ (await pageToAct(clients.map((client) => client.page)));
  // Random setup is the default for a new room: the match starts at the first reinforcement.
  assert.equal(await phaseOf(page), 'reinforce');

  const boxes = await nameBoxes(page);
  assert.ok(boxes.length >= 10, `names are shown (${boxes.length})`);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      assert.ok(!overlap(boxes[i], boxes[j]), `${boxes[i].name} overlaps ${boxes[j].name}`);
    }
    assert.ok(boxes[i].height >= 10, `${boxes[i].name} is ${boxes[i].height}px high`);
  }
  await screenshot(page, 'classic-names-1280');

  // The continents: a table with bonuses, and outlines on the map at will.
  const legend = (await page.textContent('[data-testid=legend]')) ?? '';
  assert.match(legend, /Australia[\s\S]*\+2/);
  await page.click('[data-testid=legend] summary');
  await page.check('[data-testid=show-continents]');
  await page.waitForSelector('svg.board.with-overlay .continent');
  assert.equal(await page.locator('.board .overlay .continent').count(), 6);
  // The continents' labels are laid out with the names: none covers a name or another label.
  const withContinents = await nameBoxes(page);
  const continentNames = await page.$$eval('.board .names text.continent-name', (texts) => texts.map((text) => text.textContent));
  assert.ok(continentNames.length >= 5, `continent labels shown: ${continentNames.join(', ')}`);
  for (let i = 0; i < withContinents.length; i++) {
    for (let j = i + 1; j < withContinents.length; j++) {
      assert.ok(!overlap(withContinents[i], withContinents[j]), `${withContinents[i].name} overlaps ${withContinents[j].name}`);
    }
  }
  await screenshot(page, 'classic-continents-1280');

  // One click places one unit; the step can be raised.
  const reserve = Number((await page.textContent('[data-testid=place-count]')) ?? '0');
  assert.equal(reserve, 1, 'the default step is one unit');
  const before = await page.$eval('[data-testid=prompt]', (prompt) => prompt.textContent ?? '');
  await actAndWait(page, () => clickRegion(page, '.region.target'));
  const after = await page.$eval('[data-testid=prompt]', (prompt) => prompt.textContent ?? '');
  const left = (/** @type {string} */ text) => Number(/\d+/.exec(text)?.[0] ?? NaN);
  assert.equal(left(after), left(before) - 1, `${before} → ${after}`);
  for (const client of clients) assert.deepEqual(client.errors, []);
  await Promise.all(clients.map((client) => client.context.close()));
});

test('classic on a phone: zooming shows more names, and "place for me" does the claim setup', async () => {
  const clients = await namedClientsAt(setup, SIZES.phone, 'Dee', 'Eve', 'Fay');
  const { invite } = await createRoom(clients[0].page, 'classic', { seats: 3, options: { setup: 'claim territories in turn' } });
  for (const client of clients.slice(1)) await joinByInvite(client.page, invite);
  for (const client of clients) await client.page.waitForSelector('.match .board');
  const page = clients[0].page;
  // A phone starts zoomed in on the wide world map, so names and counts are readable at once.
  const startZoom = Number(await page.getAttribute('.board', 'data-zoom'));
  assert.ok(startZoom > 2, `starts zoomed in (${startZoom})`);
  const shownAtFirst = Number(await page.getAttribute('.board', 'data-names-shown'));
  assert.ok(shownAtFirst >= 5, `names shown at first: ${shownAtFirst}`);
  for (const box of await nameBoxes(page)) assert.ok(box.height >= 10, `${box.name} is readable at first (${box.height}px)`);
  const boardHeight = await page.$eval('.board', (board) => board.getBoundingClientRect().height);
  assert.ok(boardHeight >= 300, `the board takes the height it needs (${boardHeight}px)`);
  await screenshot(page, 'classic-start-390');
  for (let i = 0; i < 3; i++) await page.click('[data-zoom=in]');
  const shownZoomed = Number(await page.getAttribute('.board', 'data-names-shown'));
  assert.ok(shownZoomed > 0 && shownAtFirst >= 0, `names shown: ${shownAtFirst} → ${shownZoomed}`);
  const boxes = await nameBoxes(page);
  for (const box of boxes) assert.ok(box.height >= 10, `${box.name} is readable (${box.height}px)`);
  await screenshot(page, 'classic-zoomed-390');
  await page.click('[data-zoom=reset]');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (${width}px)`);

  // Everyone lets the client claim and deploy for them: no board click at all. A click, not
  // `check`: once the last one ticks it, the three clients play the whole setup at once and the
  // box is drawn anew with every action, then goes with the setup, so `check` could not read its
  // state back. Reaching the reinforcement step below is what shows that each box took.
  for (const client of clients) await client.page.click('[data-testid=place-for-me]');
  await page.waitForFunction(() => document.querySelector('.match')?.getAttribute('data-phase') === 'reinforce', null, { timeout: 120_000 });
  await screenshot(page, 'classic-after-auto-setup-390');
  for (const client of clients) assert.deepEqual(client.errors, []);
  await Promise.all(clients.map((client) => client.context.close()));
});
