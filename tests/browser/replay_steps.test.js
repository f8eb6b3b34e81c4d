//! A replay's last step shows exactly what the players saw live (issue 10, point 5; issue 35: the
//! replay's boards are the server's patches, the client folds no events): capitals and classic
//! are played for a while by clicking, then the same page opens the match's replay, goes to the
//! last step with the End key and compares every region's colour and label with the live board;
//! and long matches of bots (capitals whose production lost units to the cap, classic with 6
//! seats) are watched live to their end by a spectator page, then compared the same way.
//! (hexdice is compared at the end of a whole match in hexdice.test.js.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, serverAndBrowser, namedClients } from './harness.js';
import { createRoom, joinByInvite, pageToAct, actAndWait, phaseOf } from './play.js';

/** @typedef {import('playwright-core').Page} Page */

const setup = serverAndBrowser();

/** Every region's fill, owner pattern and label text. @param {Page} page */
const boardState = (page) =>
  page.$$eval('.board .region', (regions) =>
    regions.map((region) => {
      const id = region.getAttribute('data-region');
      const label = document.querySelector(`.board [data-label="${id}"]`)?.textContent ?? '';
      const hatch = document.querySelector(`.board [data-hatch="${id}"]`)?.getAttribute('data-owner') ?? '';
      return `${id}:${/** @type {SVGElement} */ (region).style.getPropertyValue('--fill')}:${hatch}:${label}`;
    }),
  );

/** Clicks the first region matching `selector` whose click changes nothing else. @param {Page} page @param {string} selector */
async function clickFirst(page, selector) {
  await page.locator(`.board ${selector}`).first().locator('polygon').first().click({ force: true });
}

/**
 * Opens the replay of the page's match, steps to the end with the keyboard, and checks the board
 * against `live`.
 * @param {Page} page @param {string} room @param {string[]} live @param {string} name
 */
async function replayMatches(page, room, live, name) {
  const matchId = await page.evaluate(async (id) => (await (await fetch(`/api/rooms/${id}`)).json()).match_id, room);
  await page.goto(`${page.url().split('#')[0]}#/replay/${matchId}`);
  await page.waitForSelector('[data-testid=replay-counter]');
  await page.keyboard.press('End');
  await page.waitForFunction(() => /^step (\d+) of \1$/.test(document.querySelector('[data-testid=replay-counter]')?.textContent ?? ''));
  assert.deepEqual(await boardState(page), live);
  assert.ok(await page.isHidden('[data-testid=replay-no-board]'), 'the server drew every step');
  await page.keyboard.press('ArrowLeft');
  assert.match((await page.textContent('[data-testid=replay-counter]')) ?? '', /^step (\d+) of/);
  await screenshot(page, `${name}-replay-1280`);
}

test('capitals: the replay’s last step equals the live board', async () => {
  const [ada, bob] = await namedClients(setup, 'Ada', 'Bob');
  const { room, invite } = await createRoom(ada.page, 'capitals', { seats: 2, options: { map_size: 'small' } });
  await joinByInvite(bob.page, invite);
  const pages = [ada.page, bob.page];
  await Promise.all(pages.map((page) => page.waitForSelector('.match .board')));
  for (let decisions = 0; decisions < 24; decisions++) {
    const page = /** @type {Page} */ (await pageToAct(pages));
    if ((await page.locator('.board .region.source').count()) === 0 || decisions % 4 === 3) {
      await actAndWait(page, () => page.click('[data-action=end-turn]'));
      continue;
    }
    await clickFirst(page, '.region.source');
    await clickFirst(page, '.region.target');
    const send = page.locator('[data-action=attack], [data-action=transport]');
    if ((await send.count()) === 0) {
      await actAndWait(page, () => page.click('[data-action=end-turn]'));
      continue;
    }
    await actAndWait(page, () => send.first().click());
  }
  const seq = await ada.page.getAttribute('.match', 'data-seq');
  await bob.page.waitForFunction((s) => document.querySelector('.match')?.getAttribute('data-seq') === s, seq);
  const live = await boardState(bob.page);
  await replayMatches(bob.page, room, live, 'capitals');
  await Promise.all([ada.context.close(), bob.context.close()]);
});

test('classic: the replay’s last step equals the live board', async () => {
  const clients = await Promise.all([0, 1, 2].map(() => openClient(setup.browser, setup.server.url)));
  for (const [index, client] of clients.entries()) await enterName(client.page, ['Amy', 'Ben', 'Cal'][index]);
  const pages = clients.map((client) => client.page);
  const { room, invite } = await createRoom(pages[0], 'classic', { seats: 3 });
  for (const page of pages.slice(1)) await joinByInvite(page, invite);
  await Promise.all(pages.map((page) => page.waitForSelector('.match .board')));
  let attacks = 0;
  for (let decisions = 0; decisions < 80 && attacks < 6; decisions++) {
    const page = /** @type {Page} */ (await pageToAct(pages));
    const phase = await phaseOf(page);
    if (phase === 'reinforce') {
      await page.click('[data-step=all]').catch(() => {});
      await actAndWait(page, () => clickFirst(page, '.region.target'));
    } else if (phase === 'move_in') {
      await actAndWait(page, () => page.click('[data-action=move-in]'));
    } else if (phase === 'attack') {
      const sources = page.locator('.board .region.source');
      let attacked = false;
      for (let i = 0; i < (await sources.count()) && !attacked; i++) {
        await sources.nth(i).locator('polygon').first().click({ force: true });
        if ((await page.locator('.board .region.target').count()) > 0) {
          await clickFirst(page, '.region.target');
          await actAndWait(page, () => page.click('[data-action=attack]'));
          attacks += 1;
          attacked = true;
        } else {
          await page.click('[data-action=cancel]');
        }
      }
      if (!attacked || attacks % 2 === 0) {
        if ((await phaseOf(page)) === 'attack') await actAndWait(page, () => page.click('[data-action=end-turn]'));
      }
    } else {
      throw new Error(`unexpected phase ${phase}`);
    }
  }
  assert.ok(attacks > 0, 'attacks were made');
  const seq = await pages[0].getAttribute('.match', 'data-seq');
  await pages[1].waitForFunction((s) => document.querySelector('.match')?.getAttribute('data-seq') === s, seq);
  const live = await boardState(pages[1]);
  await replayMatches(pages[1], room, live, 'classic');
  await Promise.all(clients.map((client) => client.context.close()));
});

/**
 * A REST call to the server from the test itself. @param {string} method @param {string} path
 * @param {string | null} token @param {any} [body]
 */
async function call(method, path, token, body) {
  const response = await fetch(`${setup.server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  assert.ok(response.ok, `${method} ${path}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Units lost to the cap of 10 by a capitals replay's productions (C-UNIT-1). @param {any} replay */
const productionLosses = (replay) =>
  replay.actions.flatMap((/** @type {any} */ action) => action.events).filter((/** @type {any} */ event) => event.type === 'produced' && event.lost > 0)
    .length;

/** Waits until the room's match is over on the server. @param {string} room */
async function finished(room) {
  for (let tries = 0; tries < 1200; tries++) {
    if ((await call('GET', `/api/rooms/${room}`, null)).state === 'finished') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`room ${room} did not finish`);
}

test('long matches of bots: the replay’s last step equals the end board (capitals losing units to the cap, watched live; classic with 6 seats)', async () => {
  const { token } = await call('POST', '/api/guests', null, { name: 'Keeper' });
  const watcher = await openClient(setup.browser, setup.server.url);
  await enterName(watcher.page, 'Watcher');
  // Capitals matches are watched live from their first moves (a few hundred steps). A 6-seat
  // classic match of bots has one to two thousand, which a page takes tens of seconds to draw
  // one by one on a loaded machine: it is opened once over, and shows the server's end board.
  /** @type {[string, number, Record<string, string>, string, boolean][]} */
  const plays = [
    ['classic', 6, {}, 'normal', false],
    ['capitals', 4, { map_size: 'large' }, 'easy', true],
    ['capitals', 4, { map_size: 'large' }, 'easy', true],
    ['capitals', 3, { map_size: 'medium' }, 'easy', true],
  ];
  // The old client fold of the events ignored units lost to the cap, so at least one capitals
  // match compared must have such losses (most do).
  let losses = 0;
  for (const [ruleset, seats, options, level, live] of plays) {
    if (ruleset === 'capitals' && losses > 0) continue;
    const bots = Array.from({ length: seats }, (_, seat) => ({ seat, level }));
    const { id: room } = await call('POST', '/api/rooms', token, { ruleset, seats, options, bots, bot_delay_ms: 0, clock: 'none' });
    if (!live) await finished(room);
    await watcher.page.goto(`${setup.server.url}/#/room/${room}`);
    await watcher.page.waitForSelector('.match[data-over=true]', { timeout: 120_000 });
    const end = await boardState(watcher.page);
    const { match_id: matchId } = await call('GET', `/api/rooms/${room}`, null);
    const replay = await call('GET', `/api/matches/${matchId}/replay`, null);
    assert.ok(replay.actions.length > 20, `${ruleset}: a long match (${replay.actions.length} steps)`);
    if (ruleset === 'capitals') losses += productionLosses(replay);
    await replayMatches(watcher.page, room, end, `${ruleset}-bots-${seats}`);
  }
  assert.ok(losses > 0, 'a capitals match produced units over the cap');
  assert.deepEqual(watcher.errors, []);
  await watcher.context.close();
});
