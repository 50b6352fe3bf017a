// What must hold of an engine's database whatever was thrown at it: checked after every run of the
// hardening suites, in process (on the engine's own connection) or on a file a killed engine left.
import assert from 'node:assert/strict';
import type { Database } from 'better-sqlite3';
import { canTransition, type OrderStatus, type OrderType } from '../../src/shared/order-states.ts';
import { ERROR_STATUS, type ErrorCode } from '../../src/shared/error-codes.ts';
import { toOrderView, type OrderItemView, type OrderView } from '../../src/engine/services/orders/order-view.ts';
import type { OrderRow } from '../../src/engine/store/orders-store.ts';
import { worldOf } from '../../src/shared/world.ts';
import { KITCHEN_EVENTS } from '../../src/shared/screen-contract/kitchen.ts';

/** Transitions the engine makes by itself (payment confirmation, scheduled release); the rest are PATCH's. */
const AUTOMATIC: readonly [OrderStatus, OrderStatus][] = [
  ['pendiente_pago', 'recibido'],
  ['pendiente_pago', 'programado'],
  ['programado', 'recibido'],
];
const INITIAL: readonly OrderStatus[] = ['recibido', 'pendiente_pago', 'programado'];

function isLegalStep(from: OrderStatus, type: OrderType, to: OrderStatus): boolean {
  return from === to || canTransition(from, type, to) || AUTOMATIC.some(([a, b]) => a === from && b === to);
}

const LEAKS = /sqlite|SQL|\n\s+at |node_modules|TypeError|RangeError|ReferenceError|Cannot read prop|undefined is not/;

/**
 * The documented error: exactly `{ error: { code, message } }`, a known code with its status, a
 * message for a person that gives away no internals.
 */
export function assertDocumentedError(status: number, body: unknown, context: string): ErrorCode {
  assert.ok(body !== null && typeof body === 'object' && !Array.isArray(body), `${context}: error body is not an object`);
  assert.deepEqual(Object.keys(body), ['error'], `${context}: error body has other top-level keys`);
  const error = (body as { error: unknown }).error as Record<string, unknown>;
  assert.ok(error !== null && typeof error === 'object', `${context}: error is not an object`);
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message'], `${context}: error has other keys`);
  const code = error.code as ErrorCode;
  assert.ok(Object.hasOwn(ERROR_STATUS, code), `${context}: unknown code ${String(code)}`);
  assert.equal(status, ERROR_STATUS[code], `${context}: ${code} answered with ${status}`);
  assert.equal(typeof error.message, 'string', `${context}: message is not a string`);
  assert.ok((error.message as string).length > 0, `${context}: empty message`);
  assert.doesNotMatch(error.message as string, LEAKS, `${context}: the message leaks internals`);
  return code;
}

interface CatalogueProduct {
  restaurant_id: string;
  price: number;
  offer_price: number | null;
  track_stock: number;
}

/** Subtotal, total and every unit price add up from the catalogue (prices never come from the client). */
export function assertTotalsAddUp(order: Pick<OrderView, 'items' | 'subtotal' | 'shipping_fee' | 'discount' | 'total' | 'type'>, products: Map<string, CatalogueProduct>, context: string): void {
  let subtotal = 0;
  for (const item of order.items) {
    assert.ok(Number.isSafeInteger(item.quantity) && item.quantity >= 1 && item.quantity <= 999, `${context}: quantity ${item.quantity}`);
    assert.ok(Number.isSafeInteger(item.unit_price) && item.unit_price >= 0, `${context}: unit_price ${item.unit_price}`);
    const product = item.product_id === null ? undefined : products.get(item.product_id);
    if (product) {
      const base = product.offer_price !== null && product.offer_price < product.price ? product.offer_price : product.price;
      const modifiers = item.modifiers.reduce((sum, m) => sum + m.price, 0);
      assert.equal(item.unit_price, base + modifiers, `${context}: unit_price of ${item.product_id} is not catalogue price + options`);
    }
    subtotal += item.unit_price * item.quantity;
  }
  assert.equal(order.subtotal, subtotal, `${context}: subtotal`);
  assert.ok(Number.isSafeInteger(order.shipping_fee) && order.shipping_fee >= 0, `${context}: shipping_fee ${order.shipping_fee}`);
  if (order.type === 'retiro') assert.equal(order.shipping_fee, 0, `${context}: a pickup order charges shipping`);
  assert.equal(order.discount, 0, `${context}: discount`);
  assert.equal(order.total, order.subtotal + order.shipping_fee - order.discount, `${context}: total`);
}

interface EventRow {
  seq: number;
  restaurant_id: string;
  world: string;
  type: string;
  data: string;
}

interface OrderHistory {
  type: OrderType;
  status: OrderStatus;
  lastView: OrderView;
  events: number;
}

interface StockEvent {
  location_id: string;
  items: { product_id: string; quantity: number }[];
}

/** Counts of what a checker has seen, for the suites' closing figures. */
export interface InvariantFigures {
  checks: number;
  events: number;
  orders: number;
  transitions: number;
  stockTakes: number;
  stockReturns: number;
  stockSets: number;
}

/**
 * Checks a database incrementally: each check reads the change feed from where the last one
 * stopped and replays it.
 * - The feed has no gap (seq 1..max, none missing) and every event is one of the four types.
 * - Every order's history starts with `order.created` in an initial state and moves by legal steps only.
 * - Stock is a ledger: a take before `order.created` (or a return before a cancellation) changes
 *   exactly the ordered quantities, never below 0; anything else is an absolute set (PUT /stock).
 *   The replayed ledger equals the stock table.
 * - Orders' totals add up from the catalogue, and the last event of each order is the order as stored.
 */
export class InvariantChecker {
  private afterSeq: number;
  private readonly ledger = new Map<string, number>();
  private readonly histories = new Map<string, OrderHistory>();
  private readonly products: Map<string, CatalogueProduct>;
  private pendingStock: { seq: number; event: StockEvent } | null = null;
  readonly figures: InvariantFigures = { checks: 0, events: 0, orders: 0, transitions: 0, stockTakes: 0, stockReturns: 0, stockSets: 0 };

  /**
   * Starts from the database as it is now: its stock is the ledger's opening balance and orders
   * that already exist are taken as they are (their past events are replayed too).
   */
  constructor(private db: Database) {
    this.products = new Map(
      (db.prepare('SELECT id, restaurant_id, price, offer_price, track_stock FROM products').all() as (CatalogueProduct & { id: string })[]).map(
        (p) => [p.id, p],
      ),
    );
    const last = (db.prepare('SELECT MAX(seq) AS seq FROM events').get() as { seq: number | null }).seq ?? 0;
    // Replay the history of orders from the start, but take the stock ledger from now.
    this.afterSeq = 0;
    this.replay(this.readEvents(0, last), false);
    this.afterSeq = last;
    for (const row of db.prepare('SELECT location_id, product_id, quantity FROM stock').all() as { location_id: string; product_id: string; quantity: number }[]) {
      this.ledger.set(`${row.location_id}|${row.product_id}`, row.quantity);
    }
  }

  private readEvents(afterSeq: number, upTo = Number.MAX_SAFE_INTEGER): EventRow[] {
    return this.db
      .prepare('SELECT seq, restaurant_id, world, type, data FROM events WHERE seq > ? AND seq <= ? ORDER BY seq')
      .all(afterSeq, upTo) as EventRow[];
  }

  /** Goes on with another connection to the same file (one opened after the engine crashed). */
  reopen(db: Database): void {
    this.db = db;
  }

  /** Replays new events and checks everything; throws an AssertionError naming the first violation. */
  check(options: { full?: boolean } = {}): void {
    this.figures.checks++;
    const negative = this.db.prepare('SELECT location_id, product_id, quantity FROM stock WHERE quantity < 0').all();
    assert.deepEqual(negative, [], 'stock went negative');
    const events = this.readEvents(this.afterSeq);
    this.replay(events, true);
    if (events.length > 0) this.afterSeq = events[events.length - 1]!.seq;
    const gap = this.db.prepare('SELECT COUNT(*) AS n, COALESCE(MAX(seq), 0) AS last FROM events').get() as { n: number; last: number };
    assert.equal(gap.n, gap.last, `the change feed has a gap: ${gap.n} events up to seq ${gap.last}`);
    this.assertLedgerMatchesStock();
    this.assertOrdersMatchFeed(options.full ? null : new Set(events.filter((e) => e.type.startsWith('order.')).map((e) => (JSON.parse(e.data) as OrderView).id)));
  }

  private replay(events: EventRow[], checkStock: boolean): void {
    let expectedSeq = this.afterSeq + 1;
    for (const event of events) {
      assert.equal(event.seq, expectedSeq, `the change feed skips from ${expectedSeq - 1} to ${event.seq}`);
      expectedSeq++;
      this.figures.events++;
      const data = JSON.parse(event.data) as unknown;
      switch (event.type) {
        case 'order.created':
        case 'order.updated':
          this.orderEvent(event, data as OrderView, checkStock);
          break;
        case 'stock.updated':
          if (checkStock) {
            this.settlePendingStock();
            this.pendingStock = { seq: event.seq, event: data as StockEvent };
          }
          break;
        case 'location.updated':
          if (checkStock) this.settlePendingStock();
          break;
        // The kitchen's own marks (an item done or not, a ticket recalled): they change
        // neither an order's history nor the stock.
        case KITCHEN_EVENTS.item:
        case KITCHEN_EVENTS.recall:
          break;
        default:
          assert.fail(`event ${event.seq} has an unknown type ${event.type}`);
      }
    }
    if (checkStock) this.settlePendingStock();
  }

  private orderEvent(event: EventRow, view: OrderView, checkStock: boolean): void {
    const context = `order ${view.id} (${view.number}) at event ${event.seq}`;
    assert.equal(event.world, worldOf(view.test), `${context}: event world`);
    const history = this.histories.get(view.id);
    const previousStatus = history?.status;
    if (event.type === 'order.created') {
      assert.equal(history, undefined, `${context}: created twice`);
      assert.ok(INITIAL.includes(view.status), `${context}: created in ${view.status}`);
      this.histories.set(view.id, { type: view.type, status: view.status, lastView: view, events: 1 });
      this.figures.orders++;
    } else {
      assert.ok(history, `${context}: updated before it was created`);
      assert.equal(view.type, history.type, `${context}: type changed`);
      assert.ok(isLegalStep(history.status, history.type, view.status), `${context}: illegal step ${history.status} -> ${view.status}`);
      if (history.status !== view.status) this.figures.transitions++;
      history.status = view.status;
      history.lastView = view;
      history.events++;
    }
    assertTotalsAddUp(view, this.products, context);
    if (!checkStock) return;
    // A live order takes tracked stock when it is created and gives it back when cancelled: the
    // stock.updated of the same transaction comes just before.
    const moves = this.trackedQuantities(view);
    const takes = event.type === 'order.created' && !view.test && moves.size > 0;
    const returns =
      event.type === 'order.updated' && !view.test && moves.size > 0 && view.status === 'cancelado' && previousStatus !== 'cancelado';
    const pending = this.pendingStock;
    if (!takes && !returns) return;
    // Online orders take their stock at creation too, so cancelling one unpaid gives it back.
    assert.ok(pending && pending.seq === event.seq - 1, `${context}: ${takes ? 'took' : 'gave back'} stock without a stock.updated just before`);
    assert.equal(pending.event.location_id, view.location_id, `${context}: stock moved at another location`);
    assert.deepEqual(
      pending.event.items.map((i) => i.product_id).sort(),
      [...moves.keys()].sort(),
      `${context}: stock.updated names other products than the order's tracked ones`,
    );
    for (const item of pending.event.items) {
      const key = `${view.location_id}|${item.product_id}`;
      const before = this.ledger.get(key) ?? 0;
      const expected = takes ? before - moves.get(item.product_id)! : before + moves.get(item.product_id)!;
      assert.ok(expected >= 0, `${context}: took ${moves.get(item.product_id)} of ${item.product_id} with only ${before} left`);
      assert.equal(item.quantity, expected, `${context}: stock of ${item.product_id} went ${before} -> ${item.quantity}, expected ${expected}`);
      this.ledger.set(key, expected);
    }
    if (takes) this.figures.stockTakes++;
    else this.figures.stockReturns++;
    this.pendingStock = null;
  }

  /** A stock.updated not followed by its order's event: an absolute set. */
  private settlePendingStock(): void {
    const pending = this.pendingStock;
    if (!pending) return;
    for (const item of pending.event.items) {
      assert.ok(Number.isSafeInteger(item.quantity) && item.quantity >= 0, `stock set to ${item.quantity} at event ${pending.seq}`);
      this.ledger.set(`${pending.event.location_id}|${item.product_id}`, item.quantity);
    }
    this.figures.stockSets++;
    this.pendingStock = null;
  }

  private trackedQuantities(view: OrderView): Map<string, number> {
    const moves = new Map<string, number>();
    for (const item of view.items as OrderItemView[]) {
      if (item.product_id === null || this.products.get(item.product_id)?.track_stock !== 1) continue;
      moves.set(item.product_id, (moves.get(item.product_id) ?? 0) + item.quantity);
    }
    return moves;
  }

  private assertLedgerMatchesStock(): void {
    const rows = this.db.prepare('SELECT location_id, product_id, quantity FROM stock').all() as { location_id: string; product_id: string; quantity: number }[];
    for (const row of rows) {
      const key = `${row.location_id}|${row.product_id}`;
      assert.equal(row.quantity, this.ledger.get(key) ?? 0, `stock of ${row.product_id} at ${row.location_id} is ${row.quantity}; the feed says ${this.ledger.get(key) ?? 0}`);
    }
  }

  /** The last event of each order (of `ids`, or all) is the order as stored now, and every order has a history. */
  private assertOrdersMatchFeed(ids: Set<string> | null): void {
    const zones = new Map((this.db.prepare('SELECT id, time_zone FROM restaurants').all() as { id: string; time_zone: string }[]).map((r) => [r.id, r.time_zone]));
    const rows =
      ids === null
        ? (this.db.prepare('SELECT * FROM orders').all() as OrderRow[])
        : [...ids].map((id) => this.db.prepare('SELECT * FROM orders WHERE id = ?').get(id) as OrderRow | undefined).filter((r) => r !== undefined);
    if (ids !== null) assert.equal(rows.length, ids.size, 'an order of the feed is missing from the orders table');
    for (const row of rows) {
      const history = this.histories.get(row.id);
      assert.ok(history, `order ${row.id} (${row.number}) has no order.created in the feed`);
      const view = toOrderView(row, zones.get(row.restaurant_id)!);
      assert.deepEqual(history.lastView, view, `order ${row.id} (${row.number}) is not as its last event says`);
      assertTotalsAddUp(view, this.products, `order ${row.id}`);
    }
    if (ids === null) {
      const count = (this.db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;
      assert.equal(this.histories.size, count, 'the feed names orders that are not stored');
    }
  }

  /** How many orders and events this checker replayed. */
  get ordersSeen(): number {
    return this.histories.size;
  }
}
