// Busy mode's refusals in memory (issue 33): a flood costs one entry per location and minute, lists
// its first 5, counts every one; the entries waiting to be written are bounded; a failed write gives
// them back without losing a count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PENDING_MINUTES, REFUSALS_LISTED_PER_MINUTE, RefusalTally } from '../../../src/engine/domain/busy-refusals.ts';

const refused = (at: number) => ({ at, channel: 'tienda web', type: 'retiro', lines: 1, total: 5000 });

test('a flood of refusals in one minute is one entry: counted whole, its first 5 listed', () => {
  const tally = new RefusalTally();
  for (let i = 0; i < 100_000; i++) tally.note('r', 'l', 'live', refused(60_000 + (i % 60_000)));
  const [entry, ...rest] = tally.take();
  assert.equal(rest.length, 0);
  assert.equal(entry!.refused, 100_000);
  assert.equal(entry!.minute, 60_000);
  assert.equal(entry!.listed.length, REFUSALS_LISTED_PER_MINUTE);
  assert.deepEqual(tally.take(), []);
});

test('entries waiting to be written are bounded; a failed write gives them back', () => {
  const tally = new RefusalTally();
  for (let minute = 0; minute < MAX_PENDING_MINUTES + 500; minute++) tally.note('r', 'l', 'live', refused(minute * 60_000));
  const taken = tally.take();
  assert.equal(taken.length, MAX_PENDING_MINUTES);
  tally.note('r', 'l', 'live', refused(0));
  tally.giveBack(taken);
  const again = tally.take();
  assert.equal(again.length, MAX_PENDING_MINUTES);
  assert.equal(again.find((e) => e.minute === 0)!.refused, 2);
});
