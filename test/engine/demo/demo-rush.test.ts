// The demo's rush over the real API: a key of its own, the project's rush in order, at the pace
// asked (driven by an injected timer), until stopped; what the engine refuses is counted.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { demoRushKey, startDemoRush } from '../../../src/engine/demo/demo-rush.ts';
import { rushOrder } from '../../../src/shared/demo-rush.ts';
import { DEMO_NOW, startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';

describe('the demo rush', () => {
  let e: EngineUnderTest;
  before(async () => {
    e = await startEngineUnderTest();
  });
  after(async () => {
    await e?.stop();
  });

  test('posts the rush with its own key at the pace asked, until stopped', async () => {
    const key = await demoRushKey(e.server.engine);
    const timers: { run: () => void; ms: number }[] = [];
    const numbers: string[] = [];
    const rush = startDemoRush(key, {
      baseUrl: e.baseUrl,
      perMinute: 12,
      now: () => Date.parse(DEMO_NOW),
      setTimer: (run, ms) => timers.push({ run, ms }),
      clearTimer: () => {},
      onOrder: (r) => r.number && numbers.push(r.number),
    });
    // One order at once, the next one 5 s later (12 a minute): three ticks, three orders.
    assert.equal(timers.length, 1);
    assert.equal(timers[0]!.ms, 5000);
    timers.shift()!.run();
    timers.shift()!.run();
    rush.stop();
    assert.equal(rush.running, false);
    await rush.done;
    assert.equal(rush.posted, 3);
    assert.equal(rush.failed, 0);
    // The orders are the rush's first three, made with the rush's key (its label in the key list).
    const list = await e.call('GET', '/orders?limit=10');
    const rushed = (list.body.data as { number: string; items: unknown[]; customer: { name: string } }[]).filter((o) => numbers.includes(o.number));
    assert.equal(rushed.length, 3);
    assert.deepEqual(rushed.map((o) => o.customer.name).sort(), [0, 1, 2].map((i) => rushOrder(i).customer.name).sort());
    const keys = await e.call('GET', '/orders?limit=1', { key });
    assert.equal(keys.status, 200);
  });

  test('a refused order is counted and the rush goes on; a limit stops it', async () => {
    const results: (string | null)[] = [];
    const rush = startDemoRush('cm_live_not-a-key', { baseUrl: e.baseUrl, perMinute: 60, limit: 2, setTimer: (run) => queueMicrotask(run), onOrder: (r) => results.push(r.error) });
    await rush.done;
    assert.equal(rush.posted, 0);
    assert.equal(rush.failed, 2);
    assert.equal(results.length, 2);
    assert.ok(results.every((error) => error !== null));
  });
});
