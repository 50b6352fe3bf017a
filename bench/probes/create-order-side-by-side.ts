// Issue 31: the CPU of the order use case alone (createOrder, no HTTP) in this tree and in another
// tree (e.g. the synchronous engine at eefc45c checked out with `git worktree add`), in one process:
// each tree's own Engine on its own prepared database, calling its own createOrder with row 3's
// order, taking turns slice by slice (a slice is a fixed number of orders, so both kitchens hold the
// same open lines when compared). No jobs run, so nothing but the orders changes the files. Run it
// under `--cpu-prof` to compare the two trees' functions in one profile (their files' paths differ).
//
//   npm exec -- node --import tsx bench/probes/create-order-side-by-side.ts --other /tmp/base-31 [--rounds 10] [--orders 100] [--prepared 2000]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CREATE_ORDER_BODY } from '../rows/create-orders.ts';
import type * as PrepareModule from '../lib/prepare-database.ts';
import type * as EngineModule from '../../src/engine/engine.ts';
import type * as CreateOrderModule from '../../src/engine/services/orders/create-order.ts';
import type { CreateOrderInput } from '../../src/shared/schemas/orders.ts';

const { values: args } = parseArgs({
  options: {
    other: { type: 'string' },
    rounds: { type: 'string', default: '10' },
    orders: { type: 'string', default: '100' },
    prepared: { type: 'string', default: '2000' },
  },
});
if (!args.other) throw new Error('--other <path of the other worktree> is required');

interface Side {
  name: string;
  placeOne(): Promise<unknown>;
  close(): Promise<void> | void;
}

const input = JSON.parse(CREATE_ORDER_BODY) as CreateOrderInput;

async function openSide(name: string, root: string, workDir: string): Promise<Side> {
  const at = (path: string) => pathToFileURL(join(root, path)).href;
  const { prepareDatabase } = (await import(at('bench/lib/prepare-database.ts'))) as typeof PrepareModule;
  const { Engine } = (await import(at('src/engine/engine.ts'))) as typeof EngineModule;
  const { createOrder } = (await import(at('src/engine/services/orders/create-order.ts'))) as typeof CreateOrderModule;
  const prepared = await prepareDatabase(join(workDir, name), Number(args.prepared));
  const engine = new Engine({ database: prepared.path });
  const actor = { restaurantId: prepared.restaurantId, world: 'live' as const, canWrite: true, keyId: 'bench' };
  const options = { payments: { live: null, test: null }, origin: 'http://127.0.0.1' } as unknown as Parameters<typeof createOrder>[3];
  return {
    name,
    placeOne: async () => await createOrder(engine, actor, input, options),
    close: () => engine.close(),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cpuNow = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

const workDir = mkdtempSync(join(tmpdir(), 'comanda-create-order-'));
const sides = [await openSide('this', resolve('.'), workDir), await openSide('other', resolve(args.other), workDir)];
try {
  const orders = Number(args.orders);
  const place = async (side: Side) => {
    for (let i = 0; i < orders; i++) await side.placeOne();
  };
  for (const side of sides) await place(side); // warm-up, not counted
  const perOrder = new Map<string, number[]>(sides.map((side) => [side.name, []]));
  const ratios: number[] = [];
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const before = cpuNow();
      await place(side);
      perOrder.get(side.name)!.push((cpuNow() - before) / orders);
    }
    const mine = perOrder.get('this')!.at(-1)!;
    const theirs = perOrder.get('other')!.at(-1)!;
    ratios.push(mine / theirs);
    console.log(`round ${round + 1}: this ${mine.toFixed(0)} µs, other ${theirs.toFixed(0)} µs per order (${(100 * mine / theirs).toFixed(1)} %), load ${loadavg()[0]!.toFixed(1)}`);
  }
  console.log(`median: this ${median(perOrder.get('this')!).toFixed(0)} µs, other ${median(perOrder.get('other')!).toFixed(0)} µs; median of the rounds' ratios ${(100 * median(ratios)).toFixed(1)} %`);
} finally {
  for (const side of sides) await side.close();
  rmSync(workDir, { recursive: true, force: true });
}
