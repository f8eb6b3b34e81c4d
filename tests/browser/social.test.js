//! Playing together, in the browser: two players chat during a hexdice match (markup in a line
//! shows as text), a spectator's line stays out of the players' chat, the match ends on the end
//! screen ("You won" / "You lost", standings, length), both accept a rematch and land in the
//! new match.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, serverAndBrowser, namedClients } from './harness.js';
import { createRoom, joinByInvite, pageToAct, actAndWait, phaseOf, clickRegion } from './play.js';

const setup = serverAndBrowser();

/**
 * The simplest move of the page whose turn it is: place, attack the first target, take the
 * first roll, move in, end the turn.
 * @param {import('playwright-core').Page} page
 */
async function playOnce(page) {
  const phase = await phaseOf(page);
  if (phase === 'occupation') return actAndWait(page, () => clickRegion(page, '.region.target'));
  if (phase === 'attack') {
    await page.locator('.board .region.clickable:not(.target)').first().locator('polygon').first().click({ force: true });
    await page.waitForSelector('.board .region.target');
    return actAndWait(page, () => clickRegion(page, '.region.target'));
  }
  if (phase === 'choose_attack') return actAndWait(page, () => page.locator('button.choice:not([disabled])').first().click());
  if (phase === 'conquest') return actAndWait(page, () => page.click('[data-action=move-in]'));
  if (phase === 'move') return actAndWait(page, () => page.click('[data-action=end-turn]'));
  throw new Error(`unexpected phase ${phase}`);
}

/**
 * Says a line in the room's chat and waits until `readers` show it.
 * @param {import('playwright-core').Page} page
 * @param {string} text
 * @param {import('playwright-core').Page[]} readers
 */
async function say(page, text, readers) {
  await page.fill('[data-testid=chat-input]', text);
  await page.press('[data-testid=chat-input]', 'Enter');
  for (const reader of [page, ...readers]) {
    await reader.waitForFunction(
      (wanted) => [...document.querySelectorAll('.chat-text')].some((node) => node.textContent === wanted),
      text,
    );
  }
}

test('two players chat during hexdice, finish, accept a rematch and land in the new match', async () => {
  const [ada, bob, sam] = await namedClients(setup, 'Ada', 'Bob', 'Sam');
  const { room, invite } = await createRoom(ada.page, 'hexdice', { options: { board: 'Small (10 cells)' } });
  await joinByInvite(bob.page, invite);
  await Promise.all([ada.page.waitForSelector('.match .board'), bob.page.waitForSelector('.match .board')]);
  await sam.page.goto(`${setup.server.url}/#/room/${room}`);
  await sam.page.waitForSelector('.match .board');

  // Markup in a line is text: no image element, no script run.
  const markup = '<img src=x onerror=alert(1)>';
  await say(ada.page, `hello ${markup}`, [bob.page, sam.page]);
  for (const page of [ada.page, bob.page, sam.page]) {
    assert.equal(await page.locator('.chat-lines img').count(), 0);
  }
  await say(bob.page, 'good luck', [ada.page, sam.page]);
  // The spectator's line reaches spectators only while the match runs.
  await say(sam.page, 'psst Bob, attack the six', []);
  await say(ada.page, 'ready', [bob.page]);
  for (const page of [ada.page, bob.page]) {
    assert.equal(await page.locator('.chat-line.spectators').count(), 0, 'players do not read the spectators');
  }
  await screenshot(bob.page, 'chat-during-hexdice');

  let actions = 0;
  for (;;) {
    const page = await pageToAct([ada.page, bob.page]);
    if (!page) break;
    await playOnce(page);
    actions += 1;
    assert.ok(actions < 400, 'the match should end');
  }

  // The end screen: one won, one lost; standings, length, links.
  await Promise.all([ada.page.waitForSelector('[data-testid=end-screen]'), bob.page.waitForSelector('[data-testid=end-screen]')]);
  const results = [await ada.page.getAttribute('[data-testid=end-screen]', 'data-result'), await bob.page.getAttribute('[data-testid=end-screen]', 'data-result')];
  assert.deepEqual([...results].sort(), ['lost', 'won']);
  const winner = results[0] === 'won' ? ada.page : bob.page;
  assert.match((await winner.textContent('.end-title')) ?? '', /You won/);
  await winner.waitForSelector('[data-testid=standings] li:nth-child(2)');
  await winner.waitForSelector('[data-testid=match-length]:not(:empty)');
  assert.match((await winner.textContent('[data-testid=match-length]')) ?? '', /lasted/);
  // Now the players read the spectators' chat too.
  await sam.page.waitForSelector('[data-testid=end-screen][data-result=spectator]');
  await say(sam.page, 'well played', [ada.page, bob.page]);
  await screenshot(winner, 'end-screen');

  // Both accept the rematch and land in a new room whose match is running.
  await ada.page.click('[data-testid=rematch-accept]');
  await bob.page.waitForSelector('[data-testid=rematch-accepted]');
  await bob.page.click('[data-testid=rematch-accept]');
  for (const page of [ada.page, bob.page]) {
    await page.waitForFunction((old) => {
      const screen = document.querySelector('.screen.room');
      return screen && screen.getAttribute('data-room') !== old && document.querySelector('.match .board');
    }, room);
  }
  const newRoom = await ada.page.getAttribute('.screen.room', 'data-room');
  assert.equal(await bob.page.getAttribute('.screen.room', 'data-room'), newRoom);
  await ada.page.waitForSelector('[data-testid=room-state].playing');
  await screenshot(ada.page, 'rematch-started');
  for (const client of [ada, bob, sam]) assert.deepEqual(client.errors, []);
  await Promise.all([ada.context.close(), bob.context.close(), sam.context.close()]);
});
