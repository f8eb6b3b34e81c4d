//! The client's side of "send what changed" (docs/PROTOCOL.md "View patches"): a patch applied
//! to the view of the seq before it gives the view of its seq, leaves the old view untouched, and
//! one that does not fit is refused (the client then asks for whole views). Plain functions of
//! web-client/lib/protocol.js, run by node without a browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, PatchError, withoutStaticParts, withStaticParts } from '../../web-client/lib/protocol.js';

test('a patch sets values by path, appends, removes members and replaces the view', () => {
  const cells = Array.from({ length: 30 }, (_, i) => ({ owner: i % 2, units: 1 }));
  const old = { cells, turn: 3, to_act: 0, pending: { from: 2 }, hand: [1, 2] };
  const frozen = JSON.stringify(old);
  // As the server writes them (the Rust unit tests of protocol/src/patch.rs make the same ones).
  const patch = JSON.parse('[[["cells",7,"owner"],1],[["cells",7,"units"],4],[["turn"],4],[["pending"]],[["hand",2],9],[["added"],null]]');
  const now = applyPatch(old, patch);
  assert.equal(JSON.stringify(old), frozen, 'the old view is left as it was');
  assert.deepEqual(now.cells[7], { owner: 1, units: 4 });
  assert.equal(now.cells[8], old.cells[8], 'what did not change is shared');
  assert.equal(now.turn, 4);
  assert.equal('pending' in now, false);
  assert.deepEqual(now.hand, [1, 2, 9]);
  assert.equal(now.added, null);
  assert.deepEqual(applyPatch(old, []), old);
  assert.deepEqual(applyPatch(old, [[[], { whole: true }]]), { whole: true });
});

test('a patch that does not fit the view is refused', () => {
  const view = { cells: [{ owner: 0 }] };
  for (const patch of [
    [[['cells', 3, 'owner'], 1]],
    [[['nothing']]],
    [[['cells', 2], {}]],
    [[['cells', 'x'], 1]],
    { not: 'a patch' },
    [[[]]],
    [['cells', 1]],
  ]) {
    assert.throws(() => applyPatch(view, patch), PatchError, JSON.stringify(patch));
  }
  assert.throws(() => applyPatch(null, [[['cells', 0], 1]]), PatchError);
  assert.deepEqual(view, { cells: [{ owner: 0 }] });
});

test('a snapshot view less its static parts is what an applied view is, and completes back', () => {
  const whole = {
    board: { regions: [] },
    options: {},
    borders: [[0, 1]],
    continents: [],
    territories: [{ id: 0, name: 'Alaska', continent: 0, owner: 1, units: 3 }],
    cards: 2,
  };
  const dynamic = withoutStaticParts(whole);
  assert.deepEqual(dynamic, { territories: [{ owner: 1, units: 3 }], cards: 2 });
  const patched = applyPatch(dynamic, [[['territories', 0, 'units'], 5]]);
  assert.deepEqual(withStaticParts(patched, whole).territories[0], { id: 0, name: 'Alaska', continent: 0, owner: 1, units: 5 });
});
