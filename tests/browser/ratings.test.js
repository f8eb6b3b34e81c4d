//! Ratings in the browser (issue 39), against the real server run with `--rated-min-matches 0`
//! and `--rated-new-identity-window 0` (fresh identities, all from this machine's address, may
//! play rated and their results count; docs/RATINGS.md "Abuse"): a rated room made with the create form's toggle (the
//! computer choice closes) carries the badge in the lobby and in its header; rated matches ended
//! by resigning show each seat's rating before and its change on the end screen and in the
//! replay; the leaderboard lists the players (provisional tab, established tab empty, past-the-end
//! page, another ruleset empty, an unknown one refused) and links to their pages, where the graph
//! has one point per rated match (a casual match adds none), the computer level nearest the
//! rating is named, and the record against each opponent is a table; at 390×844 the pages fit the screen. "Play now" rated lands in a rated room.
//! On a server with the default minimum, a new player's rated room and rated "Play now" are
//! refused in words, in English and in French.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, screenshot, serverAndBrowser, namedClients, startServer, enterName, SIZES } from './harness.js';
import { createRoom, createRoomByApi, joinByInvite } from './play.js';

const setup = serverAndBrowser({ args: ['--rated-min-matches', '0', '--rated-new-identity-window', '0'] });

/** @typedef {import('playwright-core').Page} Page */

/**
 * Plays one hexdice match between two pages to its end, quickly: `loser` opens the room (through
 * the API), `winner` takes the other seat, and `loser` resigns (asked twice, as a person does).
 * Returns the room as created.
 * @param {Page} loser @param {Page} winner @param {{rated: boolean}} kind
 */
async function playToResignation(loser, winner, { rated }) {
  const room = await createRoomByApi(loser, { ruleset: 'hexdice', seats: 2, creator_seat: 0, clock: 'none', rated });
  await loser.goto(`${setup.server.url}/#/room/${room.id}`);
  await loser.waitForSelector('.seat-list [data-seat-row="0"] .you');
  await joinByInvite(winner, `${setup.server.url}/#/room/${room.id}`);
  await resignOnceStarted(loser, winner);
  return room;
}

/** Waits for the board on both pages, then `loser` resigns and both see the end. @param {Page} loser @param {Page} winner */
async function resignOnceStarted(loser, winner) {
  await Promise.all([loser.waitForSelector('.match .board'), winner.waitForSelector('.match .board')]);
  await loser.click('[data-testid=resign]');
  await loser.click('[data-testid=resign-confirm]');
  await Promise.all([loser.waitForSelector('[data-testid=end-screen]'), winner.waitForSelector('[data-testid=end-screen]')]);
}

/**
 * The rating changes a page shows (end screen or replay), by seat.
 * @param {Page} page
 * @returns {Promise<{seat: number, change: number, cells: string[]}[]>}
 */
async function ratingRows(page) {
  await page.waitForSelector('[data-testid=rating-changes] tbody tr', { timeout: 15_000 });
  return page.$$eval('[data-testid=rating-changes] tbody tr', (rows) =>
    rows.map((row) => ({
      seat: Number(row.getAttribute('data-seat')),
      change: Number(row.getAttribute('data-change')),
      cells: [...row.children].map((cell) => cell.textContent ?? ''),
    })),
  );
}

/** The leaderboard's rows as shown: rank, name, rating, deviation, matches. @param {Page} page */
async function leaderboardRows(page) {
  return page.$$eval('.leaderboard-table tbody tr', (rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')));
}

/** Whether the page is no wider than its screen (nothing to scroll sideways). @param {Page} page */
const fitsWidth = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('rated rooms, rating changes at the end and in the replay, the leaderboard and the player page', async () => {
  const [ada, bob] = await namedClients(setup, 'Ada', 'Bob');

  // The create form's toggle: rated closes the computer choice; the room is rated.
  await ada.page.waitForSelector('#create-rated');
  await ada.page.selectOption('#create-bots', 'normal');
  await ada.page.check('#create-rated');
  assert.equal(await ada.page.isDisabled('#create-bots'), true, 'a rated room has no computer seats');
  assert.equal(await ada.page.inputValue('#create-bots'), '', 'the computer choice goes back to people');
  const { room, invite } = await createRoom(ada.page, 'hexdice', { options: { board: 'Small (10 cells)' } });
  await ada.page.waitForSelector('.room-header [data-testid=rated-badge]');
  assert.equal(await ada.page.textContent('.room-header [data-testid=rated-badge]'), 'Rated');

  // The lobby marks it rated; a casual room has no badge.
  const casual = await createRoomByApi(bob.page, { ruleset: 'capitals', seats: 2, clock: 'none' });
  await bob.page.waitForSelector(`.room-row[data-room="${room}"] [data-testid=rated-badge]`);
  await bob.page.waitForSelector(`.room-row[data-room="${casual.id}"]`);
  assert.equal(await bob.page.locator(`.room-row[data-room="${casual.id}"] [data-testid=rated-badge]`).count(), 0);
  await screenshot(bob.page, 'ratings-lobby-badge');
  await joinByInvite(bob.page, invite);
  await resignOnceStarted(ada.page, bob.page);

  // The end screen: both started at 1500; Ada (seat 0) resigned and lost rating, Bob won some.
  for (const page of [ada.page, bob.page]) {
    const rows = await ratingRows(page);
    assert.deepEqual(rows.map((row) => row.seat), [0, 1]);
    assert.ok(rows[0].change < 0 && rows[1].change > 0, `Ada loses, Bob wins: ${JSON.stringify(rows)}`);
    assert.deepEqual(rows.map((row) => row.cells[1]), ['1,500', '1,500'], 'both before: 1500');
    assert.match(rows[0].cells[0], /Ada/);
    assert.match(rows[0].cells[2], /^[-−]\d+$/, `a loss is signed: ${rows[0].cells[2]}`);
    assert.match(rows[1].cells[2], /^\+\d+$/, `a win is signed: ${rows[1].cells[2]}`);
  }
  await screenshot(ada.page, 'ratings-end-screen');
  const firstMatch = /** @type {string} */ (await ada.page.getAttribute('[data-testid=end-replay]', 'href'));

  // Two more rated matches (Bob resigns one) and a casual one, which moves no rating.
  await playToResignation(bob.page, ada.page, { rated: true });
  await playToResignation(ada.page, bob.page, { rated: true });
  await playToResignation(ada.page, bob.page, { rated: false });
  // The end screen has read the match (its length) and shows no rating change.
  await ada.page.waitForSelector('[data-testid=match-length]:not(:empty)');
  assert.equal(await ada.page.locator('[data-testid=rating-changes]').count(), 0, 'a casual match shows no rating change');

  // The replay of the first match shows the same changes.
  await ada.page.goto(`${setup.server.url}/${firstMatch}`);
  await ada.page.waitForSelector('.replay .room-header [data-testid=rated-badge]');
  const replayed = await ratingRows(ada.page);
  assert.deepEqual(replayed.map((row) => row.cells[1]), ['1,500', '1,500']);
  assert.ok(replayed[0].change < 0 && replayed[1].change > 0);

  // The leaderboard, from the top bar: three rated matches leave both provisional, so the
  // established tab is empty and the provisional one ranks Bob (2 wins of 3) over Ada.
  await ada.page.goto(`${setup.server.url}/#/`);
  await ada.page.click('#leaderboards');
  await ada.page.waitForSelector('.leaderboard-page[data-ruleset=hexdice][data-provisional=false]');
  await ada.page.waitForSelector('[data-testid=leaderboard-empty]');
  await ada.page.click('[data-testid=tab-provisional]');
  await ada.page.waitForSelector('.leaderboard-page[data-provisional=true] .leaderboard-table');
  const rows = await leaderboardRows(ada.page);
  assert.deepEqual(rows.map((row) => row.slice(0, 2)), [['1', 'Bob'], ['2', 'Ada']]);
  assert.ok(Number(rows[0][2].replace(/\D/g, '')) > Number(rows[1][2].replace(/\D/g, '')), `Bob rates higher: ${JSON.stringify(rows)}`);
  assert.match(rows[0][3], /^± \d+$/);
  assert.deepEqual(rows.map((row) => row[4]), ['3', '3'], 'three rated matches each (the casual one does not count)');
  assert.equal(await ada.page.textContent('[data-testid=leaderboard-range]'), '1–2 of 2');
  assert.equal(await ada.page.locator('.leaderboard-table tr.me').count(), 1, 'the reader’s row is marked');
  await screenshot(ada.page, 'ratings-leaderboard');

  // Past the end: an empty page with the way back; another ruleset: nobody yet; an unknown one: refused.
  await ada.page.goto(`${setup.server.url}/#/leaderboard/hexdice?provisional=1&offset=50`);
  await ada.page.waitForSelector('[data-testid=leaderboard-empty]');
  await ada.page.click('[data-testid=leaderboard-previous]');
  await ada.page.waitForSelector('.leaderboard-table');
  await ada.page.click('.tabs.rulesets [data-ruleset=capitals]');
  await ada.page.waitForSelector('.leaderboard-page[data-ruleset=capitals] [data-testid=leaderboard-empty]');
  await ada.page.goto(`${setup.server.url}/#/leaderboard/chess`);
  await ada.page.waitForSelector('[data-testid=leaderboard-problem]');

  // Bob's page, from the leaderboard: his hexdice rating, a graph with a point per rated match,
  // and his record against Ada.
  await ada.page.goto(`${setup.server.url}/#/leaderboard/hexdice?provisional=1`);
  await ada.page.click('.leaderboard-table tbody tr:first-child th a');
  await ada.page.waitForSelector('.player-page [data-testid=rating-card][data-ruleset=hexdice] [data-testid=rating-graph]');
  const card = '[data-testid=rating-card][data-ruleset=hexdice]';
  assert.equal(await ada.page.locator(`${card} [data-testid=rating-graph] circle.point`).count(), 3, 'one point per rated match');
  const summary = (await ada.page.textContent(`${card} [data-testid=rating-graph] > title`)) ?? '';
  assert.match(summary, /^Hex Dice rating over 3 rated matches: from 1,500 to [\d,]+, lowest [\d,]+, highest [\d,]+\.$/);
  assert.equal(await ada.page.getAttribute(`${card} [data-testid=rating-graph]`, 'role'), 'img');
  assert.match((await ada.page.textContent(`${card} [data-testid=rating]`)) ?? '', /^[\d,]+ ± \d+$/);
  // The computer level nearest his rating, by the levels' reference ratings (GET /api/rulesets).
  const rulesets = await (await fetch(`${setup.server.url}/api/rulesets`)).json();
  const references = rulesets.find((/** @type {{id: string}} */ r) => r.id === 'hexdice').reference_ratings;
  assert.deepEqual(references.map((/** @type {{level: string}} */ r) => r.level), ['easy', 'normal', 'hard']);
  const board = await (await fetch(`${setup.server.url}/api/leaderboards/hexdice?provisional=true`)).json();
  const bobRating = board.entries[0].rating;
  const nearest = references.reduce((/** @type {{level: string, rating: number}} */ best, /** @type {{level: string, rating: number}} */ r) =>
    Math.abs(r.rating - bobRating) < Math.abs(best.rating - bobRating) ? r : best,
  ).level;
  assert.equal(await ada.page.getAttribute(`${card} [data-testid=about-level]`, 'data-level'), nearest);
  assert.equal(await ada.page.textContent(`${card} [data-testid=about-level]`), `About as strong as the computer on ${nearest}`);
  const opponents = await ada.page.$$eval(`${card} [data-testid=opponents] tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)));
  assert.deepEqual(opponents, [['Ada', '3', '2', '1']]);
  await screenshot(ada.page, 'ratings-player-page');

  // On a phone (whose top bar is full), the lobby's link leads to the leaderboard; it, its tabs
  // and the player page fit the screen.
  const phone = await openClient(setup.browser, setup.server.url, SIZES.phone);
  const lobbyLink = phone.page.locator('[data-testid=leaderboard-links] a[data-ruleset=hexdice]');
  const box = await lobbyLink.boundingBox();
  assert.ok(box && box.height >= 40, `the lobby's link can be tapped: ${JSON.stringify(box)}`);
  await lobbyLink.tap();
  await phone.page.waitForSelector('[data-testid=leaderboard-empty]');
  const tab = await phone.page.locator('[data-testid=tab-provisional]').boundingBox();
  assert.ok(tab && tab.height >= 40, `a tab can be tapped: ${JSON.stringify(tab)}`);
  await phone.page.locator('[data-testid=tab-provisional]').tap();
  await phone.page.waitForSelector('.leaderboard-table');
  assert.ok(await fitsWidth(phone.page), 'the leaderboard fits a phone');
  await screenshot(phone.page, 'ratings-leaderboard-phone');
  await phone.page.locator('.leaderboard-table tbody tr:first-child th a').tap();
  await phone.page.waitForSelector('[data-testid=rating-graph]');
  await phone.page.waitForSelector('[data-testid=records] table');
  await phone.page.waitForSelector('[data-testid=player-matches] .player-match');
  assert.ok(await fitsWidth(phone.page), 'the player page fits a phone');
  const graph = await phone.page.locator('[data-testid=rating-graph]').boundingBox();
  assert.ok(graph && graph.width <= 390 && graph.width > 200, `the graph takes the phone's width: ${JSON.stringify(graph)}`);
  await screenshot(phone.page, 'ratings-player-page-phone');

  // "Play now" rated: a rated room.
  await bob.page.goto(`${setup.server.url}/#/`);
  await bob.page.check('[data-testid=play-now-rated]');
  await bob.page.click('[data-testid=play-now] button[data-ruleset=hexdice]');
  await bob.page.waitForSelector('.screen.room .room-header [data-testid=rated-badge]');

  // Ada's only failed request: the unknown ruleset's leaderboard (404, shown as a refusal).
  assert.deepEqual(ada.errors.filter((error) => !error.includes('404')), []);
  for (const client of [bob, phone]) assert.deepEqual(client.errors, []);
  await Promise.all([ada.context.close(), bob.context.close(), phone.context.close()]);
});

/**
 * Asks for a rated room from the lobby's form; the problem the form then shows.
 * @param {import('playwright-core').Page} page
 */
async function ratedRoomRefusal(page) {
  await page.check('#create-rated');
  await page.click('#create-submit');
  await page.waitForSelector('.create-room .problem:not(:empty)');
  return page.textContent('.create-room .problem');
}

test('a new player is refused rated play in words (default minimum of finished matches)', async () => {
  const plain = await startServer();
  try {
    const cy = await openClient(setup.browser, plain.url);
    await enterName(cy.page, 'Cyd');
    assert.equal(await ratedRoomRefusal(cy.page), 'Rated matches open once you have finished a few matches: play some casual ones first.');
    await cy.page.check('[data-testid=play-now-rated]');
    await cy.page.click('[data-testid=play-now] button[data-ruleset=hexdice]');
    await cy.page.waitForSelector('.toast.error');
    assert.match((await cy.page.textContent('.toast.error')) ?? '', /^Rated matches open once you have finished a few matches/);

    // The same in French.
    await cy.page.selectOption('#language', 'fr');
    // The lobby drawn anew in French (its form comes once the rulesets are read).
    await cy.page.waitForFunction(() => document.querySelector('label[for=play-now-rated]')?.textContent?.trim() === 'Classée');
    await cy.page.waitForSelector('#create-rated');
    assert.equal(await ratedRoomRefusal(cy.page), 'Les parties classées s’ouvrent après quelques parties terminées : jouez d’abord quelques parties amicales.');
    assert.deepEqual(cy.errors.filter((error) => !error.includes('403')), []);
    await cy.context.close();
  } finally {
    await plain.stop();
  }
});
