//! Playing together, part one, in the browser: "Play now" seats two strangers in one room; a
//! player renames themselves (a name taken in another case is refused in words); their page
//! lists their match; a recovery code made there takes the identity to another browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, screenshot, serverAndBrowser, namedClients } from './harness.js';

const setup = serverAndBrowser();

test('play now seats two players together; rename, the player page and a recovery code', async () => {
  const [ada, bob] = await namedClients(setup, 'Ada', 'Bob');

  // A name already taken, in another case, is refused in words.
  const cyd = await openClient(setup.browser, setup.server.url);
  await cyd.page.fill('#display-name', 'ADA');
  await cyd.page.click('.name-picker button[type=submit]');
  await cyd.page.waitForSelector('.name-picker .problem:not(:empty)');
  assert.match((await cyd.page.textContent('.name-picker .problem')) ?? '', /taken/);

  // Play now: Ada opens a hexdice room and waits; Bob lands in the same room; the match starts.
  await ada.page.click('[data-testid=play-now] button[data-ruleset=hexdice]');
  await ada.page.waitForSelector('.screen.room .waiting');
  await ada.page.waitForFunction(() => document.querySelector('.seat-list')?.textContent?.includes('Ada') ?? false);
  const room = await ada.page.getAttribute('.screen.room', 'data-room');
  // The lobby shows how long Ada's room has waited.
  await bob.page.waitForSelector(`.room-row[data-room="${room}"] [data-testid=waited]`);
  await bob.page.click('[data-testid=play-now] button[data-ruleset=hexdice]');
  await bob.page.waitForSelector(`.screen.room[data-room="${room}"]`);
  await Promise.all([ada.page.waitForSelector('.match .board'), bob.page.waitForSelector('.match .board')]);

  // Bob renames himself from his page (reached from the top bar); "ada" is refused.
  await bob.page.click('#whoami');
  await bob.page.waitForSelector('.player-page [data-testid=player-name]');
  await bob.page.fill('#rename-input', 'ada');
  await bob.page.click('[data-testid=rename] button[type=submit]');
  await bob.page.waitForSelector('.own-settings .problem:not(:empty)');
  assert.match((await bob.page.textContent('.own-settings .problem')) ?? '', /taken/);
  await bob.page.fill('#rename-input', 'Robert');
  await bob.page.click('[data-testid=rename] button[type=submit]');
  await bob.page.waitForFunction(() => document.querySelector('#whoami')?.textContent === 'Robert');
  assert.equal(await bob.page.textContent('[data-testid=player-name]'), 'Robert');

  // His page lists the match being played, linked to its room.
  await bob.page.waitForSelector('[data-testid=player-matches] .player-match[data-result=playing]');
  assert.equal(await bob.page.textContent('[data-testid=match-total]'), 'Total: 1');
  assert.match((await bob.page.textContent('[data-testid=player-matches]')) ?? '', /against Ada/);
  await bob.page.selectOption('[data-testid=filter-result]', 'won');
  await bob.page.waitForSelector('[data-testid=player-matches] .player-match', { state: 'detached' });
  assert.equal(await bob.page.textContent('[data-testid=match-total]'), 'Total: 0');

  // A recovery code takes Robert to Cyd's browser (which had no identity yet).
  await bob.page.click('[data-testid=make-recovery]');
  await bob.page.waitForSelector('[data-testid=recovery-code]');
  const link = await bob.page.inputValue('[data-testid=recovery-link]');
  assert.match(link, /#\/recover\?code=/);
  await screenshot(bob.page, 'player-page');
  await cyd.page.goto(link);
  await cyd.page.waitForSelector('#recovery-input');
  await cyd.page.click('.recover button[type=submit]');
  await cyd.page.waitForSelector('.lobby');
  await cyd.page.waitForFunction(() => document.querySelector('#whoami')?.textContent === 'Robert');

  // A wrong code is refused in words.
  const dee = await openClient(setup.browser, setup.server.url);
  await dee.page.goto(`${setup.server.url}/#/recover?code=ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ`);
  await dee.page.click('.recover button[type=submit]');
  await dee.page.waitForSelector('.recover .problem:not(:empty)');
  assert.match((await dee.page.textContent('.recover .problem')) ?? '', /not valid/);

  for (const client of [ada, bob, cyd, dee]) assert.deepEqual(client.errors.filter((e) => !e.includes('409') && !e.includes('401')), []);
  await Promise.all([ada.context.close(), bob.context.close(), cyd.context.close(), dee.context.close()]);
});
