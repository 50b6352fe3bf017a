// The lines open and held at the kitchen's stations, kept in memory (issues 31 and 32): every order's
// promise needs every one of them at its location, and reading them (200 rows and more at a rush)
// was the largest part of a `POST /v1/orders`. The engine's own writes to them are followed as they
// commit (Engine.onKitchenLinesCommitted: an order fired, a line held, fired, started, bumped, undone,
// a ticket ready or cancelled), each applied with its statement's exact meaning; the whole is built
// again from the database when it cannot be followed: on first use after a start, after another
// connection's commit (`commits`), and when it outgrows MAX_KEPT_LINES.
//
// SQLite only. On PostgreSQL several nodes write the same locations and a node hears another's commit
// only after it, by NOTIFY: inside an order's transaction a kept copy could miss the line another node
// just committed and promise against a shorter queue. There the lines are read, one round trip as the
// version read that could validate a copy would be.
import type { Engine, ReadTransaction } from '../../engine.ts';
import { WriteTransaction } from '../../transaction.ts';
import type { HeldItemRow, KitchenLineWrite, OpenItemRow, OpenLineAtStation } from '../../store/kitchen-timings-store.ts';

/**
 * At most this many lines (open and held, every location) are kept: 20,000 small rows, a few MB.
 * Past it (screens left unbumped for days) the lines are read again per promise, as before.
 */
export const MAX_KEPT_LINES = 20_000;
/** Lines written while past MAX_KEPT_LINES before another build is tried. */
const WRITES_BEFORE_RETRY = 1_000;

type LineRow = { order_id: string; item_index: number; location_id: string };

const keyOf = (orderId: string, itemIndex: number) => `${orderId}\u001f${itemIndex}`;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** openAtLocation's order: fired first, then the log's seq, then the line (a total order). */
const openOrder = (a: OpenItemRow, b: OpenItemRow) => a.fired_at - b.fired_at || a.fire_seq - b.fire_seq || byText(a.order_id, b.order_id) || a.item_index - b.item_index;
/** heldAtLocation's order: soonest to fire first, then the line. */
const heldOrder = (a: HeldItemRow, b: HeldItemRow) => a.fire_at - b.fire_at || byText(a.order_id, b.order_id) || a.item_index - b.item_index;

/** One table's rows: by line, by order, and per location in its read's order. Rows are replaced, never changed in place. */
class KeptTable<R extends LineRow> {
  private readonly byKey = new Map<string, R>();
  private readonly byOrder = new Map<string, Set<number>>();
  private readonly byLocation = new Map<string, R[]>();

  constructor(private readonly before: (a: R, b: R) => number) {}

  get size(): number {
    return this.byKey.size;
  }

  get(orderId: string, itemIndex: number): R | undefined {
    return this.byKey.get(keyOf(orderId, itemIndex));
  }

  /** The location's rows, in the read's order: not to be changed by a caller. */
  at(locationId: string): readonly R[] {
    return this.byLocation.get(locationId) ?? [];
  }

  itemsOf(orderId: string): number[] {
    return [...(this.byOrder.get(orderId) ?? [])];
  }

  put(row: R): void {
    this.remove(row.order_id, row.item_index);
    this.byKey.set(keyOf(row.order_id, row.item_index), row);
    let items = this.byOrder.get(row.order_id);
    if (!items) this.byOrder.set(row.order_id, (items = new Set()));
    items.add(row.item_index);
    let rows = this.byLocation.get(row.location_id);
    if (!rows) this.byLocation.set(row.location_id, (rows = []));
    // Mostly the newest (fired or held now): at the end, with no search.
    const last = rows.at(-1);
    if (last === undefined || this.before(last, row) < 0) rows.push(row);
    else rows.splice(this.place(rows, row, rows.length), 0, row);
  }

  remove(orderId: string, itemIndex: number): void {
    const key = keyOf(orderId, itemIndex);
    const row = this.byKey.get(key);
    if (!row) return;
    this.byKey.delete(key);
    const items = this.byOrder.get(orderId)!;
    items.delete(itemIndex);
    if (items.size === 0) this.byOrder.delete(orderId);
    const rows = this.byLocation.get(row.location_id)!;
    rows.splice(this.place(rows, row, rows.length), 1);
    if (rows.length === 0) this.byLocation.delete(row.location_id);
  }

  /** Where `row` goes among `rows[0, end)` (binary search: the first not before it). */
  private place(rows: readonly R[], row: R, end: number): number {
    let low = 0;
    let high = end;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.before(rows[middle]!, row) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

class KeptLines {
  state: 'unread' | 'kept' | 'too-many' = 'unread';
  open = new KeptTable<OpenItemRow>(openOrder);
  held = new KeptTable<HeldItemRow>(heldOrder);
  private writesWhileTooMany = 0;

  forget(): void {
    this.state = 'unread';
    this.open = new KeptTable<OpenItemRow>(openOrder);
    this.held = new KeptTable<HeldItemRow>(heldOrder);
  }

  build(open: readonly OpenItemRow[], held: readonly HeldItemRow[]): void {
    this.forget();
    if (open.length + held.length > MAX_KEPT_LINES) {
      this.tooMany();
      return;
    }
    for (const row of open) this.open.put({ ...row });
    for (const row of held) this.held.put({ ...row });
    this.state = 'kept';
  }

  private tooMany(): void {
    this.forget();
    this.state = 'too-many';
    this.writesWhileTooMany = 0;
  }

  /** A commit's writes, each with its statement's meaning (store/kitchen-timings-store.ts). */
  apply(writes: readonly KitchenLineWrite[]): void {
    if (this.state === 'too-many' && (this.writesWhileTooMany += writes.length) >= WRITES_BEFORE_RETRY) this.state = 'unread';
    if (this.state !== 'kept') return;
    for (const write of writes) this.applyOne(write);
    if (this.open.size + this.held.size > MAX_KEPT_LINES) this.tooMany();
  }

  private applyOne(write: KitchenLineWrite): void {
    switch (write.kind) {
      case 'open': {
        // ON CONFLICT: only the firing and the start change on a line already open.
        const was = this.open.get(write.row.order_id, write.row.item_index);
        const { fired_at, started_at, started_explicit, fire_seq } = write.row;
        this.open.put(was ? { ...was, fired_at, started_at, started_explicit, fire_seq } : { ...write.row });
        return;
      }
      case 'close':
        this.open.remove(write.order_id, write.item_index);
        return;
      case 'close-order':
        for (const item of this.open.itemsOf(write.order_id)) this.open.remove(write.order_id, item);
        return;
      case 'start':
        for (const item of this.open.itemsOf(write.order_id)) {
          const was = this.open.get(write.order_id, item)!;
          if (was.started_at === null) this.open.put({ ...was, started_at: write.at });
        }
        return;
      case 'start-line': {
        const was = this.open.get(write.order_id, write.item_index);
        if (was) this.open.put({ ...was, started_at: write.started_at, started_explicit: write.started_explicit });
        return;
      }
      case 'hold': {
        // ON CONFLICT: only the planned firing and target change on a line already held.
        const was = this.held.get(write.row.order_id, write.row.item_index);
        this.held.put(was ? { ...was, fire_at: write.row.fire_at, target_ready_at: write.row.target_ready_at } : { ...write.row });
        return;
      }
      case 'unhold':
        this.held.remove(write.order_id, write.item_index);
        return;
      case 'unhold-order':
        for (const item of this.held.itemsOf(write.order_id)) this.held.remove(write.order_id, item);
        return;
    }
  }
}

const kept = new WeakMap<Engine, KeptLines>();

function keptOf(engine: Engine): KeptLines {
  let lines = kept.get(engine);
  if (!lines) {
    const created = new KeptLines();
    engine.onKitchenLinesCommitted((writes) => created.apply(writes));
    // Another connection's commit (a CLI, a second process on the file) may have changed any line.
    engine.commits.onChange(() => created.forget());
    kept.set(engine, (lines = created));
  }
  return lines;
}

/**
 * The kept lines, built if need be, when they stand for what `tx` sees: null on PostgreSQL, inside a
 * write that already wrote lines of its own (not kept until it commits), and past MAX_KEPT_LINES.
 */
async function keptFor(engine: Engine, tx: ReadTransaction): Promise<KeptLines | null> {
  if (engine.kind !== 'sqlite') return null;
  if (tx instanceof WriteTransaction && tx.kitchenLineWrites().length > 0) return null;
  const lines = keptOf(engine);
  engine.commits.check();
  if (lines.state === 'unread') {
    // Under the process lock nothing commits meanwhile; a write open here wrote no line yet.
    const open = await tx.stores.kitchenTimings.allOpenLines(MAX_KEPT_LINES + 1);
    const held = open.length > MAX_KEPT_LINES ? [] : await tx.stores.kitchenTimings.allHeldLines(MAX_KEPT_LINES + 1 - open.length);
    lines.build(open, held);
  }
  return lines.state === 'kept' ? lines : null;
}

/**
 * The location's open lines at a station fired since `since`, oldest fired first, at most `limit`:
 * live ones only, or (`withTest`) the sandbox's too. What openAtLocation reads, from memory when kept;
 * the rows carry the open line's other columns too, and are not to be changed.
 */
export async function openLinesAt(engine: Engine, tx: ReadTransaction, locationId: string, withTest: boolean, since: number, limit: number): Promise<OpenLineAtStation[]> {
  const lines = await keptFor(engine, tx);
  if (!lines) return await tx.stores.kitchenTimings.openAtLocation(locationId, withTest, since, limit);
  const rows = lines.open.at(locationId);
  const result: OpenLineAtStation[] = [];
  // Oldest first: those fired before `since` are a prefix.
  let index = 0;
  while (index < rows.length && rows[index]!.fired_at < since) index++;
  const test = withTest ? 1 : 0;
  for (; index < rows.length && result.length < limit; index++) {
    const row = rows[index]!;
    if (row.test <= test && row.station_id !== null) result.push(row as OpenLineAtStation);
  }
  return result;
}

/** The location's held lines, soonest to fire first, at most `limit` (heldAtLocation, from memory when kept; not to be changed). */
export async function heldLinesAt(engine: Engine, tx: ReadTransaction, locationId: string, withTest: boolean, limit: number): Promise<HeldItemRow[]> {
  const lines = await keptFor(engine, tx);
  if (!lines) return await tx.stores.kitchenTimings.heldAtLocation(locationId, withTest, limit);
  const test = withTest ? 1 : 0;
  const result: HeldItemRow[] = [];
  for (const row of lines.held.at(locationId)) {
    if (result.length >= limit) break;
    if (row.test <= test) result.push(row);
  }
  return result;
}

/** Whether the lines are kept in memory now (the tests and the bench say which path they measured). */
export function kitchenLinesKept(engine: Engine): boolean {
  return kept.get(engine)?.state === 'kept';
}
