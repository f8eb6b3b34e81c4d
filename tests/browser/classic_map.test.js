//! The classic map does not mislead (issue 37, point 6), at 1280×800 and 390×844: territories that
//! touch on the hex grid but do not border in the engine's adjacency (engine/src/classic/map.rs,
//! sent as the view's `borders`: Iceland–Northern Europe, Egypt–Congo) are parted by sea on the
//! board, true borders are not, and every territory's name is found by pointing at it (desktop)
//! or tapping it (phone).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openClient, enterName, screenshot, SIZES, serverAndBrowser } from './harness.js';
import { createRoomByApi } from './play.js';

const setup = serverAndBrowser();

/** Axial neighbours, as engine/src/hex.rs. */
const NEIGHBOURS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

/**
 * The pairs of regions whose cells share an edge, as "a-b" with a < b.
 * @param {{id: number, cells: {q: number, r: number}[]}[]} regions
 */
function touchingPairs(regions) {
  /** @type {Map<string, number>} */
  const owner = new Map();
  for (const region of regions) for (const cell of region.cells) owner.set(`${cell.q},${cell.r}`, region.id);
  /** @type {Set<string>} */
  const pairs = new Set();
  for (const region of regions) {
    for (const cell of region.cells) {
      for (const [dq, dr] of NEIGHBOURS) {
        const other = owner.get(`${cell.q + dq},${cell.r + dr}`);
        if (other !== undefined && other !== region.id) pairs.add(`${Math.min(region.id, other)}-${Math.max(region.id, other)}`);
      }
    }
  }
  return pairs;
}

for (const [size, options] of Object.entries(SIZES)) {
  test(`${size}: only true borders look like borders, and every territory is named where pointed at`, async () => {
    const player = await openClient(setup.browser, setup.server.url, options);
    await enterName(player.page, size === 'desktop' ? 'Ada' : 'Ari');
    const room = await createRoomByApi(player.page, {
      ruleset: 'classic',
      seats: 3,
      options: { setup: 'random' },
      creator_seat: 0,
      bots: [{ seat: 1, level: 'easy' }, { seat: 2, level: 'easy' }],
      bot_delay_ms: 10_000,
      clock: 'none',
    });
    // A spectator points at every territory: nothing they do acts.
    const { page, context, errors } = await openClient(setup.browser, setup.server.url, options);
    await enterName(page, size === 'desktop' ? 'Sam' : 'Sue');
    await page.goto(`${setup.server.url}/#/room/${room.id}`);
    await page.waitForSelector('.match .board');
    const matchId = await page.evaluate(async (/** @type {string} */ id) => (await (await fetch(`/api/rooms/${id}`)).json()).match_id, room.id);
    const replay = await page.evaluate(async (/** @type {string} */ id) => (await fetch(`/api/matches/${id}/replay`)).json(), matchId);
    /** @type {{board: {regions: {id: number, name: string, cells: {q: number, r: number}[]}[]}, borders: [number, number][]}} */
    const view = replay.initial_view;
    const borders = new Set(view.borders.map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`));
    const touching = touchingPairs(view.board.regions);
    const misleading = [...touching].filter((pair) => !borders.has(pair)).sort();
    const nameOf = (/** @type {number} */ id) => view.board.regions[id].name;
    const named = misleading.map((pair) => pair.split('-').map((id) => nameOf(Number(id))).join('–'));
    assert.ok(named.includes('Iceland–Northern Europe') && named.includes('Egypt–Congo'), `touching without a border: ${named}`);

    const gaps = await page.$$eval('.board .gaps [data-gap]', (paths) =>
      paths.map((path) => ({ pair: path.getAttribute('data-gap') ?? '', stroke: getComputedStyle(path).stroke, width: parseFloat(getComputedStyle(path).strokeWidth), length: /** @type {SVGPathElement} */ (path).getTotalLength() })),
    );
    assert.deepEqual(gaps.map((gap) => gap.pair).sort(), misleading, 'sea parts exactly the territories that touch without bordering');
    for (const gap of gaps) {
      assert.ok(gap.length > 0 && gap.width >= 3, `the sea between ${gap.pair} is drawn wide (${gap.width}, ${gap.length})`);
      assert.notEqual(gap.stroke, 'none');
    }
    await screenshot(page, `classic-map-gaps-${size}`);

    // Every territory's name is found by pointing at it (tapping it on a phone), whole board shown.
    await page.click('[data-zoom=reset]');
    /** @type {string[]} */
    const missing = [];
    for (const region of view.board.regions) {
      const polygon = page.locator(`.board .region[data-region="${region.id}"] polygon`).first();
      if (size === 'phone') await polygon.tap({ force: true });
      else await polygon.hover({ force: true });
      const info = (await page.textContent('[data-testid=region-info]')) ?? '';
      if (!info.startsWith(region.name)) missing.push(`${region.name}: "${info}"`);
    }
    assert.deepEqual(missing, []);
    assert.deepEqual(errors, []);
    assert.deepEqual(player.errors, []);
    await Promise.all([context.close(), player.context.close()]);
  });
}
