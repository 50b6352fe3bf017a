import { mapInOrder } from '../../../shared/in-order.ts';
// The replay of a past service (issue 33): a location's day read once, in one read transaction, as a
// timeline the Informes screen scrubs (shared/kitchen-replay.ts gives the state at any instant): the
// orders' states from their events, the item timing log as lines in cook lanes
// (domain/kitchen-report/replay-lines.ts), and each order's promise beside when it was ready.
import { DateTime } from 'luxon';
import type { KitchenReplay, ReplayOrder } from '../../../shared/kitchen-replay.ts';
import { ORDER_STATUSES, type OrderStatus } from '../../../shared/order-states.ts';
import type { KitchenReplayQuery } from '../../../shared/schemas/kitchen-replay-query.ts';
import type { Actor } from '../../domain/actor.ts';
import { invalidRequest, notFound } from '../../domain/errors.ts';
import { replayLines } from '../../domain/kitchen-report/replay-lines.ts';
import type { Engine } from '../../engine.ts';
import { cooksOnShift } from '../kitchen/kitchen-promise.ts';
import { readKitchenSettings } from '../kitchen/kitchen-settings.ts';
import { restaurantOf } from '../keys/restaurant-context.ts';

/** Orders still on the board at the day's start were made at most this long before it (their states are read from then). */
const LOOK_BEFORE_MS = 4 * 3_600_000;
/** Bounds on what one replay reads (a day of a very busy kitchen is far below them). */
const MAX_LOG_ROWS = 200_000;
const MAX_STATE_ROWS = 100_000;

const STATUSES: ReadonlySet<string> = new Set(ORDER_STATUSES);

/** Reads the location's service on the query's day (one read transaction). */
export async function readKitchenReplay(engine: Engine, actor: Actor, query: KitchenReplayQuery): Promise<KitchenReplay> {
  return await engine.read(async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const locationId = query.location_id.toLowerCase();
    if (!await tx.stores.locations.get(restaurant.id, locationId)) throw notFound(`location ${query.location_id} not found`);
    const zone = restaurant.time_zone;
    const day = DateTime.fromISO(query.day, { zone });
    if (!day.isValid) throw invalidRequest('day must be a date that exists (YYYY-MM-DD)');
    const from = day.startOf('day').toMillis();
    const to = day.plus({ days: 1 }).startOf('day').toMillis();
    const world = actor.world;
    const store = tx.stores.kitchenReplay;

    const states = await store.orderStates(restaurant.id, world, locationId, from - LOOK_BEFORE_MS, to, MAX_STATE_ROWS);
    const rows = await store.log(restaurant.id, locationId, world, from - LOOK_BEFORE_MS, to, MAX_LOG_ROWS);

    const orders: ReplayOrder[] = [];
    const indexOf = new Map<string, number>();
    for (const row of states) {
      if (!STATUSES.has(row.status)) continue;
      let index = indexOf.get(row.order_id);
      if (index === undefined) {
        index = orders.push({ id: row.order_id, number: row.number, states: [], promised_ready_at: null, ready_at: null }) - 1;
        indexOf.set(row.order_id, index);
      }
      const order = orders[index]!;
      order.number = row.number;
      // An event that changed something else (a courier's status) repeats the state: kept once.
      if (order.states[order.states.length - 1]?.[1] !== row.status) order.states.push([row.at, row.status as OrderStatus]);
    }
    for (const order of orders) order.ready_at = order.states.find(([, s]) => s === 'listo')?.[0] ?? null;
    for (const promise of await store.promises(orders.map((o) => o.id))) {
      const order = orders[indexOf.get(promise.order_id)!]!;
      order.promised_ready_at = promise.promised_ready_at;
      if (promise.ready_at !== null) order.ready_at = promise.ready_at;
    }

    const settings = await readKitchenSettings(engine, restaurant.id, tx);
    const cooks = await cooksOnShift(engine, restaurant.id, settings, undefined, tx);
    const product = async (id: string | null) => (id === null ? '' : ((await tx.stores.catalogue.product(restaurant.id, id))?.name ?? id));
    const lines = (await mapInOrder(replayLines(rows, cooks)
      .filter((l) => indexOf.has(l.order_id)), async ({ order_id, product_id, ...line }) => ({ ...line, order: indexOf.get(order_id)!, product: await product(product_id) })));
    const stationIds = new Set(lines.map((l) => l.station_id));
    const stations = settings.stations
      .filter((s) => stationIds.has(s.id))
      .map((s) => ({ station_id: s.id, name: s.name, lanes: Math.max(1, cooks.get(s.id) ?? 1) }));
    for (const id of stationIds) if (!stations.some((s) => s.station_id === id)) stations.push({ station_id: id, name: id, lanes: Math.max(1, cooks.get(id) ?? 1) });

    // The span to scrub: from the first thing that happened on the day to the last.
    let start = Number.POSITIVE_INFINITY;
    let end = Number.NEGATIVE_INFINITY;
    for (const { at } of [...states, ...rows]) {
      if (at < from || at >= to) continue;
      start = Math.min(start, at);
      end = Math.max(end, at);
    }
    if (start > end) start = end = from;
    return {
      location_id: locationId,
      day: day.toISODate()!,
      time_zone: zone,
      start,
      end,
      orders,
      lines,
      stations,
      truncated: states.length >= MAX_STATE_ROWS || rows.length >= MAX_LOG_ROWS,
    };
  });
}
