// Issue 31: how many promises one order's use case makes (createOrder with row 3's order, no HTTP),
// counted with an async hook on a prepared database: each is an allocation (and garbage) the
// synchronous engine did not have. With `--stacks`, where they are made (three frames each).
//
//   npm exec -- node --stack-trace-limit=8 --import tsx bench/probes/promises-per-order.ts [--orders 20] [--stacks] [--top 30]
import { createHook } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareDatabase } from '../lib/prepare-database.ts';
import { Engine } from '../../src/engine/engine.ts';
import { createOrder, type CreateOrderOptions } from '../../src/engine/services/orders/create-order.ts';
import type { CreateOrderInput } from '../../src/shared/schemas/orders.ts';
import { CREATE_ORDER_BODY } from '../rows/create-orders.ts';

const { values: args } = parseArgs({ options: { orders: { type: 'string', default: '20' }, stacks: { type: 'boolean', default: false }, top: { type: 'string', default: '30' } } });
const orders = Number(args.orders);
const workDir = mkdtempSync(join(tmpdir(), 'comanda-promises-'));
const prepared = await prepareDatabase(workDir, 500);
const engine = new Engine({ database: prepared.path });
const actor = { restaurantId: prepared.restaurantId, world: 'live' as const, canWrite: true, keyId: 'bench' };
const input = JSON.parse(CREATE_ORDER_BODY) as CreateOrderInput;
const options = { payments: { live: null, test: null }, origin: 'http://127.0.0.1' } as unknown as CreateOrderOptions;
try {
  for (let i = 0; i < 50; i++) await createOrder(engine, actor, input, options); // warm-up
  const where = new Map<string, number>();
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type !== 'PROMISE') return;
      promises++;
      if (!args.stacks) return;
      const frames = (new Error().stack ?? '').split('\n').filter((line) => line.includes('/src/')).slice(0, 3);
      const key = frames.map((line) => line.trim().replace(/\(.*\/src\//, '(')).join(' < ');
      where.set(key, (where.get(key) ?? 0) + 1);
    },
  });
  hook.enable();
  for (let i = 0; i < orders; i++) await createOrder(engine, actor, input, options);
  hook.disable();
  console.log(`promises per order: ${(promises / orders).toFixed(1)}`);
  for (const [key, count] of [...where].sort((a, b) => b[1] - a[1]).slice(0, Number(args.top))) console.log(`${(count / orders).toFixed(1).padStart(6)}  ${key}`);
} finally {
  await engine.close();
  rmSync(workDir, { recursive: true, force: true });
}
