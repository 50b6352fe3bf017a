// Issue 34: the statements one `POST /v1/orders` (with an Idempotency-Key) sends to PostgreSQL, in
// order, on one engine node (test/support/postgres-engine-under-test.ts), after a few warm-up orders:
// how many go out in all, and how many while the restaurant's clock row is held (after its take,
// up to COMMIT). `npm exec -- node --import tsx bench/probes/order-statements-postgres.ts`
import pg from 'pg';
import { R1 } from '../../test/support/demo-ids.ts';
import { startPostgresEnginesUnderTest } from '../../test/support/postgres-engine-under-test.ts';

const sent: string[] = [];
const clients = new Map<pg.Client, number>();
let recording = false;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (recording) {
    const first = args[0] as string | { text?: string };
    if (!clients.has(this)) clients.set(this, clients.size + 1);
    sent.push(`c${clients.get(this)} ` + (typeof first === 'string' ? first : (first?.text ?? '?')).replace(/\s+/g, ' ').slice(0, 110));
  }
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const [node] = await startPostgresEnginesUnderTest({ nodes: 1 });
const order = (i: number) => ({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: `Sonda ${i}` },
  items: [{ product_id: R1.products.pastelDeChoclo, quantity: 1 }],
});
try {
  for (let i = 0; i < 5; i++) {
    const warm = await node!.call('POST', '/orders', { body: order(i), headers: { 'idempotency-key': `warm-${i}` } });
    if (warm.status !== 201) throw new Error(`warm-up answered ${warm.status}: ${warm.text}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  recording = true;
  const answer = await node!.call('POST', '/orders', { body: order(99), headers: { 'idempotency-key': 'probe' } });
  recording = false;
  if (answer.status !== 201) throw new Error(`answered ${answer.status}: ${answer.text}`);
  const take = sent.findIndex((s) => s.includes('INSERT INTO restaurant_clocks (restaurant_id) SELECT'));
  const commit = sent.findLastIndex((s) => s.endsWith(' COMMIT'));
  sent.forEach((s, i) => console.log(`${String(i + 1).padStart(3)}${i >= take && i <= commit ? ' *' : '  '} ${s}`));
  console.log(`${sent.length} statements; ${take >= 0 ? commit - take + 1 : 0} from the clock row's take to COMMIT (marked *)`);
} finally {
  await node!.stop();
}
