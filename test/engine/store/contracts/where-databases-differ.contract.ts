// What SQLite does that PostgreSQL does not do the same way, through the stores themselves: each
// test says what each database does (docs/running-the-platform.md, "Where SQLite and PostgreSQL
// differ"). The row types are the same; these are the values at their edges.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { L1, R1, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { CATALOGUE_SEED } from './catalogue-seed.ts';
import { orderRow } from './orders-store.contract.ts';

export function whereDatabasesDifferContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED + CATALOGUE_SEED);
  });
  after(() => db.stop());

  test('an integer beyond 2^53: SQLite reads it rounded, PostgreSQL refuses to read it', async () => {
    await db.stores.stock.set(L1, 'p-zap', Number.MAX_SAFE_INTEGER);
    await db.stores.stock.restore(L1, 'p-zap', 2); // 2^53 + 1 in the database: no JavaScript number is it
    const read = Promise.resolve().then(() => db.stores.stock.quantity(L1, 'p-zap'));
    if (db.kind === 'sqlite') assert.equal(await read, 2 ** 53);
    else await assert.rejects(read, /does not fit a JavaScript number/);
  });

  test('an integer column overflowing: SQLite turns it into a float, PostgreSQL refuses the write', async () => {
    await db.stores.stock.set(L1, 'p-agua', 9e18);
    const write = Promise.resolve().then(() => db.stores.stock.restore(L1, 'p-agua', 9e18));
    if (db.kind === 'sqlite') {
      await write;
      assert.deepEqual(await db.rows(`SELECT typeof(quantity) AS type FROM stock WHERE product_id = 'p-agua'`), [{ type: 'real' }]);
    } else {
      await assert.rejects(write, (error: { code?: string }) => error.code === '22003'); // numeric_value_out_of_range
    }
  });

  test('a fraction into an integer column: SQLite keeps it, PostgreSQL refuses it', async () => {
    const write = Promise.resolve().then(() => db.stores.stock.set(L1, 'p-season', 2.5));
    if (db.kind === 'sqlite') {
      await write;
      assert.equal(await db.stores.stock.quantity(L1, 'p-season'), 2.5);
    } else {
      await assert.rejects(write, (error: { code?: string }) => error.code === '22P02'); // invalid_text_representation
    }
  });

  test('a NUL character in customer text: SQLite keeps it, PostgreSQL refuses the write', async () => {
    const write = Promise.resolve().then(() => db.stores.orders.insert(orderRow('o-nul', { notes: 'sin\u0000cebolla' })));
    if (db.kind === 'sqlite') {
      await write;
      assert.equal((await db.stores.orders.getById('o-nul'))?.notes, 'sin\u0000cebolla');
    } else {
      await assert.rejects(write, (error: { code?: string }) => error.code === '22021'); // character_not_in_repertoire
    }
  });

  test('LIKE: SQLite ignores ASCII case, PostgreSQL does not; the feed hides "Kitchen." events on SQLite only', async () => {
    const seq = await db.stores.events.append(R1, 'live', 'Kitchen.odd', 1, {});
    const listed = (await db.stores.events.list(R1, 'live', seq - 1, 10)).map((e) => e.type);
    assert.deepEqual(listed, db.kind === 'sqlite' ? [] : ['Kitchen.odd']);
  });
}
