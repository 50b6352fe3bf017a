// Issue 31: the CPU of `POST /orders` (row 3's request) in this tree's engine and in another tree's
// (e.g. the synchronous engine at eefc45c checked out with `git worktree add`), both running at once,
// each in its own process on its own prepared database, taking turns slice by slice so that they
// share every moment of the machine's load. A slice is a fixed number of orders (not a duration):
// the kitchen's open lines grow with every order and each order's promise reads them, so both
// engines must have taken the same orders when compared. Only the engines' CPU is counted (user +
// system of each engine process over its slice, ÷ its orders), not the client's.
//
//   npm exec -- node --import tsx bench/probes/orders-side-by-side.ts --other /tmp/base-31 [--rounds 10] [--orders 200] [--prepared 20000] [--idle 5]
import BetterSqlite3 from 'better-sqlite3';
import { parseArgs } from 'node:util';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CREATE_ORDER_BODY } from '../rows/create-orders.ts';
import type * as PrepareModule from '../lib/prepare-database.ts';
import type * as ChildModule from '../lib/child.ts';
import type * as NodeFlagsModule from '../../src/engine/engine-node-flags.ts';

const { values: args } = parseArgs({
  options: {
    other: { type: 'string' },
    rounds: { type: 'string', default: '10' },
    orders: { type: 'string', default: '200' },
    prepared: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '10' },
    idle: { type: 'string', default: '5' },
  },
});
if (!args.other) throw new Error('--other <path of the other worktree> is required');

interface Side {
  name: string;
  database: string;
  baseUrl: string;
  key: string;
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

/** One tree's engine on its own prepared database, started by that tree's own bench code. */
async function startSide(name: string, root: string, workDir: string): Promise<Side> {
  const at = (path: string) => pathToFileURL(join(root, path)).href;
  const { prepareDatabase } = (await import(at('bench/lib/prepare-database.ts'))) as typeof PrepareModule;
  const { spawnChild } = (await import(at('bench/lib/child.ts'))) as typeof ChildModule;
  const { ENGINE_NODE_FLAGS } = (await import(at('src/engine/engine-node-flags.ts'))) as typeof NodeFlagsModule;
  const prepared = await prepareDatabase(join(workDir, name), Number(args.prepared));
  const engine = await spawnChild('engine', { database: prepared.path }, { nodeFlags: [...ENGINE_NODE_FLAGS] });
  return {
    name,
    database: prepared.path,
    baseUrl: engine.ready.baseUrl as string,
    key: prepared.keys.live_write,
    async cpu() {
      const usage = await engine.ask({ type: 'cpu' });
      return (usage.user as number) + (usage.system as number);
    },
    stop: () => engine.stop(),
  };
}

/** Posts `count` orders over `connections` keep-alive connections; every answer must be 201. */
async function postOrders(side: Side, count: number, connections: number): Promise<void> {
  let left = count;
  const worker = async () => {
    while (left > 0) {
      left--;
      const response = await fetch(`${side.baseUrl}/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${side.key}`, 'content-type': 'application/json' },
        body: CREATE_ORDER_BODY,
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`${side.name}: ${response.status} ${text}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const workDir = mkdtempSync(join(tmpdir(), 'comanda-side-by-side-'));
const sides = [await startSide('this', resolve('.'), workDir), await startSide('other', resolve(args.other), workDir)];
try {
  const perOrder = new Map<string, number[]>(sides.map((side) => [side.name, []]));
  const orders = Number(args.orders);
  const connections = Number(args.connections);
  // Warm-up (JIT), not counted.
  for (const side of sides) await postOrders(side, orders, connections);
  // What each engine spends with no request at all (its jobs' ticks), over the same seconds.
  const idleBefore = await Promise.all(sides.map((side) => side.cpu()));
  await new Promise((resolve) => setTimeout(resolve, Number(args.idle) * 1000));
  const idle = await Promise.all(sides.map(async (side, i) => ((await side.cpu()) - idleBefore[i]!) / Number(args.idle) / 1000));
  console.log(`idle (jobs only): ${sides.map((side, i) => `${side.name} ${idle[i]!.toFixed(1)} ms CPU/s`).join(', ')}`);
  const ratios: number[] = [];
  for (let round = 0; round < Number(args.rounds); round++) {
    // Each takes the first turn every other round.
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const before = await side.cpu();
      await postOrders(side, orders, connections);
      perOrder.get(side.name)!.push(((await side.cpu()) - before) / orders);
    }
    const mine = perOrder.get('this')!.at(-1)!;
    const theirs = perOrder.get('other')!.at(-1)!;
    ratios.push(mine / theirs);
    console.log(`round ${round + 1}: this ${mine.toFixed(0)} µs, other ${theirs.toFixed(0)} µs per order (this ÷ other ${(100 * mine / theirs).toFixed(1)} %), load ${loadavg()[0]!.toFixed(1)}`);
  }
  console.log(
    `median: this ${median(perOrder.get('this')!).toFixed(0)} µs, other ${median(perOrder.get('other')!).toFixed(0)} µs; ` +
      `median of the rounds' ratios ${(100 * median(ratios)).toFixed(1)} %`,
  );
  // What the orders left for the next one's promise to read (the same on both, or the comparison is unfair).
  for (const side of sides) {
    const db = new BetterSqlite3(side.database, { readonly: true });
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const wal = existsSync(`${side.database}-wal`) ? statSync(`${side.database}-wal`).size : 0;
    console.log(`${side.name}: ${count('orders')} orders, ${count('kitchen_held_items')} lines held, ${count('kitchen_open_items')} open lines, log ${(wal / 1e6).toFixed(1)} MB`);
    db.close();
  }
} finally {
  for (const side of sides) await side.stop();
  rmSync(workDir, { recursive: true, force: true });
}
