// Issue 31: the async layer's own CPU (the process lock, the TransactionEscaped guard, the store
// adapters) per read, per write transaction and per store call, against the same BEGIN, store
// calls and COMMIT done synchronously on the same connection. One process, `:memory:`.
//
//   npm exec -- node --import tsx bench/probes/async-layer-cost.ts [operations=50000] [calls=5]
import { Engine } from '../../src/engine/engine.ts';

const operations = Number(process.argv[2] ?? 50_000);
const calls = Number(process.argv[3] ?? 5);
const engine = new Engine({ database: ':memory:' });
const stores = engine.sqliteStores;
const beginRead = engine.db.prepare('BEGIN DEFERRED');
const beginWrite = engine.db.prepare('BEGIN IMMEDIATE');
const commit = engine.db.prepare('COMMIT');
const MISSING = 'no-such-restaurant';

/** CPU (user + system) per operation, median of 5 blocks after a warm-up. */
async function cpuPerOperation(operation: () => Promise<unknown> | void): Promise<number> {
  for (let i = 0; i < 2_000; i++) await operation();
  const blocks: number[] = [];
  for (let block = 0; block < 5; block++) {
    const start = process.cpuUsage();
    for (let i = 0; i < operations; i++) await operation();
    const used = process.cpuUsage(start);
    blocks.push((used.user + used.system) / operations);
  }
  return blocks.sort((a, b) => a - b)[2]!;
}

const syncRead = await cpuPerOperation(() => {
  beginRead.run();
  for (let i = 0; i < calls; i++) stores.restaurants.get(MISSING);
  commit.run();
});
const asyncRead = await cpuPerOperation(() =>
  engine.read(async (tx) => {
    for (let i = 0; i < calls; i++) await tx.stores.restaurants.get(MISSING);
  }),
);
const syncWrite = await cpuPerOperation(() => {
  beginWrite.run();
  for (let i = 0; i < calls; i++) stores.restaurants.get(MISSING);
  commit.run();
});
const asyncWrite = await cpuPerOperation(() =>
  engine.transaction(async (tx) => {
    for (let i = 0; i < calls; i++) await tx.stores.restaurants.get(MISSING);
  }),
);
console.log(`${calls} store calls each; CPU per operation (median of 5 blocks of ${operations}):`);
console.log(`  read:  sync ${syncRead.toFixed(2)} µs, engine.read ${asyncRead.toFixed(2)} µs → the layer ${(asyncRead - syncRead).toFixed(2)} µs`);
console.log(`  write: sync ${syncWrite.toFixed(2)} µs, engine.transaction ${asyncWrite.toFixed(2)} µs → the layer ${(asyncWrite - syncWrite).toFixed(2)} µs`);
await engine.close();
