// Transactions as values (issue 31): Engine.transaction hands the use case its transaction, whose
// own state (the restaurants to wake) lives on it and is dropped with a rollback; nesting is said
// where it happens (tx.savepoint, engine.within), and code that still calls Engine.transaction
// inside another keeps working, in a savepoint. A POST /v1/orders with a key opens one.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { importDemoRestaurants } from '../../src/engine/demo/seed-demo.ts';
import { Engine, type WriteTransaction } from '../../src/engine/engine.ts';
import { assembleProviders } from '../../src/engine/providers.ts';
import { WriteTransaction as WriteTransactionClass } from '../../src/engine/transaction.ts';
import { R1 } from '../support/demo-ids.ts';
import { startEngineUnderTest } from '../support/engine-under-test.ts';
import { TwoEngines, pickupOrder } from '../sync/two-engines.ts';

const RESTAURANT = R1.id;

function engineWithWakes(): { engine: Engine; woken: string[] } {
  const engine = new Engine({ database: ':memory:' });
  importDemoRestaurants(engine, assembleProviders(engine).payments, { managedOrder: false });
  const woken: string[] = [];
  engine.notifier.subscribe(RESTAURANT, () => woken.push(RESTAURANT));
  return { engine, woken };
}

const appendEvent = (engine: Engine) => engine.stores.events.append(RESTAURANT, 'live', 'test.event', engine.clock.now(), {});

describe('Engine.transaction hands its transaction to the work', () => {
  test('an event wakes its restaurant once the transaction commits, not before', () => {
    const { engine, woken } = engineWithWakes();
    engine.transaction((tx) => {
      assert.ok(tx instanceof WriteTransactionClass);
      assert.equal(tx.stores, engine.stores);
      appendEvent(engine);
      assert.deepEqual(woken, [], 'nothing is woken before the commit');
      assert.deepEqual(tx.committedNotifications(), [RESTAURANT], 'the pending wake is on the handle');
    });
    assert.deepEqual(woken, [RESTAURANT]);
    engine.close();
  });

  test('a rolled-back transaction wakes no one, and the next one starts with nothing pending', () => {
    const { engine, woken } = engineWithWakes();
    assert.throws(() =>
      engine.transaction(() => {
        appendEvent(engine);
        throw new Error('refused half-way');
      }),
    );
    assert.deepEqual(woken, []);
    assert.equal(engine.stores.events.lastSeq(), 0, 'the event was rolled back');
    engine.transaction((tx) => assert.deepEqual(tx.committedNotifications(), []));
    assert.deepEqual(woken, []);
    engine.close();
  });

  test('an event written outside any transaction (already committed) wakes at once', () => {
    const { engine, woken } = engineWithWakes();
    appendEvent(engine);
    assert.deepEqual(woken, [RESTAURANT]);
    engine.close();
  });

  test('tx.savepoint: a failure caught by the caller rolls back only its part', () => {
    const { engine, woken } = engineWithWakes();
    engine.transaction((tx) => {
      appendEvent(engine);
      assert.throws(() =>
        tx.savepoint((inner) => {
          assert.equal(inner, tx, 'the savepoint runs with the same handle');
          appendEvent(engine);
          throw new Error('this part only');
        }),
      );
    });
    assert.equal(engine.stores.events.lastSeq(), 1, 'the caller’s event stands, the savepoint’s is gone');
    assert.deepEqual(woken, [RESTAURANT]);
    engine.close();
  });

  test('old code calling Engine.transaction inside another still works, in a savepoint of it', () => {
    const { engine } = engineWithWakes();
    let inner: WriteTransaction | null = null;
    engine.transaction((tx) => {
      appendEvent(engine);
      assert.throws(() =>
        engine.transaction((nested) => {
          inner = nested;
          appendEvent(engine);
          throw new Error('inner failure');
        }),
      );
      assert.equal(inner, tx, 'the nested call is handed the open transaction');
    });
    assert.equal(engine.stores.events.lastSeq(), 1);
    engine.close();
  });

  test('engine.within joins the transaction it is handed, or opens one', () => {
    const { engine, woken } = engineWithWakes();
    engine.transaction((tx) => {
      engine.within(tx, (joined) => {
        assert.equal(joined, tx);
        appendEvent(engine);
      });
      assert.deepEqual(woken, [], 'joined: woken with the caller’s commit');
    });
    assert.deepEqual(woken, [RESTAURANT]);
    engine.within(undefined, () => appendEvent(engine));
    assert.deepEqual(woken, [RESTAURANT, RESTAURANT], 'opened its own and committed it');
    engine.close();
  });

  test('engine.read hands the stores it reads through; inside a write, that write', () => {
    const { engine } = engineWithWakes();
    engine.read((r) => assert.equal(r.stores, engine.stores));
    engine.transaction((tx) => engine.read((r) => assert.equal(r, tx)));
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
  engine.transaction = ((work: (tx: WriteTransaction) => unknown) => {
    if (fromOrdersRoute()) entries++;
    return open(work);
  }) as Engine['transaction'];
  WriteTransactionClass.prototype.savepoint = function (this: WriteTransaction, work) {
    if (fromOrdersRoute()) savepoints++;
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
