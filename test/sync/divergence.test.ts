import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import type { KeyMode } from '../../src/engine/domain/api-key-format.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually, KEY_MODES, TwoEngines, type Api } from './two-engines.ts';

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

function scenario(mode: KeyMode): void {
  const sys = new TwoEngines(mode);
  let up: Api;
  let rep: Api;
  before(async () => {
    await sys.start();
    up = sys.upstreamApi();
    rep = sys.replicaApi();
  });
  after(() => sys.stop());

  const syncStatus = async () => (await rep('GET', '/sync/status')).body;
  /** The check's own read of the feed (the puller's long-polls carry `wait`). */
  const checksSoFar = () => sys.proxy.forwarded.filter((line) => /^GET \/v1\/events\?after=[^ ]*&limit=500 HTTP/.test(line)).length;
  const afterTwoMoreChecks = async () => {
    const seen = checksSoFar();
    await eventually(async () => checksSoFar(), (n) => n >= seen + 2);
  };

  async function mirroredOrder(name: string): Promise<string> {
    const created = await up('POST', '/orders', {
      location_id: R1.openLocation,
      type: 'retiro',
      customer: { name },
      items: [{ product_id: R1.products.bebidaLata, quantity: 1 }],
    });
    assert.equal(created.status, 201);
    await eventually(() => rep('GET', `/orders/${created.body.id}`), (r) => r.status === 200);
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

    const status = await eventually(syncStatus, (s) => s.conflicts.length >= 4);
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
}

for (const mode of KEY_MODES) describe(`divergence check, ${mode} key`, () => scenario(mode));
