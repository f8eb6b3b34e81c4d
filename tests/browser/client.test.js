//! What makes the client trustworthy (issue 10): the log always holds the whole match (from the
//! setup, after a reload, for a late spectator, across a language switch); refusals come in the
//! reader's language with their values worded; the creator of a room is seated and the invite box
//! understands what is pasted into it; a hexdice turn can be played with the keyboard alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, serverAndBrowser, namedClients } from './harness.js';
import { createRoom, joinByInvite, pageToAct, actAndWait, clickRegion, phaseOf, bendNextAction } from './play.js';

/** @typedef {import('playwright-core').Page} Page */

const setup = serverAndBrowser();

/** The log's lines, oldest first. @param {Page} page */
const logLines = async (page) => (await page.$$eval('[data-testid=log] li', (items) => items.map((item) => item.textContent ?? ''))).reverse();

/** Waits until the page's log has `count` lines. @param {Page} page @param {number} count */
const logReaches = (page, count) =>
  page.waitForFunction((n) => document.querySelectorAll('[data-testid=log] li').length === n, count, { timeout: 10_000 });

test('the log shows the whole match: from the setup, after a reload, for a late spectator and in another language', async () => {
  const [ada, bob] = await namedClients(setup, 'Ada', 'Bob');
  const { room, invite } = await createRoom(ada.page, 'hexdice', { options: { board: 'Small (10 cells)' } });
  await joinByInvite(bob.page, invite);
  await ada.page.waitForSelector('.match .board');
  await bob.page.waitForSelector('.match .board');

  // At the start, the opening rolls and who places first are there (H-SETUP).
  await ada.page.waitForSelector('[data-testid=log] li');
  const opening = await logLines(ada.page);
  assert.ok(opening.some((line) => /Ada rolled/.test(line)) && opening.some((line) => /Bob rolled/.test(line)), opening.join('\n'));
  // The waiting player sees the dice both players still have to place.
  for (const page of [ada.page, bob.page]) {
    assert.ok((await page.locator('[data-testid=off-board] .die-icon').count()) > 0, 'the dice to place are shown to both');
  }

  // The tab of the player to act says so in its title (and icon); the other's does not.
  const first = /** @type {Page} */ (await pageToAct([ada.page, bob.page]));
  const second = first === ada.page ? bob.page : ada.page;
  await first.waitForFunction(() => document.title.startsWith('● Your turn'));
  assert.doesNotMatch(await second.title(), /Your turn/);
  assert.match((await first.getAttribute('link[rel=icon]', 'href')) ?? '', /^data:image\/svg/);

  for (let i = 0; i < 3; i++) {
    const page = /** @type {Page} */ (await pageToAct([ada.page, bob.page]));
    await actAndWait(page, () => clickRegion(page, '.region.target'));
  }
  await bob.page.waitForFunction((seq) => document.querySelector('.match')?.getAttribute('data-seq') === seq, await ada.page.getAttribute('.match', 'data-seq'));
  const live = await logLines(ada.page);
  assert.deepEqual(await logLines(bob.page), live);
  assert.ok(live.length >= opening.length + 3, live.join('\n'));

  // A reload keeps everything.
  await bob.page.reload();
  await bob.page.waitForSelector('.match .board');
  await logReaches(bob.page, live.length);
  assert.deepEqual(await logLines(bob.page), live);

  // A spectator arriving now sees the match from its beginning.
  const cy = await openClient(setup.browser, setup.server.url);
  await enterName(cy.page, 'Cyd');
  await cy.page.goto(`${setup.server.url}/#/room/${room}`);
  await cy.page.waitForSelector('.match .board');
  await logReaches(cy.page, live.length);
  assert.deepEqual(await logLines(cy.page), live);

  // Switching the language rewords the log; it does not empty it.
  // The dictionary is downloaded first, so the English log stays until the French one replaces it.
  await ada.page.selectOption('#language', 'fr');
  await ada.page.waitForFunction(() => [...document.querySelectorAll('[data-testid=log] li')].some((item) => /Ada a lancé/.test(item.textContent ?? '')), null, { timeout: 10_000 });
  await logReaches(ada.page, live.length);
  const french = await logLines(ada.page);
  assert.ok(!french.some((line) => /Ada rolled|Bob rolled/.test(line)), french.join('\n'));
  assert.notDeepEqual(french, live, 'the log is worded in French');
  await screenshot(ada.page, 'log-fr-1280');

  for (const client of [ada, bob, cy]) assert.deepEqual(client.errors, []);
  await Promise.all([ada.context.close(), bob.context.close(), cy.context.close()]);
});

test('a refusal is worded in the reader’s language, with the cell it speaks of', async () => {
  const [ada, bob] = await namedClients(setup, 'Amy', 'Ben');
  for (const page of [ada.page, bob.page]) {
    await page.selectOption('#language', 'fr');
    await page.waitForSelector('text=Salles publiques');
  }
  // Each page's actions pass through here; the next one is bent to name a cell the board lacks,
  // as a stale or tampered client might.
  const bent = await bendNextAction([ada.page, bob.page], 'place', (action) => {
    action.cell = 200;
  });
  const { invite } = await createRoom(ada.page, 'hexdice', { options: { board: 'Petit (10 cases)' } });
  await joinByInvite(bob.page, invite);
  const page = /** @type {Page} */ (await pageToAct([ada.page, bob.page]));
  bent.armed = true;
  await clickRegion(page, '.region.target');
  await page.waitForSelector('.toast.error');
  assert.equal(await page.textContent('.toast.error'), 'Il n’y a pas de case 200 sur ce plateau.');
  // Nothing was sent twice and the page still plays.
  await actAndWait(page, () => clickRegion(page, '.region.target'));
  await Promise.all([ada.context.close(), bob.context.close()]);
});

test('the creator is seated and the invite box reads links, hashes and ids', async () => {
  const [ada, bob] = await namedClients(setup, 'Cal', 'Dee');
  const { room, invite } = await createRoom(ada.page, 'capitals', { seats: 3 });
  // One seat taken by the creator, two to take, nobody only watching.
  assert.equal(await ada.page.locator('.seat-list button[data-seat]').count(), 0, 'the creator is not offered another seat');
  assert.match((await ada.page.textContent('[data-testid=spectators]')) ?? '', /0/);
  await screenshot(ada.page, 'room-waiting-1280');

  // Garbage is refused at once, with words, instead of a screen that keeps loading.
  await bob.page.fill('[data-testid=invite-input]', 'hello there');
  await bob.page.press('[data-testid=invite-input]', 'Enter');
  await bob.page.waitForSelector('[data-testid=invite-problem]:not(:empty)');
  assert.equal(await bob.page.locator('.screen.lobby').count(), 1);
  for (const pasted of [invite, invite.slice(invite.indexOf('#')), room]) {
    await bob.page.goto(`${setup.server.url}/#/`);
    await bob.page.waitForSelector('[data-testid=invite-input]');
    await bob.page.fill('[data-testid=invite-input]', pasted);
    await bob.page.press('[data-testid=invite-input]', 'Enter');
    await bob.page.waitForSelector(`.screen.room[data-room="${room}"] .seat-list`);
  }
  await Promise.all([ada.context.close(), bob.context.close()]);
});

test('a hexdice turn is played with the keyboard alone', async () => {
  const [ada, bob] = await namedClients(setup, 'Eve', 'Fay');
  const { invite } = await createRoom(ada.page, 'hexdice', { options: { board: 'Small (10 cells)' } });
  await joinByInvite(bob.page, invite);
  await ada.page.waitForSelector('.match .board');
  /**
   * Moves the board's focus with arrow keys until a region matching `selector` has it, then
   * presses Enter there.
   * @param {Page} page @param {string} selector
   */
  async function enterOn(page, selector) {
    await page.focus('.board .region[tabindex="0"]');
    const keys = ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowDown'];
    for (let step = 0; step < 60; step++) {
      const here = await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, `.board ${selector}`);
      if (here) {
        await page.keyboard.press('Enter');
        return;
      }
      // Sweep the board row by row: right to the end, down, left to the end, down.
      const key = keys[Math.floor(step / 4) % keys.length];
      const before = await page.evaluate(() => document.activeElement?.getAttribute('data-region'));
      await page.keyboard.press(key);
      const after = await page.evaluate(() => document.activeElement?.getAttribute('data-region'));
      if (before === after) await page.keyboard.press(key === 'ArrowRight' || key === 'ArrowLeft' ? 'ArrowDown' : 'ArrowRight');
    }
    throw new Error(`no ${selector} reached by arrow keys`);
  }
  // The whole occupation, then one attack turn, by keys.
  for (let actions = 0; actions < 40; actions++) {
    const page = /** @type {Page} */ (await pageToAct([ada.page, bob.page]));
    const phase = await phaseOf(page);
    if (phase === 'occupation') {
      await actAndWait(page, () => enterOn(page, '.region.target'));
      continue;
    }
    assert.ok(['attack', 'move'].includes(phase ?? ''), `after the occupation: ${phase}`);
    if (phase === 'attack' && (await page.locator('.board .region.source').count()) > 0) {
      await enterOn(page, '.region.source');
      await page.waitForSelector('.board .region.target');
      await actAndWait(page, () => enterOn(page, '.region.target'));
    } else {
      await page.focus('[data-action=end-turn]');
      await actAndWait(page, () => page.keyboard.press('Enter'));
    }
    break;
  }
  const log = await logLines(ada.page);
  assert.ok(log.some((line) => /attack|could not attack/i.test(line)), log.join('\n'));
  // Regions speak: each has a label with its owner and strength for screen readers.
  const label = await ada.page.getAttribute('.board .region[data-region="0"]', 'aria-label');
  assert.ok(label && label.length > 3, `region 0 is labelled: ${label}`);
  await Promise.all([ada.context.close(), bob.context.close()]);
});
