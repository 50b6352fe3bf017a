// The token-bucket limiter under 100,000 distinct client addresses: each take() looks at a bounded
// number of buckets (counted, not timed), memory stays within its bound, and neither a flood of new
// addresses nor time lets an attacker's empty bucket come back full before it has refilled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../../src/engine/clock.ts';
import { addressKey } from '../../../src/engine/domain/token-bucket.ts';
import { TokenBucketLimiter } from '../../../src/engine/http/rate-limiter.ts';

const PAIRING = { capacity: 10, refillPerSecond: 1 / 60 };
const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

test('100,000 distinct addresses: every take() examines at most 5 buckets, never the whole map', () => {
  const clock = new ManualClock(0);
  const limiter = new TokenBucketLimiter(PAIRING, clock, 50_000);
  let worst = 0;
  for (let i = 0; i < 100_000; i++) {
    // Each address makes one guess (its bucket is then not full), 2 ms apart: the old sweep walked
    // the whole map on every take past 10,000 buckets.
    clock.advance(2);
    const before = limiter.stats().examined;
    const decision = limiter.take(address(i));
    // Past the bound, new addresses share the overflow bucket (and are soon refused).
    if (i < 50_000) assert.equal(decision.allowed, true);
    worst = Math.max(worst, limiter.stats().examined - before);
  }
  const stats = limiter.stats();
  assert.ok(worst <= 5, `a take() examined ${worst} buckets`);
  assert.ok(stats.examined <= 5 * 100_000);
  assert.ok(stats.size <= 50_000, `the map holds ${stats.size} buckets (bound 50,000)`);
});

test('a flood of new addresses cannot reset an attacker’s bucket: they share the overflow bucket instead', () => {
  const clock = new ManualClock(0);
  const limiter = new TokenBucketLimiter(PAIRING, clock, 1000);
  for (let i = 0; i < 10; i++) assert.equal(limiter.take('attacker').allowed, true);
  assert.equal(limiter.take('attacker').allowed, false);
  for (let i = 0; i < 5000; i++) limiter.take(address(i));
  assert.equal(limiter.stats().size, 1000);
  assert.ok(limiter.stats().overflowed >= 4000);
  assert.equal(limiter.take('attacker').allowed, false, 'still empty after 5,000 other addresses');
  // One token back a minute later, as the refill says; a full bucket only after ten minutes.
  clock.advance(60_000);
  assert.equal(limiter.take('attacker').allowed, true);
  assert.equal(limiter.take('attacker').allowed, false);
});

test('buckets idle long enough to be full again are dropped, a few per take()', () => {
  const clock = new ManualClock(0);
  const limiter = new TokenBucketLimiter(PAIRING, clock);
  for (let i = 0; i < 1000; i++) limiter.take(address(i));
  clock.advance(10 * 60_000);
  for (let i = 0; i < 400; i++) limiter.take(`late-${i}`);
  // 400 takes drop up to 4 idle buckets each: all 1,000 old ones are gone.
  assert.equal(limiter.stats().size, 400);
});

test('an IPv6 client is limited by its /64, an IPv4-mapped one as IPv4', () => {
  assert.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:0db8:0001:0002:ffff:1:2:3'), '2001:db8:1:2::/64');
  assert.equal(addressKey('::1'), '0:0:0:0::/64');
  assert.equal(addressKey('::ffff:127.0.0.9'), '127.0.0.9');
  assert.equal(addressKey('192.168.1.20'), '192.168.1.20');
  const clock = new ManualClock(0);
  const limiter = new TokenBucketLimiter({ capacity: 2, refillPerSecond: 0.001 }, clock);
  assert.equal(limiter.take(addressKey('2001:db8::1')).allowed, true);
  assert.equal(limiter.take(addressKey('2001:db8::2')).allowed, true);
  assert.equal(limiter.take(addressKey('2001:db8::3:4')).allowed, false, 'a third address of the same /64 shares the bucket');
});

test('a key taken again moves behind the others, also when it was the last one taken: the longest idle go first', () => {
  const clock = new ManualClock(0);
  const limiter = new TokenBucketLimiter(PAIRING, clock);
  limiter.take('b');
  clock.advance(300_000);
  limiter.take('a');
  clock.advance(1_000);
  // b, first in the map, moves behind a; taken again as the last key, it stays there.
  limiter.take('b');
  limiter.take('b');
  // Ten minutes after a's take (the time its bucket takes to refill): a is dropped, b not yet.
  clock.advance(599_000);
  limiter.take('c');
  assert.equal(limiter.stats().size, 2, 'a dropped, b (taken 1 s after a) kept');
  clock.advance(1_000);
  limiter.take('c');
  assert.equal(limiter.stats().size, 1, 'b dropped in its turn');
  // The last key taken, dropped as idle by its own take(), comes back as a new full bucket.
  clock.advance(700_000);
  for (let i = 0; i < 10; i++) assert.equal(limiter.take('c').allowed, true);
  assert.equal(limiter.take('c').allowed, false);
  assert.equal(limiter.stats().size, 1);
});
