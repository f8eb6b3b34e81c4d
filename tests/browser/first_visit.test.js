//! A first visit (issue 37, point 1), at 1280×800 and 390×844: nothing asks for a name first.
//! A match against the computer starts in two clicks from the landing page, under a generated
//! guest name; a shared rules link shows the rules and the lobby its rooms to a visitor without a
//! name; "Play now" that finds nobody offers the computer after a few seconds.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, screenshot, SIZES, serverAndBrowser } from './harness.js';

const setup = serverAndBrowser();

for (const [size, options] of Object.entries(SIZES)) {
  test(`${size}: from a cold first visit, two clicks start a match against the computer`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    // The landing page is the lobby: the games, their rules, the rooms; no name asked first.
    await page.waitForSelector('[data-testid=games] [data-play-computer=hexdice]');
    assert.equal(await page.locator('[data-testid=rooms]').count(), 1, 'the rooms are listed');
    assert.equal(await page.isVisible('#whoami'), false, 'no identity yet');
    await screenshot(page, `first-visit-landing-${size}`);

    let clicks = 0;
    await page.click('[data-play-computer=hexdice]');
    clicks += 1;
    await page.click('[data-game=hexdice] [data-level=normal]');
    clicks += 1;
    await page.waitForSelector('.match .board', { timeout: 15_000 });
    assert.equal(clicks, 2);
    const me = (await page.textContent('#whoami')) ?? '';
    assert.match(me, /^Guest \d{4}$/, `a generated guest name: ${me}`);
    const seated = await page.locator('.players .player .name').allTextContents();
    assert.ok(seated.some((name) => name.includes(me)), `the guest plays: ${seated}`);
    assert.ok(seated.length === 2 && seated.some((name) => !name.includes(me)), `against the computer: ${seated}`);
    await screenshot(page, `first-visit-match-${size}`);

    // The generated name can be changed later, on the player's page.
    await page.click('#whoami');
    await page.waitForSelector('#rename-input');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${size}: a shared rules link shows the rules and the lobby its rooms without a name`, async () => {
    const { page, context, errors } = await openClient(setup.browser, `${setup.server.url}/#/rules/classic`, options);
    await page.waitForSelector('.screen.rules[data-ruleset=classic]');
    assert.match((await page.textContent('.screen.rules')) ?? '', /Cards/);
    assert.equal(await page.locator('#display-name').count(), 0, 'no name form over the rules');
    await screenshot(page, `first-visit-rules-${size}`);
    await page.click('.screen.rules a.back');
    await page.waitForSelector('[data-testid=rooms]');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${size}: "Play now" that finds nobody offers the computer after a few seconds`, async () => {
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    await page.click(`[data-testid=play-now] button[data-ruleset=capitals]`);
    await page.waitForSelector('.screen.room .waiting .you');
    const waitingRoom = await page.getAttribute('.screen.room', 'data-room');
    assert.equal(await page.locator('[data-testid=computer-offer]').count(), 0, 'not at once');
    await page.waitForSelector('[data-testid=computer-offer]', { timeout: 10_000 });
    await screenshot(page, `first-visit-offer-${size}`);
    await page.click('[data-testid=computer-offer] [data-level=easy]');
    await page.waitForSelector('.match .board', { timeout: 15_000 });
    assert.notEqual(await page.getAttribute('.screen.room', 'data-room'), waitingRoom, 'a room of its own');
    // The waiting room is free again for someone else.
    const left = await page.evaluate(async (id) => (await (await fetch(`/api/rooms/${id}`)).json()).seats.filter((/** @type {any} */ seat) => seat.player).length, waitingRoom);
    assert.equal(left, 0, 'the seat in the waiting room was left');
    assert.deepEqual(errors, []);
    await context.close();
  });
}
