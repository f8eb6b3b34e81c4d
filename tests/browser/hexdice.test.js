//! Two players create, join and play a hexdice match to its end by clicking; a third browser
//! spectates it live from the lobby, then opens its replay and steps through it. Screenshots of
//! the board land in the test output folder.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, serverAndBrowser, namedClients } from './harness.js';
import { createRoom, joinByInvite, pageToAct, playHexdiceOnce } from './play.js';

const setup = serverAndBrowser();

test('two players play hexdice to the end by clicking while a third spectates, then replays it', async () => {
  const [ada, bob, cy] = await namedClients(setup, 'Ada', 'Bob', 'Cyd');

  const { room, invite } = await createRoom(ada.page, 'hexdice', {
    options: { board: 'Small (10 cells)', conquest: 'the attacker may stay' },
  });
  await joinByInvite(bob.page, invite);
  await ada.page.waitForSelector('.match .board');
  await bob.page.waitForSelector('.match .board');

  // The spectator finds the room in the lobby's live list and watches it.
  await cy.page.waitForSelector(`.room-row[data-room="${room}"] .button`, { timeout: 10_000 });
  await cy.page.click(`.room-row[data-room="${room}"] .button`);
  await cy.page.waitForSelector('.match .board');
  assert.equal(await cy.page.getAttribute('.match', 'data-interactive'), 'false');

  const tally = { turns: 0, combined: 0, moves: 0, singles: 0 };
  let actions = 0;
  for (;;) {
    const page = await pageToAct([ada.page, bob.page]);
    if (!page) break;
    await playHexdiceOnce(page, tally);
    actions += 1;
    if (actions === 14) await screenshot(ada.page, 'hexdice-board');
    assert.ok(actions < 400, 'the match should end');
  }

  // Everyone sees the end, the spectator included.
  for (const page of [ada.page, bob.page, cy.page]) {
    await page.waitForSelector('.player.winner', { timeout: 10_000 });
    assert.match((await page.textContent('[data-testid=prompt]')) ?? '', /won/);
  }
  assert.ok(tally.singles + tally.combined > 0, 'attacks were made');
  assert.ok(tally.combined > 0, 'a combined attack was made');
  const spectatorLog = await cy.page.locator('[data-testid=log] li').count();
  assert.ok(spectatorLog > 10, `the spectator saw the events (${spectatorLog})`);
  await screenshot(cy.page, 'hexdice-spectator-end');

  // The spectator opens the replay and steps through it.
  await cy.page.click('[data-testid=open-replay]');
  await cy.page.waitForSelector('[data-testid=replay-counter]');
  assert.match((await cy.page.textContent('[data-testid=replay-counter]')) ?? '', /^step 0 of \d+/);
  await cy.page.click('[data-testid=replay-forward]');
  await cy.page.click('[data-testid=replay-forward]');
  assert.match((await cy.page.textContent('[data-testid=replay-counter]')) ?? '', /^step 2 of/);
  await cy.page.click('[data-testid=replay-back]');
  assert.match((await cy.page.textContent('[data-testid=replay-counter]')) ?? '', /^step 1 of/);
  await cy.page.click('[data-testid=replay-last]');
  await cy.page.waitForSelector('.player.winner');
  const seed = (await cy.page.textContent('[data-testid=replay-seed]')) ?? '';
  assert.match(seed, /^[0-9a-f]{16,}$/);
  await screenshot(cy.page, 'hexdice-replay-end');
  // The replay's last board matches what the players saw at the end.
  const finalDice = await ada.page.$$eval('.board .die', (dice) => dice.map((d) => d.getAttribute('data-value')).join(','));
  const replayDice = await cy.page.$$eval('.board .die', (dice) => dice.map((d) => d.getAttribute('data-value')).join(','));
  assert.equal(replayDice, finalDice);
  // And the reserve dice beside the board too (they come from folding the events).
  const reserves = (/** @type {import('playwright-core').Page} */ page) =>
    page.$$eval('[data-testid=off-board] .roll', (rows) => rows.map((row) => `${row.getAttribute('data-seat')}:${[...row.querySelectorAll('[data-die]')].map((die) => die.getAttribute('data-die')).join(' ')}`));
  const liveReserves = await reserves(ada.page);
  assert.ok(liveReserves.length > 0, 'the reserves are shown');
  assert.deepEqual(await reserves(cy.page), liveReserves);
  // Jump to a turn: the log then ends with that turn's start.
  const turnInput = cy.page.locator('.replay-bar input[type=number]');
  await turnInput.fill('3');
  await turnInput.dispatchEvent('change');
  const jumped = (await cy.page.textContent('[data-testid=log]')) ?? '';
  assert.match(jumped, /Turn 3:/);
  assert.doesNotMatch(jumped, /Turn 4:/);
  await cy.page.click('[data-testid=replay-first]');
  await cy.page.click('[data-testid=replay-play]');
  await cy.page.waitForFunction(() => /^step [2-9]/.test(document.querySelector('[data-testid=replay-counter]')?.textContent ?? ''));

  for (const client of [ada, bob, cy]) assert.deepEqual(client.errors, []);
  await Promise.all([ada.context.close(), bob.context.close(), cy.context.close()]);
});
