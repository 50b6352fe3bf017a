import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { applyFeedPage } from '../../src/engine/services/replica/replica-feed.ts';
import { SYNC_KEYS } from '../../src/engine/services/replica/replica-state.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { KEY_MODES, twoEnginesForSuite } from './two-engines.ts';
import type { World } from '../../src/shared/world.ts';

/** A write no engine knows of (no event, no outbox): what a lost feed event or a stray tool leaves. */
function writeBehindTheEnginesBack(database: string, orderId: string, status: string): void {
  const db = new Database(database);
  try {
    const changed = db.prepare('UPDATE orders SET status = ?, updated_at = updated_at + 1000 WHERE id = ?').run(status, orderId);
    assert.equal(changed.changes, 1, `order ${orderId} in ${database}`);
  } finally {
    db.close();
  }
}

/** An order gone from the upstream's file (a restore from an older backup, say). */
function removeBehindTheEnginesBack(database: string, orderId: string): void {
  const db = new Database(database);
  try {
    db.pragma('foreign_keys = OFF');
    assert.equal(db.prepare('DELETE FROM orders WHERE id = ?').run(orderId).changes, 1);
  } finally {
    db.close();
  }
}

function scenario(mode: World): void {
  const { sys, up, rep, syncStatus } = twoEnginesForSuite(mode);
  /** The check's own read of the feed (the puller's long-polls carry `wait`). */
  const checksSoFar = () => sys.proxy.forwarded.filter((line) => /^GET \/v1\/events\?after=[^ ]*&limit=500 HTTP/.test(line)).length;
  const afterTwoMoreChecks = async () => {
    const seen = checksSoFar();
    await eventually(async () => checksSoFar(), 'two more checks', { until: (n) => n >= seen + 2 });
  };

  async function mirroredOrder(name: string): Promise<string> {
    const created = await up('POST', '/orders', {
      location_id: R1.openLocation,
      type: 'retiro',
      customer: { name },
      items: [{ product_id: R1.products.bebidaLata, quantity: 1 }],
    });
    assert.equal(created.status, 201);
    await eventually(() => rep('GET', `/orders/${created.body.id}`), 'the order on the replica', { until: (r) => r.status === 200 });
    return created.body.id;
  }

  test('sides that disagree behind the sync are found by the periodic check: a conflict, and the upstream state wins', async () => {
    const changedUpstream = await mirroredOrder('Changed upstream');
    const changedHere = await mirroredOrder('Changed here');
    const finishedUpstream = await mirroredOrder('Finished upstream');
    const goneUpstream = await mirroredOrder('Gone upstream');
    await afterTwoMoreChecks();
    const calm = await syncStatus();
    assert.deepEqual(calm.conflicts, [], 'no difference where the sides agree');
    assert.notEqual(calm.last_check_at, null);

    writeBehindTheEnginesBack(sys.upstreamDatabase, changedUpstream, 'en_preparacion');
    writeBehindTheEnginesBack(sys.replicaDatabase, changedHere, 'listo');
    // No longer active upstream: the check asks for it by id.
    writeBehindTheEnginesBack(sys.upstreamDatabase, finishedUpstream, 'entregado');
    removeBehindTheEnginesBack(sys.upstreamDatabase, goneUpstream);

    const status = await eventually(syncStatus, 'four conflicts', { until: (s) => s.conflicts.length >= 4 });
    assert.equal(status.conflicts.length, 4, JSON.stringify(status.conflicts));
    const byOrder = new Map(status.conflicts.map((c: any) => [c.order_id, c]));
    const expected = [
      [changedUpstream, 'recibido', 'en_preparacion'],
      [changedHere, 'listo', 'recibido'],
      [finishedUpstream, 'recibido', 'entregado'],
    ] as const;
    for (const [id, here, there] of expected) {
      const conflict: any = byOrder.get(id);
      assert.ok(conflict, `a conflict for ${id}`);
      assert.equal(conflict.kind, 'order_divergence');
      assert.equal(conflict.local_change.status, here);
      assert.equal(conflict.upstream_error.code, 'diverged');
      assert.equal(conflict.upstream_state.status, there);
      assert.equal(conflict.upstream_state.id, id);
      const [a, b] = await Promise.all([up('GET', `/orders/${id}`), rep('GET', `/orders/${id}`)]);
      assert.equal(a.body.status, there);
      assert.deepEqual(b.body, a.body, 'the upstream state stands on the replica');
    }

    // The upstream has no such order: both sides kept in the conflict, and it cannot stand here.
    const gone: any = byOrder.get(goneUpstream);
    assert.equal(gone.kind, 'order_divergence');
    assert.equal(gone.local_change.status, 'recibido');
    assert.equal(gone.upstream_state, null);
    assert.equal((await up('GET', `/orders/${goneUpstream}`)).status, 404);
    assert.equal((await rep('GET', `/orders/${goneUpstream}`)).body.status, 'cancelado');

    // Resolved: later checks find the sides equal and record nothing more.
    await afterTwoMoreChecks();
    assert.equal((await syncStatus()).conflicts.length, 4);
  });

  test("a kitchen's transition then item bump, made offline, converge on the upstream's state with no conflict", async () => {
    const id = await mirroredOrder('Bumped offline');
    const conflictsBefore = (await syncStatus()).conflicts.length;
    sys.proxy.set({ kind: 'refuse' });
    await eventually(syncStatus, 'the replica to see the upstream gone', { until: (s) => s.online === false });
    assert.equal((await rep('PATCH', `/orders/${id}`, { status: 'en_preparacion' })).status, 200);
    const kitchen = { restaurantId: sys.replica.replica.identity.restaurantId, world: mode, canWrite: true, keyId: 'kitchen' };
    await sys.replica.replica.commands.setItemDone(kitchen, id, 0, true);
    assert.equal((await syncStatus()).outbox_pending, 2);
    sys.clock.advance(5_000); // the upstream applies the change later than the kitchen made it
    sys.proxy.set({ kind: 'pass' });
    await eventually(syncStatus, 'the outbox drained, online', { until: (s) => s.outbox_pending === 0 && s.online });
    const converged = await eventually(
      async () => [(await up('GET', `/orders/${id}`)).body, (await rep('GET', `/orders/${id}`)).body],
      'JSON.stringify(a) === JSON.stringify(b)',
      { until: ([a, b]) => JSON.stringify(a) === JSON.stringify(b) },
    );
    assert.equal(converged[0].status, 'en_preparacion');
    assert.deepEqual(converged[1], converged[0]);
    await afterTwoMoreChecks();
    assert.equal((await syncStatus()).conflicts.length, conflictsBefore);
  });

  test("an item bump on its way up does not hold back the order's state from the feed", async () => {
    const id = await mirroredOrder('Bump pending');
    sys.proxy.set({ kind: 'refuse' });
    await eventually(syncStatus, 'the replica to see the upstream gone', { until: (s) => s.online === false });
    const { engine, identity, commands } = sys.replica.replica;
    await commands.setItemDone({ restaurantId: identity.restaurantId, world: mode, canWrite: true, keyId: 'kitchen' }, id, 0, true);
    assert.equal(await engine.stores.sync.pending(), 1);
    // The upstream moves the order; its feed page is applied as the puller would apply it.
    assert.equal((await up('PATCH', `/orders/${id}`, { status: 'en_preparacion' })).status, 200);
    const page = (await up('GET', `/events?after=${await engine.stores.sync.state(SYNC_KEYS.cursor)}&limit=500`)).body;
    await applyFeedPage(engine, identity.restaurantId, identity.world, page);
    assert.equal((await rep('GET', `/orders/${id}`)).body.status, 'en_preparacion', "the bump changes no order state: nothing to protect");
    sys.proxy.set({ kind: 'pass' });
    await eventually(syncStatus, 'the outbox drained, online', { until: (s) => s.outbox_pending === 0 && s.online });
    const [a, b] = await Promise.all([up('GET', `/orders/${id}`), rep('GET', `/orders/${id}`)]);
    assert.deepEqual(b.body, a.body);
  });
}

for (const mode of KEY_MODES) describe(`divergence check, ${mode} key`, () => scenario(mode));
