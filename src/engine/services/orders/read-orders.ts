import type { ListOrdersInput } from '../../../shared/schemas/orders.ts';
import { invalidRequest, notFound } from '../../domain/errors.ts';
import { parseInstant } from '../../domain/time.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import type { OrderListFilter, OrderListKey, OrderWriteListener } from '../../store/orders-store.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';
import type { Actor } from '../../domain/actor.ts';
import type { World } from '../../../shared/world.ts';
import { toOrderView, type OrderView } from './order-view.ts';
import { restaurantOf } from '../keys/restaurant-context.ts';

export async function getOrder(engine: Engine, actor: Actor, orderId: string, callerTx?: ReadTransaction): Promise<OrderView> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const order = await tx.stores.orders.get(restaurant.id, actor.world, orderId.toLowerCase());
    if (!order) throw notFound(`order ${orderId} not found`);
    return toOrderView(order, restaurant.time_zone);
  });
}

export interface OrderPage {
  data: OrderView[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Newest first, keyset-paginated on (created_at, id): stable while orders keep arriving. */
export async function listOrders(engine: Engine, actor: Actor, query: ListOrdersInput, callerTx?: ReadTransaction): Promise<OrderPage> {
  return await engine.readWithin(callerTx, async (tx) => {
    const { restaurant, filter, limit } = await listFilter(engine, tx, actor, query);
    const rows = await tx.stores.orders.list(filter);
    const { page, has_more, next_cursor } = pageOf(rows, limit);
    return { data: page.map((row) => toOrderView(row, restaurant.time_zone)), has_more, next_cursor };
  });
}

/** The page listOrders() answers, as order ids only (read from the index), with its world. */
export interface OrderPageKeys {
  restaurant: RestaurantRow;
  world: World;
  ids: string[];
  has_more: boolean;
  next_cursor: string | null;
}

/** The same page as listOrders() (same checks, same refusals), its orders' ids only. */
export async function listOrderKeys(engine: Engine, actor: Actor, query: ListOrdersInput, callerTx?: ReadTransaction): Promise<OrderPageKeys> {
  return await engine.readWithin(callerTx, async (tx) => {
    const { restaurant, filter, limit } = await listFilter(engine, tx, actor, query);
    const { page, has_more, next_cursor } = pageOf(await tx.stores.orders.listKeys(filter), limit);
    return { restaurant, world: actor.world, ids: page.map((key) => key.id), has_more, next_cursor };
  });
}

async function listFilter(engine: Engine, tx: ReadTransaction, actor: Actor, query: ListOrdersInput): Promise<{ restaurant: RestaurantRow; filter: OrderListFilter; limit: number }> {
  const restaurant = await restaurantOf(engine, actor, tx);
  const limit = query.limit ?? 20;
  const from = readInstant(query.from, 'from', restaurant.time_zone);
  const to = readInstant(query.to, 'to', restaurant.time_zone);
  const locationId = query.location_id?.toLowerCase();
  if (locationId !== undefined && !await tx.stores.locations.get(restaurant.id, locationId)) {
    throw invalidRequest(`location_id: unknown location ${query.location_id}`);
  }
  const filter: OrderListFilter = {
    restaurantId: restaurant.id,
    world: actor.world,
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(locationId !== undefined ? { locationId } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(query.cursor !== undefined ? { before: decodeCursor(query.cursor) } : {}),
    limit: limit + 1,
  };
  return { restaurant, filter, limit };
}

/** One more row than the limit was read: it says whether there is more. */
function pageOf<T extends OrderListKey>(rows: T[], limit: number): { page: T[]; has_more: boolean; next_cursor: string | null } {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { page, has_more: hasMore, next_cursor: hasMore && last ? encodeCursor(last.created_at, last.id) : null };
}

function readInstant(text: string | undefined, field: string, zone: string): number | undefined {
  if (text === undefined) return undefined;
  const at = parseInstant(text, zone);
  if (at === null) throw invalidRequest(`${field} must be an ISO 8601 date-time`);
  return at;
}

function encodeCursor(createdAt: number, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string') {
      return { createdAt: value[0] as number, id: value[1] as string };
    }
  } catch {
    // falls through to the refusal below
  }
  throw invalidRequest('cursor is not a cursor this API gave out (use next_cursor as it came)');
}

/**
 * Calls `listener` with an order's id each time this engine writes that order (null: possibly any
 * order); returns its removal. For caches of order views (http/order-responses.ts); other
 * connections' and nodes' commits reach them through `engine.commits`.
 */
export function onOrderWrite(engine: Engine, listener: OrderWriteListener): () => void {
  // A listener in this process, told of this engine's writes: no storage call.
  return engine.onOrderWrite(listener);
}

/** The ids of the restaurant's orders managed by a POS integration. */
export async function managedOrderIds(engine: Engine, restaurantId: string): Promise<string[]> {
  return await engine.read(async (tx) => await tx.stores.orders.managedIds(restaurantId));
}
