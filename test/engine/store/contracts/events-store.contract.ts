// EventsStore's contract, on both databases. Sequences are compared relative to each other: on
// SQLite one rowid numbers the whole file, on PostgreSQL each restaurant's clock row its own.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';

export function eventsStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
  });
  after(() => db.stop());

  test('appended events are listed after a cursor in order, by world, the kitchen\'s own left out', async () => {
    const appendedBefore = db.appended.length;
    const live = await db.stores.events.append(R1, 'live', 'order.created', 100, { id: 'o-1' });
    const test_ = await db.stores.events.append(R1, 'test', 'order.created', 101, { id: 't-1' });
    const both = await db.stores.events.append(R1, 'both', 'stock.changed', 102, { product: 'p' });
    const kitchen = await db.stores.events.append(R1, 'live', 'kitchen.item_done', 103, {});
    await db.stores.events.append(R2, 'live', 'order.created', 104, { id: 'o-r2' });
    assert.ok(live < test_ && test_ < both && both < kitchen, 'increasing within a restaurant');
    assert.deepEqual(db.appended.slice(appendedBefore), [R1, R1, R1, R1, R2]);
    assert.deepEqual(await db.stores.events.list(R1, 'live', live - 1, 10), [
      { seq: live, type: 'order.created', created_at: 100, data: '{"id":"o-1"}' },
      { seq: both, type: 'stock.changed', created_at: 102, data: '{"product":"p"}' },
    ]);
    assert.deepEqual((await db.stores.events.list(R1, 'test', live - 1, 10)).map((e) => e.seq), [test_, both]);
    assert.deepEqual((await db.stores.events.list(R1, 'live', live, 10)).map((e) => e.seq), [both]);
    assert.deepEqual((await db.stores.events.list(R1, 'live', live - 1, 1)).map((e) => e.seq), [live]);
    assert.deepEqual((await db.stores.events.list(R2, 'live', 0, 10)).map((e) => e.type), ['order.created']);
  });

  test('an event rolled back with its write leaves no gap: the next one follows the last committed', async () => {
    const last = await db.stores.events.append(R1, 'live', 'order.updated', 200, {});
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.events.append(R1, 'live', 'order.updated', 201, {});
        throw new Error('the write failed');
      }),
      /the write failed/,
    );
    const next = await db.stores.events.append(R1, 'live', 'order.updated', 202, {});
    assert.equal(next, last + 1);
  });

  test('lastSeq: a "from now" cursor of one restaurant (a cursor of all would skip on PostgreSQL)', async () => {
    const r1Last = await db.stores.events.append(R1, 'live', 'order.updated', 300, {});
    const r2Last = await db.stores.events.append(R2, 'live', 'order.updated', 301, {});
    assert.equal(await db.stores.events.lastSeq(R1), r1Last);
    assert.equal(await db.stores.events.lastSeq(R2), r2Last);
    assert.equal(await db.stores.events.lastSeq('r-none'), 0);
  });
}
