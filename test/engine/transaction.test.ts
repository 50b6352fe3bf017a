// Transactions as values (issue 31): Engine.transaction hands the use case its transaction, whose
// own state (the restaurants to wake) lives on it and is dropped with a rollback; nesting is said
// where it happens (tx.savepoint, engine.within). Async since issue 34: Engine.transaction called
// inside another is refused (TransactionEscaped), never nested. A POST /v1/orders with a key opens one.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { importDemoRestaurants } from '../../src/engine/demo/seed-demo.ts';
import { Engine, type WriteTransaction } from '../../src/engine/engine.ts';
import { assembleProviders } from '../../src/engine/providers.ts';
import { TransactionEscaped, WriteTransaction as WriteTransactionClass } from '../../src/engine/transaction.ts';
import { R1 } from '../support/demo-ids.ts';
import { startEngineUnderTest } from '../support/engine-under-test.ts';
import { TwoEngines, pickupOrder } from '../sync/two-engines.ts';

const RESTAURANT = R1.id;

async function engineWithWakes(): Promise<{ engine: Engine; woken: string[] }> {
  const engine = new Engine({ database: ':memory:' });
  await importDemoRestaurants(engine, assembleProviders(engine).payments, { managedOrder: false });
  const woken: string[] = [];
  engine.notifier.subscribe(RESTAURANT, () => woken.push(RESTAURANT));
  return { engine, woken };
}

const appendEvent = async (engine: Engine) => await engine.stores.events.append(RESTAURANT, 'live', 'test.event', engine.clock.now(), {});

const eventCount = (engine: Engine) => engine.read(async (tx) => (await tx.stores.events.list(RESTAURANT, 'live', 0, 100)).length);

describe('the process-wide lock (issue 34): one transaction or read at a time, from BEGIN to COMMIT', () => {
  test('concurrent transactions and reads run whole, one after another, in arrival order', async () => {
    const { engine } = await engineWithWakes();
    const order: string[] = [];
    const writer = (name: string) =>
      engine.transaction(async () => {
        order.push(`${name} begins`);
        await appendEvent(engine);
        // Awaits that hand the turn to any other microtask: still nobody else's statements in here.
        for (let i = 0; i < 5; i++) await Promise.resolve();
        await appendEvent(engine);
        order.push(`${name} commits`);
      });
    const seen: number[] = [];
    await Promise.all([writer('a'), eventCount(engine).then((n) => seen.push(n)), writer('b'), eventCount(engine).then((n) => seen.push(n))]);
    assert.deepEqual(order, ['a begins', 'a commits', 'b begins', 'b commits']);
    assert.deepEqual(seen, [2, 4], 'each read sees the writes that arrived before it, whole');
    engine.close();
  });

  test('a transaction that awaits a timer is refused and rolled back; the lock is free for the next one', async () => {
    const { engine } = await engineWithWakes();
    await assert.rejects(
      engine.transaction(async () => {
        await appendEvent(engine);
        await new Promise((resolve) => setTimeout(resolve, 1));
        await appendEvent(engine);
      }),
      TransactionEscaped,
    );
    await engine.transaction(async () => await appendEvent(engine));
    assert.equal(await eventCount(engine), 1, 'only the next transaction’s event');
    engine.close();
  });

  test('an error thrown mid-transaction rolls it back and frees the lock; the next one commits', async () => {
    const { engine } = await engineWithWakes();
    const failing = engine.transaction(async () => {
      await appendEvent(engine);
      throw new Error('refused half-way');
    });
    const next = engine.transaction(async () => await appendEvent(engine));
    await assert.rejects(failing, /refused half-way/);
    await next;
    assert.equal(await eventCount(engine), 1);
    assert.equal(engine.db.inTransaction, false);
    engine.close();
  });
});

describe('Engine.transaction hands its transaction to the work', () => {
  test('an event wakes its restaurant once the transaction commits, not before', async () => {
    const { engine, woken } = await engineWithWakes();
    await engine.transaction(async (tx) => {
      assert.ok(tx instanceof WriteTransactionClass);
      assert.equal(tx.stores, engine.stores);
      await appendEvent(engine);
      assert.deepEqual(woken, [], 'nothing is woken before the commit');
      assert.deepEqual(tx.committedNotifications(), [RESTAURANT], 'the pending wake is on the handle');
    });
    assert.deepEqual(woken, [RESTAURANT]);
    engine.close();
  });

  test('a rolled-back transaction wakes no one, and the next one starts with nothing pending', async () => {
    const { engine, woken } = await engineWithWakes();
    await assert.rejects(async () =>
      await engine.transaction(async () => {
        await appendEvent(engine);
        throw new Error('refused half-way');
      }),
    );
    assert.deepEqual(woken, []);
    assert.equal(await engine.stores.events.lastSeq(RESTAURANT), 0, 'the event was rolled back');
    await engine.transaction(async (tx) => assert.deepEqual(tx.committedNotifications(), []));
    assert.deepEqual(woken, []);
    engine.close();
  });

  test('an event written outside any transaction (already committed) wakes at once', async () => {
    const { engine, woken } = await engineWithWakes();
    await appendEvent(engine);
    assert.deepEqual(woken, [RESTAURANT]);
    engine.close();
  });

  test('tx.savepoint: a failure caught by the caller rolls back only its part', async () => {
    const { engine, woken } = await engineWithWakes();
    await engine.transaction(async (tx) => {
      await appendEvent(engine);
      await assert.rejects(async () =>
        await tx.savepoint(async (inner) => {
          assert.equal(inner, tx, 'the savepoint runs with the same handle');
          await appendEvent(engine);
          throw new Error('this part only');
        }),
      );
    });
    assert.equal(await engine.stores.events.lastSeq(RESTAURANT), 1, 'the caller’s event stands, the savepoint’s is gone');
    assert.deepEqual(woken, [RESTAURANT]);
    engine.close();
  });

  test('Engine.transaction called inside another (instead of taking its tx) is refused: the outer one is rolled back, the lock freed', async () => {
    const { engine } = await engineWithWakes();
    let nested: Promise<unknown> | null = null;
    await assert.rejects(
      engine.transaction(async () => {
        await appendEvent(engine);
        nested = engine.transaction(async () => await appendEvent(engine));
        await nested;
      }),
      TransactionEscaped,
    );
    // The inner one ran once the outer let go of the lock: its own transaction, committed.
    await nested;
    assert.equal((await engine.read(async (tx) => await tx.stores.events.list(RESTAURANT, 'live', 0, 10))).length, 1, 'the outer event rolled back');
    engine.close();
  });

  test('engine.within joins the transaction it is handed, or opens one', async () => {
    const { engine, woken } = await engineWithWakes();
    await engine.transaction(async (tx) => {
      await engine.within(tx, async (joined) => {
        assert.equal(joined, tx);
        await appendEvent(engine);
      });
      assert.deepEqual(woken, [], 'joined: woken with the caller’s commit');
    });
    assert.deepEqual(woken, [RESTAURANT]);
    await engine.within(undefined, async () => await appendEvent(engine));
    assert.deepEqual(woken, [RESTAURANT, RESTAURANT], 'opened its own and committed it');
    engine.close();
  });

  test('engine.read hands the stores it reads through; inside a write it is refused (the write reads through its tx)', async () => {
    const { engine } = await engineWithWakes();
    await engine.read(async (r) => assert.equal(r.stores, engine.stores));
    await assert.rejects(
      engine.transaction(async () => {
        await appendEvent(engine);
        await engine.read(async () => {});
      }),
      TransactionEscaped,
    );
    assert.equal(await engine.stores.events.lastSeq(RESTAURANT), 0, 'the write was rolled back');
    engine.close();
  });
});

/** Counts Engine.transaction entries made while serving POST /v1/orders (not the jobs' own, meanwhile). */
function countOrderTransactions(engine: Engine): { entries: () => number; savepoints: () => number; restore: () => void } {
  const open = engine.transaction.bind(engine);
  const savepoint = WriteTransactionClass.prototype.savepoint;
  let entries = 0;
  let savepoints = 0;
  const fromOrdersRoute = () => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 100;
    const stack = new Error().stack ?? '';
    Error.stackTraceLimit = limit;
    return /routes[/\\]orders\.ts/.test(stack);
  };
  // The transactions the route opened (a savepoint is counted in one of them: past its first await
  // a savepoint's stack no longer shows the route).
  const ordersTransactions = new Set<WriteTransaction>();
  engine.transaction = (async (work: (tx: WriteTransaction) => Promise<unknown>) => {
    if (!fromOrdersRoute()) return await open(work);
    entries++;
    return await open(async (tx) => {
      ordersTransactions.add(tx);
      return await work(tx);
    });
  }) as Engine['transaction'];
  WriteTransactionClass.prototype.savepoint = function (this: WriteTransaction, work) {
    if (ordersTransactions.has(this)) savepoints++;
    return savepoint.call(this, work);
  } as typeof savepoint;
  return {
    entries: () => entries,
    savepoints: () => savepoints,
    restore: () => {
      engine.transaction = open;
      WriteTransactionClass.prototype.savepoint = savepoint;
    },
  };
}

const orderBody = { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Ana' }, items: [{ product_id: R1.products.bebidaLata, quantity: 1 }] };

test('POST /v1/orders with an Idempotency-Key: one transaction, its write in one explicit savepoint', async () => {
  const t = await startEngineUnderTest();
  const count = countOrderTransactions(t.server.engine);
  try {
    const res = await t.call('POST', '/orders', { body: orderBody, headers: { 'Idempotency-Key': 'one-transaction' } });
    assert.equal(res.status, 201);
    assert.equal(count.entries(), 1, 'Engine.transaction entries (3 before issue 31)');
    assert.equal(count.savepoints(), 1, 'the order’s write, so that a refusal is kept without its writes');
  } finally {
    count.restore();
    await t.stop();
  }
});

test('POST /v1/orders with an Idempotency-Key on a replica: one transaction (order and outbox row together)', async () => {
  const sys = new TwoEngines('live');
  await sys.start();
  const count = countOrderTransactions(sys.replica.server.engine);
  try {
    const res = await fetch(`${sys.replica.server.baseUrl}/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sys.key}`, 'content-type': 'application/json', 'idempotency-key': 'replica-one' },
      body: JSON.stringify(pickupOrder('Ana')),
    });
    assert.equal(res.status, 201, await res.text());
    assert.equal(count.entries(), 1, 'Engine.transaction entries (4 before issue 31)');
    assert.equal(count.savepoints(), 1);
  } finally {
    count.restore();
    await sys.stop();
  }
});
