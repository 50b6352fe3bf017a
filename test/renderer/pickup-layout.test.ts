// The pickup screen's type size: as large as the count allows, every number inside its list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimatedNumberEm, fitPickupNumbers } from '../../src/renderer/src/pickup-layout.ts';

const numbers = (count: number, from = 1) => Array.from({ length: count }, (_, i) => ({ number: String(from + i) }));
const LANDSCAPE_LIST = { width: 874, height: 916 };
const PORTRAIT_READY_LIST = { width: 994, height: 1020 };

/** The grid's cells (columns × rows) at the fit's size hold every number: none wider or taller than its cell. */
function assertFits(box: { width: number; height: number }, list: { number: string }[], fit: { columns: number; fontPx: number }) {
  const rows = Math.ceil(list.length / fit.columns);
  const widest = Math.max(...list.map((n) => estimatedNumberEm(n.number))) * fit.fontPx;
  assert.ok(widest <= box.width / fit.columns, `${widest} px of number in a ${box.width / fit.columns} px cell`);
  assert.ok(rows * fit.fontPx * 1.2 <= box.height + 0.5, `${rows} rows of ${fit.fontPx} px in ${box.height} px`);
}

test('few numbers are huge, up to the cap; many are smaller but every one fits', () => {
  const one = fitPickupNumbers({ ...LANDSCAPE_LIST, numbers: numbers(1), maxFontPx: 400 });
  assert.equal(one.fontPx, 400, 'one number: as large as allowed');
  let previous = Infinity;
  for (const count of [2, 4, 8, 12, 16, 24, 30]) {
    const list = numbers(count, 10);
    const fit = fitPickupNumbers({ ...LANDSCAPE_LIST, numbers: list, maxFontPx: 400 });
    assertFits(LANDSCAPE_LIST, list, fit);
    assert.ok(fit.fontPx <= previous, `${count} numbers no larger than fewer`);
    previous = fit.fontPx;
  }
  assert.ok(previous >= 90, `30 two-digit numbers in a landscape column still ${previous} px`);
  const thirty = fitPickupNumbers({ ...PORTRAIT_READY_LIST, numbers: numbers(30, 100), maxFontPx: 459 });
  assertFits(PORTRAIT_READY_LIST, numbers(30, 100), thirty);
  assert.ok(thirty.fontPx >= 90, `30 three-digit numbers in portrait still ${thirty.fontPx} px`);
});

test('longer numbers (a replica\'s "L12") and names widen the cells; a measured font is used when given', () => {
  const plain = fitPickupNumbers({ ...LANDSCAPE_LIST, numbers: numbers(6), maxFontPx: 1000 });
  const lettered = fitPickupNumbers({ ...LANDSCAPE_LIST, numbers: numbers(6).map((n) => ({ number: `L${n.number}` })), maxFontPx: 1000 });
  assert.ok(lettered.fontPx < plain.fontPx);
  const named = fitPickupNumbers({ ...LANDSCAPE_LIST, numbers: numbers(6).map((n) => ({ ...n, first_name: 'Maximiliano' })), maxFontPx: 1000 });
  assert.ok(named.fontPx < plain.fontPx, 'a name under each number takes room');
  const narrowFont = fitPickupNumbers({ ...LANDSCAPE_LIST, numbers: numbers(6), maxFontPx: 1000, numberEm: (t) => t.length * 0.5 });
  assert.ok(narrowFont.fontPx > plain.fontPx, 'a narrower measured font gets larger type');
});

test('an empty list or a box not measured yet: the cap, one column', () => {
  assert.deepEqual(fitPickupNumbers({ width: 0, height: 0, numbers: numbers(3), maxFontPx: 200 }), { columns: 1, fontPx: 200 });
  assert.deepEqual(fitPickupNumbers({ ...LANDSCAPE_LIST, numbers: [], maxFontPx: 200 }), { columns: 1, fontPx: 200 });
});
