import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KITCHEN_RECONNECT } from '../../src/sync/upstream-link.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { KEY_MODES, twoEnginesForSuite } from './two-engines.ts';
import type { World } from '../../src/shared/world.ts';

test("the kitchen's reconnect schedule probes at least every second, however long the outage", () => {
  for (const failures of [0, 1, 2, 3, 5, 10, 50, 1_000, 1_000_000]) {
    for (let i = 0; i < 20; i++) {
      const delay = KITCHEN_RECONNECT.probeDelayMs(failures);
      assert.ok(delay >= 0 && delay <= 1_000, `after ${failures} failed probes: ${delay} ms`);
    }
  }
  assert.ok(KITCHEN_RECONNECT.probeTimeoutMs <= 1_000);
});

function scenario(mode: World): void {
  // Errors the upstream answers are retried on a backoff that would outlast the test (a minute):
  // only the link's probe can bring the replica back in time.
  const probes: number[] = [];
  const { sys, up, rep, syncStatus } = twoEnginesForSuite(mode, {
    maxBackoffMs: 60_000,
    reconnect: {
      probeDelayMs: (failures) => {
        probes.push(failures);
        return 10;
      },
      probeTimeoutMs: 1_000,
    },
  });

  test('after a long outage, the probe finds the upstream and 30 queued changes drain without waiting a backoff', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const created = await up('POST', '/orders', {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: `Reconnect ${i}` },
        items: [{ product_id: R1.products.bebidaLata, quantity: 1 }],
      });
      ids.push(created.body.id);
    }
    await eventually(async () => (await rep('GET', `/orders/${ids.at(-1)}`)).status, 'the last order on the replica', { until: (s) => s === 200 });

    sys.proxy.set({ kind: 'refuse' });
    await eventually(syncStatus, 'the replica to see the upstream gone', { until: (s) => s.online === false });
    for (const id of ids) {
      for (const target of ['en_preparacion', 'listo', 'entregado']) {
        assert.equal((await rep('PATCH', `/orders/${id}`, { status: target })).status, 200);
      }
    }
    const offline = await syncStatus();
    assert.equal(offline.outbox_pending, 30);
    assert.equal(offline.online, false);
    // The outage is long enough for the failed probes to pile up: the schedule sees them all.
    await eventually(async () => probes.at(-1) ?? 0, '20 probes', { until: (n) => n >= 20 });
    assert.ok(probes.at(-1)! >= 20, `probes so far: ${probes.length}`);
    const forwardedBefore = sys.proxy.forwarded.length;

    sys.proxy.set({ kind: 'pass' });
    const status = await eventually(syncStatus, 'the outbox drained, online', { until: (s) => s.outbox_pending === 0 && s.online });
    assert.equal(status.outbox_pending, 0, JSON.stringify(status));
    assert.equal(status.online, true);
    assert.deepEqual(status.conflicts, []);
    const probed = sys.proxy.forwarded.slice(forwardedBefore).filter((line) => line.startsWith('GET /v1/events?limit=1 '));
    assert.ok(probed.length >= 1, 'the upstream was found by a probe');
    for (const id of ids) {
      const [a, b] = await Promise.all([up('GET', `/orders/${id}`), rep('GET', `/orders/${id}`)]);
      assert.equal(a.body.status, 'entregado');
      assert.deepEqual(b.body, a.body);
    }
  });
}

for (const mode of KEY_MODES) describe(`reconnect, ${mode} key`, () => scenario(mode));
