// The hardening suites lean on InvariantChecker: these tests show that it does see each kind of
// damage it claims to check, so a green suite is not a blind one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../support/engine-under-test.ts';
import { InvariantChecker } from './invariants.ts';

async function withOrders(work: (t: EngineUnderTest, ids: string[]) => void | Promise<void>): Promise<void> {
  const t = await startEngineUnderTest();
  try {
    const ids: string[] = [];
    for (const quantity of [2, 3]) {
      const res = await t.call('POST', '/orders', {
        body: {
          location_id: R1.openLocation,
          type: 'retiro',
          customer: { name: 'Ana' },
          items: [{ product_id: R1.products.empanadaQueso, quantity }, { product_id: R1.products.cazuela, quantity: 1 }],
        },
      });
      assert.equal(res.status, 201, res.text);
      ids.push(res.body.id);
    }
    await work(t, ids);
  } finally {
    await t.stop();
  }
}

test('a healthy engine passes, through orders, transitions, cancellations and stock writes', async () => {
  await withOrders(async (t, ids) => {
    const checker = new InvariantChecker(t.server.engine.db);
    checker.check({ full: true });
    assert.equal((await t.call('PATCH', `/orders/${ids[0]}`, { body: { status: 'en_preparacion' } })).status, 200);
    assert.equal((await t.call('PATCH', `/orders/${ids[1]}`, { body: { status: 'cancelado' } })).status, 200);
    assert.equal(
      (await t.call('PUT', '/stock', { body: { location_id: R1.openLocation, items: [{ product_id: R1.products.empanadaQueso, quantity: 7 }] } })).status,
      200,
    );
    assert.equal((await t.call('PATCH', `/orders/${ids[0]}`, { body: { status: 'cancelado' } })).status, 200);
    checker.check({ full: true });
    assert.equal(checker.figures.stockReturns, 2);
    assert.equal(checker.figures.stockSets, 1);
    assert.equal(await t.server.engine.stores.stock.quantity(R1.openLocation, R1.products.empanadaQueso), 9);
  });
});

test('stock changed behind the feed is caught', async () => {
  await withOrders((t) => {
    const checker = new InvariantChecker(t.server.engine.db);
    t.server.engine.db.prepare('UPDATE stock SET quantity = quantity + 1 WHERE product_id = ?').run(R1.products.empanadaQueso);
    assert.throws(() => checker.check(), /the feed says/);
  });
});

test('a take that does not match the order is caught', async () => {
  await withOrders(async (t) => {
    const db = t.server.engine.db;
    const checker = new InvariantChecker(db);
    // A forged take of 1 where the order asks for 4, in the shape the engine writes.
    const left = await t.server.engine.stores.stock.quantity(R1.openLocation, R1.products.empanadaQueso);
    db.prepare('UPDATE stock SET quantity = ? WHERE location_id = ? AND product_id = ?').run(left - 1, R1.openLocation, R1.products.empanadaQueso);
    const order = JSON.parse((db.prepare("SELECT data FROM events WHERE type = 'order.created' ORDER BY seq DESC LIMIT 1").get() as { data: string }).data);
    order.id = '99999999-0000-4000-8000-000000000001';
    order.items = [{ ...order.items[0], quantity: 4 }];
    order.subtotal = order.items[0].unit_price * 4;
    order.total = order.subtotal;
    const append = db.prepare("INSERT INTO events (restaurant_id, world, type, created_at, data) VALUES (?, ?, ?, 0, ?)");
    append.run(R1.id, 'both', 'stock.updated', JSON.stringify({ location_id: R1.openLocation, items: [{ product_id: R1.products.empanadaQueso, quantity: left - 1 }] }));
    append.run(R1.id, 'live', 'order.created', JSON.stringify(order));
    assert.throws(() => checker.check(), /went .* expected/);
  });
});

test('an illegal step in an order history is caught', async () => {
  await withOrders((t, ids) => {
    const db = t.server.engine.db;
    const checker = new InvariantChecker(db);
    const view = JSON.parse((db.prepare("SELECT data FROM events WHERE type = 'order.created' AND data LIKE ?").get(`%${ids[0]}%`) as { data: string }).data);
    db.prepare("INSERT INTO events (restaurant_id, world, type, created_at, data) VALUES (?, 'live', 'order.updated', 0, ?)").run(R1.id, JSON.stringify({ ...view, status: 'entregado' }));
    assert.throws(() => checker.check(), /illegal step recibido -> entregado/);
  });
});

test('a gap in the feed is caught', async () => {
  await withOrders((t) => {
    const db = t.server.engine.db;
    const checker = new InvariantChecker(db);
    db.prepare("INSERT INTO events (seq, restaurant_id, world, type, created_at, data) VALUES ((SELECT MAX(seq) + 2 FROM events), ?, 'both', 'location.updated', 0, '{}')").run(R1.id);
    assert.throws(() => checker.check(), /skips|gap/);
  });
});

test('an order changed without its event, or totals that do not add up, are caught', async () => {
  await withOrders((t, ids) => {
    const db = t.server.engine.db;
    const checker = new InvariantChecker(db);
    db.prepare("UPDATE orders SET status = 'listo' WHERE id = ?").run(ids[0]);
    assert.throws(() => checker.check({ full: true }), /not as its last event says/);
    db.prepare("UPDATE orders SET status = 'recibido', total = total + 1 WHERE id = ?").run(ids[0]);
    assert.throws(() => checker.check({ full: true }), /total|last event/);
  });
});

test('an order.updated carrying a moved promise is the order plus that promise: the promise alone is set aside', async () => {
  await withOrders((t, ids) => {
    const db = t.server.engine.db;
    const checker = new InvariantChecker(db);
    const view = JSON.parse((db.prepare("SELECT data FROM events WHERE type = 'order.created' AND data LIKE ?").get(`%${ids[0]}%`) as { data: string }).data);
    const append = db.prepare("INSERT INTO events (restaurant_id, world, type, created_at, data) VALUES (?, 'live', 'order.updated', 0, ?)");
    const promise = {
      expected_ready_at: '2026-11-21T20:30:00-03:00',
      promised_ready_at: '2026-11-21T20:34:00-03:00',
      wait_minutes: 34,
      quantile: 0.9,
      margin_basis: 'prior',
      previous_promised_ready_at: '2026-11-21T20:25:00-03:00',
    };
    append.run(R1.id, JSON.stringify({ ...view, promise }));
    checker.check({ full: true });
    // Anything else that differs from the stored order is still caught...
    append.run(R1.id, JSON.stringify({ ...view, customer: { ...view.customer, name: 'Otra' }, promise }));
    assert.throws(() => checker.check({ full: true }), /not as its last event says/);
  });
  await withOrders((t, ids) => {
    const db = t.server.engine.db;
    const checker = new InvariantChecker(db);
    const view = JSON.parse((db.prepare("SELECT data FROM events WHERE type = 'order.created' AND data LIKE ?").get(`%${ids[0]}%`) as { data: string }).data);
    // ...and so is a "moved" promise that did not move later.
    const promise = { expected_ready_at: '2026-11-21T20:20:00-03:00', promised_ready_at: '2026-11-21T20:22:00-03:00', previous_promised_ready_at: '2026-11-21T20:25:00-03:00' };
    db.prepare("INSERT INTO events (restaurant_id, world, type, created_at, data) VALUES (?, 'live', 'order.updated', 0, ?)").run(R1.id, JSON.stringify({ ...view, promise }));
    assert.throws(() => checker.check(), /did not move later/);
  });
});

test('order.created carries no promise: one there is caught', async () => {
  await withOrders((t, ids) => {
    const db = t.server.engine.db;
    db.prepare("UPDATE events SET data = json_set(data, '$.promise', json('{}')) WHERE type = 'order.created' AND data LIKE ?").run(`%${ids[0]}%`);
    assert.throws(() => new InvariantChecker(db).check({ full: true }), /not as its last event says/);
  });
});
