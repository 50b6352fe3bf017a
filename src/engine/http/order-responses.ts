import type { FastifyReply } from 'fastify';
import type { ListOrdersInput } from '../../shared/schemas/orders.ts';
import { Order } from '../../shared/schemas/orders.ts';
import type { Engine } from '../engine.ts';
import type { Actor } from '../domain/actor.ts';
import type { World } from '../../shared/world.ts';
import type { OrderView } from '../services/orders/order-view.ts';
import { getOrder, listOrderKeys, listOrders, onOrderWrite } from '../services/orders/read-orders.ts';
import { restaurantOf } from '../services/keys/restaurant-context.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const COMMA = Buffer.from(',');

/**
 * The UTF-8 bytes of a text in a buffer of their own: Buffer.from() would cut small ones from a
 * shared 8 KB pool, and a kept order would keep its whole pool slab alive.
 */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/**
 * The route's own serializer of its 200 answer. Routes declare their answers per media type (the
 * OpenAPI document's `content`), so it is looked up by status and media type.
 */
function routeSerializer(reply: FastifyReply): (payload: unknown) => string {
  const found = reply.getSerializationFunction('200', 'application/json') as ((payload: unknown) => string) | undefined;
  return found ?? ((payload) => reply.serialize(payload) as string);
}

/**
 * Enough for the orders a restaurant's integrations read back in a day (about 1 KB each, 2 MB in
 * all); past it the oldest kept answer goes first.
 */
const MAX_KEPT_ORDERS = 2_000;

/** Whole list pages kept, in bytes (a page of 20 is about 18 KB, of 100 about 90 KB). */
const MAX_KEPT_PAGE_BYTES = 2 * 1024 * 1024;

interface KeptOrder {
  restaurantId: string;
  world: World;
  /** The restaurant's time zone the times were written in. */
  timeZone: string;
  bytes: Buffer;
}

/**
 * `GET /orders/{id}` and `GET /orders` answered from each order's response bytes, kept in memory
 * once the route's own serializer wrote them (so they are byte for byte what it writes; a test
 * checks it), and a list page assembled from them. Kept bytes are dropped when the order may have
 * changed: every write this engine makes to an order goes through OrdersStore, which tells
 * (Engine.onOrderWrite), and another connection's or node's commit shows in `engine.commits`
 * (storage/commit-signal.ts: on SQLite `PRAGMA data_version`, read by authentication once per turn
 * of the event loop and again first in a page's read transaction; on PostgreSQL every node's
 * commits, told by NOTIFY or the re-poll). An order read through an alias (a replica's local id)
 * is not kept, nor anything read while a commit came in (a read beside it on PostgreSQL).
 *
 * A kept order is sent without reading the database at all: the restaurant's time zone (the
 * times are written in it, and a missing restaurant must still refuse the key) is kept too, for
 * as long as nothing was written (`engine.commits.version()`: on SQLite this connection's
 * `total_changes()`, which needs no lock to read, and other connections' commits). Whole
 * list pages are kept under the same condition, by restaurant, world and query.
 */
export class OrderResponses {
  private readonly kept = new Map<string, KeptOrder>();
  private readonly zones = new Map<string, string>();
  /** Whole list pages by restaurant, world and query, while nothing at all was written. */
  private readonly pages = new Map<string, Buffer>();
  private pageBytes = 0;
  private keptAtChanges: string | number = -1;
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly engine: Engine,
    private readonly maxKept = MAX_KEPT_ORDERS,
  ) {
    this.unsubscribe = [
      onOrderWrite(engine, (id) => (id === null ? this.kept.clear() : this.kept.delete(id))),
      engine.commits.onChange(() => {
        this.kept.clear();
        this.keptAtChanges = -1;
      }),
    ];
  }

  /** Stops listening and forgets everything (the HTTP server closed). */
  close(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.kept.clear();
    this.zones.clear();
    this.pages.clear();
  }

  /**
   * The answer to `GET /orders/{id}` (errors are thrown, as the uncached route throws them).
   * Authentication read `PRAGMA data_version` in this turn of the event loop, before this request.
   */
  async sendOrder(reply: FastifyReply, actor: Actor, requestedId: string): Promise<FastifyReply> {
    const id = requestedId.toLowerCase();
    const world = actor.world;
    const keepable = this.keepable();
    if (keepable) {
      const zone = this.zoneOf(actor.restaurantId);
      const kept = zone === undefined ? undefined : this.find(id, actor.restaurantId, world, zone);
      if (kept) return reply.type(JSON_TYPE).send(kept);
    }
    const bytes = await this.engine.read(async (tx) => {
      this.engine.commits.check();
      const readAt = this.engine.commits.version();
      const restaurant = await restaurantOf(this.engine, actor, tx);
      if (keepable) this.keepZone(restaurant.id, restaurant.time_zone, readAt);
      const kept = this.find(id, restaurant.id, world, restaurant.time_zone);
      if (kept) return kept;
      const view = await getOrder(this.engine, actor, id, tx);
      const written = ownBytes(routeSerializer(reply)(view));
      if (keepable && view.id === id && this.unchangedSince(readAt)) {
        this.keep(id, { restaurantId: restaurant.id, world, timeZone: restaurant.time_zone, bytes: written });
      }
      return written;
    });
    return reply.type(JSON_TYPE).send(bytes);
  }

  /** The answer to `GET /orders`: the page's ids read from the index, each order's bytes kept or written. */
  async sendPage(reply: FastifyReply, actor: Actor, query: ListOrdersInput): Promise<FastifyReply> {
    const keepable = this.keepable();
    const pageKey = `${actor.restaurantId}\n${actor.world}\n${JSON.stringify(query)}`;
    if (keepable) {
      this.syncWithChanges();
      const page = this.pages.get(pageKey);
      if (page) return reply.type(JSON_TYPE).send(page);
    }
    const bytes = await this.engine.read(async (tx) => {
      this.engine.commits.check();
      const readAt = this.engine.commits.version();
      const keys = await listOrderKeys(this.engine, actor, query, tx);
      const { restaurant, world } = keys;
      const parts: Buffer[] = [];
      for (const id of keys.ids) {
        const kept = this.find(id, restaurant.id, world, restaurant.time_zone);
        if (!kept) break;
        parts.push(kept);
      }
      if (parts.length < keys.ids.length) {
        // Some order is not kept: the page's orders are read in full, in this same transaction.
        parts.length = 0;
        const serializeOrder = reply.compileSerializationSchema(Order as unknown as Record<string, unknown>) as unknown as (view: OrderView) => string;
        for (const view of (await listOrders(this.engine, actor, query, tx)).data) {
          const written = ownBytes(serializeOrder(view));
          if (keepable && this.unchangedSince(readAt)) this.keep(view.id, { restaurantId: restaurant.id, world, timeZone: restaurant.time_zone, bytes: written });
          parts.push(written);
        }
      }
      // The envelope as the route's serializer writes it, the orders put in its empty array.
      const envelope = routeSerializer(reply)({ data: [], has_more: keys.has_more, next_cursor: keys.next_cursor });
      const open = '{"data":[';
      if (!envelope.startsWith(`${open}]`)) throw new Error(`unexpected order list envelope: ${envelope}`);
      const pieces: Buffer[] = [Buffer.from(open)];
      parts.forEach((part, index) => {
        if (index > 0) pieces.push(COMMA);
        pieces.push(part);
      });
      pieces.push(Buffer.from(envelope.slice(open.length)));
      const page = Buffer.concat(pieces);
      if (keepable && this.unchangedSince(readAt)) this.keepPage(pageKey, page);
      return page;
    });
    return reply.type(JSON_TYPE).send(bytes);
  }

  /**
   * Nothing was committed since `readAt` (taken when a read began): what it read may be kept. On
   * SQLite the read holds the process lock, so only another process's commit can come between; on
   * PostgreSQL any transaction of this node or another may commit while a read runs beside it.
   */
  private unchangedSince(readAt: string | number): boolean {
    return this.engine.commits.version() === readAt;
  }

  /** Forgets kept time zones and pages if anything was written since they were kept. */
  private syncWithChanges(): void {
    const changes = this.engine.commits.version();
    if (changes === this.keptAtChanges) return;
    this.zones.clear();
    this.pages.clear();
    this.pageBytes = 0;
    this.keptAtChanges = changes;
  }

  /** The restaurant's time zone as last read, unless anything was written since. */
  private zoneOf(restaurantId: string): string | undefined {
    this.syncWithChanges();
    return this.zones.get(restaurantId);
  }

  private keepPage(key: string, page: Buffer): void {
    this.syncWithChanges();
    if (page.length > MAX_KEPT_PAGE_BYTES / 4) return;
    for (const [oldKey, oldPage] of this.pages) {
      if (this.pageBytes + page.length <= MAX_KEPT_PAGE_BYTES) break;
      this.pages.delete(oldKey);
      this.pageBytes -= oldPage.length;
    }
    this.pages.set(key, page);
    this.pageBytes += page.length;
  }

  private keepZone(restaurantId: string, zone: string, readAt: string | number): void {
    if (this.zoneOf(restaurantId) !== zone && this.unchangedSince(readAt)) this.zones.set(restaurantId, zone);
  }

  private find(id: string, restaurantId: string, world: World, timeZone: string): Buffer | undefined {
    const kept = this.kept.get(id);
    if (!kept || kept.restaurantId !== restaurantId || kept.world !== world || kept.timeZone !== timeZone) return undefined;
    return kept.bytes;
  }

  /**
   * Nothing read inside a write transaction is kept: it may yet be rolled back. The engine's own
   * notion, not the connection's: with async services the connection is in a transaction whenever
   * another use case's read or write is open between two of its awaits, which is no reason to skip.
   */
  private keepable(): boolean {
    return !this.engine.inWriteTransaction;
  }

  private keep(id: string, order: KeptOrder): void {
    this.kept.delete(id);
    if (this.kept.size >= this.maxKept) {
      const oldest = this.kept.keys().next();
      if (!oldest.done) this.kept.delete(oldest.value);
    }
    this.kept.set(id, order);
  }
}
