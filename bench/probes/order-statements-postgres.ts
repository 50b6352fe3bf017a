// Issue 34: the statements one `POST /v1/orders` (with an Idempotency-Key) sends to PostgreSQL, in
// order, on one engine node (test/support/postgres-engine-under-test.ts), after a few warm-up orders:
// how many go out in all, and how many while the restaurant's clock row is held (after its take,
// up to COMMIT); then, over 20 more orders one at a time, the round trips under the row (a statement
// sent while none of its connection's is in flight starts one: a batch sent together is one) and the
// time from the row's take being sent to COMMIT's answer, medians.
// (empanada de queso: tracked, 30 at the open location, enough for the 26 orders).
// `npm exec -- node --import tsx bench/probes/order-statements-postgres.ts`
import pg from 'pg';
import { R1 } from '../../test/support/demo-ids.ts';
import { startPostgresEnginesUnderTest } from '../../test/support/postgres-engine-under-test.ts';

const TAKE = 'INSERT INTO restaurant_clocks (restaurant_id) SELECT';
const sent: string[] = [];
const clients = new Map<pg.Client, number>();
const inFlight = new Map<pg.Client, number>();
let recording = false;
/** The order's transaction: its connection, round trips and ms from the row's take to COMMIT. */
let held: { client: pg.Client; trips: number; from: number; ms: number } | null = null;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string };
  const text = typeof first === 'string' ? first : (first?.text ?? '?');
  if (held === null && text.startsWith(TAKE)) held = { client: this, trips: 0, from: performance.now(), ms: 0 };
  if (recording) {
    if (!clients.has(this)) clients.set(this, clients.size + 1);
    // '+': a statement of the order's transaction that starts a round trip (none of its connection's in flight).
    const starts = held?.client === this && (inFlight.get(this) ?? 0) === 0 ? '+' : ' ';
    sent.push(`c${clients.get(this)}${starts} ` + text.replace(/\s+/g, ' ').slice(0, 110));
  }
  const inOrder = held?.client === this && held.ms === 0 ? held : null;
  const result = (query as (...a: unknown[]) => unknown).apply(this, args);
  // Statements given a callback (the pool's own) are not the order's: only promised ones are counted.
  if (!(result instanceof Promise)) return result;
  if (inOrder && (inFlight.get(this) ?? 0) === 0) inOrder.trips += 1;
  inFlight.set(this, (inFlight.get(this) ?? 0) + 1);
  const settled = () => {
    inFlight.set(this, inFlight.get(this)! - 1);
    if (inOrder && text === 'COMMIT') inOrder.ms = performance.now() - inOrder.from;
  };
  result.then(settled, settled);
  return result;
} as typeof query;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const [node] = await startPostgresEnginesUnderTest({ nodes: 1 });
const order = (i: number) => ({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: `Sonda ${i}` },
  items: [{ product_id: R1.products.empanadaQueso, quantity: 1 }],
});
const post = async (i: number, key: string) => {
  held = null;
  const answer = await node!.call('POST', '/orders', { body: order(i), headers: { 'idempotency-key': key } });
  if (answer.status !== 201) throw new Error(`answered ${answer.status}: ${answer.text}`);
  return held as { trips: number; ms: number } | null;
};
try {
  for (let i = 0; i < 5; i++) await post(i, `warm-${i}`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  recording = true;
  await post(99, 'probe');
  recording = false;
  const take = sent.findIndex((s) => s.includes(TAKE));
  const commit = sent.findLastIndex((s) => s.endsWith(' COMMIT'));
  sent.forEach((s, i) => console.log(`${String(i + 1).padStart(3)}${i >= take && i <= commit ? ' *' : '  '} ${s}`));
  console.log(`${sent.length} statements; ${take >= 0 ? commit - take + 1 : 0} from the clock row's take to COMMIT (marked *)`);
  const trips: number[] = [];
  const ms: number[] = [];
  for (let i = 0; i < 20; i++) {
    const one = await post(100 + i, `measured-${i}`);
    if (!one) continue;
    trips.push(one.trips);
    ms.push(one.ms);
  }
  console.log(`under the clock row, medians of ${trips.length} orders one at a time: ${median(trips)} round trips, ${median(ms).toFixed(1)} ms (ranges ${Math.min(...trips)}–${Math.max(...trips)}, ${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)} ms)`);
} finally {
  await node!.stop();
}
