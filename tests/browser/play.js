//! Helpers that play a match the way a person does: find the page whose turn it is, click on the
//! board or on a control, and wait for the server to answer with the next state.

/** @typedef {import('playwright-core').Page} Page */

/**
 * Creates a room from the lobby form (its creator is seated at seat 0 at once); returns the room
 * id and invite link.
 * @param {Page} page
 * @param {string} ruleset
 * @param {{seats?: number, options?: Record<string, string>}} [choices] option selects by name
 */
export async function createRoom(page, ruleset, { seats, options = {} } = {}) {
  await page.waitForSelector('#create-ruleset option', { state: 'attached' });
  await page.selectOption('#create-ruleset', ruleset);
  if (seats !== undefined) await page.fill('#create-seats', String(seats));
  for (const [name, label] of Object.entries(options)) {
    await page.selectOption(`#option-${name}`, { label });
  }
  await page.click('#create-submit');
  await page.waitForSelector('.screen.room .waiting');
  await page.waitForSelector('.seat-list [data-seat-row="0"] .you');
  const invite = await page.inputValue('[data-testid=invite-link]');
  const room = /** @type {string} */ (await page.getAttribute('.screen.room', 'data-room'));
  return { room, invite };
}

/**
 * Creates a room through the REST API as the page's guest.
 * @param {Page} page @param {Record<string, unknown>} body
 * @returns {Promise<any>} the room
 */
export async function createRoomByApi(page, body) {
  return page.evaluate(async (request) => {
    const { token } = JSON.parse(localStorage.getItem('warroom.guest') ?? '{}');
    const response = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(request),
    });
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    return response.json();
  }, body);
}

/**
 * A private match against computers, as most screen checks want it: created through the API by
 * the page's guest (seat 0; seat N is a computer of `levels[N - 1]`), with no clock, then opened
 * on the page through its invite, once its board is drawn. Returns the room.
 * @param {Page} page
 * @param {string} serverUrl
 * @param {{ruleset: string, levels: string[], options?: Record<string, unknown>, botDelayMs?: number}} match
 * @returns {Promise<any>} the room
 */
export async function openBotMatch(page, serverUrl, { ruleset, levels, options, botDelayMs = 0 }) {
  const room = await createRoomByApi(page, {
    ruleset,
    seats: levels.length + 1,
    ...(options === undefined ? {} : { options }),
    creator_seat: 0,
    bots: levels.map((level, index) => ({ seat: index + 1, level })),
    bot_delay_ms: botDelayMs,
    clock: 'none',
    private: true,
  });
  await page.goto(`${serverUrl}/#/room/${room.id}?invite=${room.invite_code}`);
  await page.waitForSelector('.match .board');
  return room;
}

/**
 * Opens an invite link and takes the first free seat.
 * @param {Page} page
 * @param {string} invite
 */
export async function joinByInvite(page, invite) {
  await page.goto(invite);
  await page.waitForSelector('.seat-list button[data-seat]');
  await page.click('.seat-list button[data-seat]');
}

/**
 * The page whose seat must act now, waiting until one is found (the server may still be sending).
 * @param {Page[]} pages
 * @returns {Promise<Page | null>} null once the match is over
 */
export async function pageToAct(pages, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const page of pages) {
      const state = await page.evaluate(() => {
        const match = document.querySelector('.match');
        return match ? { interactive: match.getAttribute('data-interactive'), over: match.getAttribute('data-over') } : null;
      });
      if (state?.over === 'true') return null;
      if (state?.interactive === 'true') return page;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no page can act');
}

/**
 * Routes each page's socket through a hook (and reloads the page to the lobby) that, once armed,
 * bends the next outgoing action of `type` with `bend` (as a stale or tampered client might):
 * set `armed` on the returned switch to bend one action.
 * @param {Page[]} pages
 * @param {string} type
 * @param {(action: any) => void} bend
 */
export async function bendNextAction(pages, type, bend) {
  const next = { armed: false };
  for (const page of pages) {
    await page.routeWebSocket(/\/ws$/, (ws) => {
      const upstream = ws.connectToServer();
      ws.onMessage((message) => {
        const parsed = JSON.parse(String(message));
        if (next.armed && parsed.type === 'action' && parsed.action.type === type) {
          next.armed = false;
          bend(parsed.action);
          upstream.send(JSON.stringify(parsed));
          return;
        }
        upstream.send(message);
      });
    });
    await page.reload();
    await page.waitForSelector('.lobby');
  }
  return next;
}

/** @param {Page} page */
export const seqOf = (page) => page.getAttribute('.match', 'data-seq');

/**
 * Runs `click` and waits until the server applied something (the seq moved) or refused it.
 * @param {Page} page
 * @param {() => Promise<void>} click
 * @param {number} [timeout] ms; longer where the page is busy drawing many computers' moves
 */
export async function actAndWait(page, click, timeout = 10_000) {
  const before = await seqOf(page);
  const toasts = await refusalsShown(page);
  await click();
  await page.waitForFunction(
    ({ seq, errors }) =>
      document.querySelector('.match')?.getAttribute('data-seq') !== seq ||
      Number(document.getElementById('toasts')?.dataset.errors ?? 0) > errors,
    { seq: before, errors: toasts },
    { timeout, polling: 100 },
  );
  const refused = (await refusalsShown(page)) > toasts;
  if (refused) throw new Error(`refused: ${await page.locator('.toast.error').last().textContent()}`);
}

/** How many refusals the page has shown so far (one notice is on screen at a time). @param {Page} page */
export const refusalsShown = (page) => page.evaluate(() => Number(document.getElementById('toasts')?.dataset.errors ?? 0));

/** @param {Page} page */
export const phaseOf = (page) => page.getAttribute('.match', 'data-phase');

/**
 * Clicks region `id` on the board.
 * @param {Page} page
 * @param {string} selector a region selector, e.g. `.region.target`
 */
export async function clickRegion(page, selector) {
  const regions = page.locator(`.board ${selector}`);
  for (const region of await regions.all()) {
    if (await clickCell(page, region)) return;
  }
  // None shows a cell in the window: the first one's first cell, as before.
  await regions.first().locator('polygon').first().click({ force: true });
}

/**
 * Clicks `region` (one region of the board) where a person would: the middle of one of its
 * cells where that cell is what the window shows, not a panel, a toast or another region over
 * it (a region's first cell may lie under the phone's controls, and the middle of an irregular
 * region's box in another region).
 * @param {Page} page
 * @param {import('playwright-core').Locator} region
 * @returns {Promise<boolean>} whether it was clicked
 */
export async function clickCell(page, region) {
  await region.scrollIntoViewIfNeeded().catch(() => {});
  const point = await region.evaluate((group) => {
    for (const cell of group.querySelectorAll('polygon')) {
      const box = cell.getBoundingClientRect();
      const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      if (document.elementFromPoint(x, y)?.closest('.region') === group) return { x, y };
    }
    return null;
  });
  if (!point) return false;
  await page.mouse.click(point.x, point.y);
  return true;
}

/**
 * Aims a classic attack from `source` (a region of the board) with every die it may roll at
 * its first target, leaving the attack button to the caller; without a target the choice is
 * cancelled.
 * @param {Page} page
 * @param {import('playwright-core').Locator} source
 * @returns {Promise<boolean>} whether the attack is aimed
 */
export async function aimClassicAttack(page, source) {
  if (!(await clickCell(page, source))) await source.locator('polygon').first().click({ force: true });
  if ((await page.locator('.board .region.target').count()) === 0) {
    await page.click('[data-action=cancel]');
    return false;
  }
  const most = await page.locator('[data-dice]:not([disabled])').count();
  await page.click(`[data-dice="${most}"]`);
  // Choosing the target does not attack yet: the attack button does (no costly misclick).
  await clickRegion(page, '.region.target');
  await page.waitForSelector('[data-action=attack]');
  return true;
}

/**
 * One decision of the page whose turn it is, chosen the way a person clicks.
 * @param {import('playwright-core').Page} page
 * @param {{turns: number, combined: number, moves: number, singles: number}} tally
 */
export async function playHexdiceOnce(page, tally) {
  const phase = await phaseOf(page);
  if (phase === 'occupation') {
    await actAndWait(page, () => clickRegion(page, '.region.target'));
    return;
  }
  if (phase === 'attack') {
    tally.turns += 1;
    // Try a combined attack first (two of our dice next to one enemy die), else a single one.
    // The cells that can attack now (the marks change as dice are selected).
    const cells = await page.$$eval('.board .region.source', (regions) => regions.map((region) => region.getAttribute('data-region')));
    const cell = (/** @type {string | null} */ id) => page.locator(`.board .region[data-region="${id}"] polygon`).first();
    const count = cells.length;
    if (tally.combined < 2) {
      for (let first = 0; first < count; first++) {
        for (let second = first + 1; second < count; second++) {
          await cell(cells[first]).click({ force: true });
          await cell(cells[second]).click({ force: true });
          if ((await page.locator('.board .region.selected').count()) === 2 && (await page.locator('.board .region.target').count()) > 0) {
            await actAndWait(page, () => clickRegion(page, '.region.target'));
            tally.combined += 1;
            return;
          }
          // Not a pair: clear the selection and try the next.
          for (let i = 0; i < 3 && (await page.locator('.board .region.selected').count()) > 0; i++) {
            await page.locator('.board .region.selected').first().locator('polygon').first().click({ force: true });
          }
        }
      }
    }
    // A single attack: the first die that has a target of its own.
    for (const id of cells) {
      await cell(id).click({ force: true });
      if ((await page.locator('.board .region.target').count()) > 0) {
        await actAndWait(page, () => clickRegion(page, '.region.target'));
        tally.singles += 1;
        return;
      }
      await cell(id).click({ force: true });
    }
    throw new Error('no attack could be clicked');
  }
  if (phase === 'choose_attack') {
        await actAndWait(page, () => page.locator('button.choice:not([disabled])').first().click());
    return;
  }
  if (phase === 'conquest') {
    await actAndWait(page, () => page.click('[data-action=move-in]'));
    return;
  }
  if (phase === 'move') {
    // Every other turn, move a die that may move; else end the turn.
    const movable = page.locator('.board .region.clickable:not(.target)');
    if (tally.turns % 2 === 0 && (await movable.count()) > 0) {
      await movable.first().locator('polygon').first().click({ force: true });
      if ((await page.locator('.board .region.target').count()) > 0) {
        await actAndWait(page, () => clickRegion(page, '.region.target'));
        tally.moves += 1;
        return;
      }
    }
    await actAndWait(page, () => page.click('[data-action=end-turn]'));
    return;
  }
  throw new Error(`unexpected phase ${phase}`);
}
