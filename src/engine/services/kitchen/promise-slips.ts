// Promises that slip (issue 32): when the live load moves an open order's predicted ready time past
// its promise by more than a few minutes, the order gets a new promise, kept in the audit
// (order_promise_updates) and announced as `order.updated` carrying it, so that the customer's
// store front, the pickup screen and the ready mail say the new time.
import { flatMapInOrder } from '../../../shared/in-order.ts';
import { promiseMargin, scheduleOrder } from '../../domain/kitchen-promise.ts';
import { quantile } from '../../domain/prep-times.ts';
import { formatInstant } from '../../domain/time.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import { worldOf } from '../../../shared/world.ts';
import { MAX_OPEN_LINES, OPEN_LINE_HORIZON_MS, readKitchenLoad, type PromiseView } from './kitchen-promise.ts';
import { toOrderView } from '../orders/order-view.ts';

/** A promise is moved only when the prediction passed it by more than this: a customer is not told of every minute. */
export const SLIP_TOLERANCE_MS = 3 * 60_000;

/** A promise as an `order.updated` event carries it when it moved: the promise before, too. */
export interface MovedPromiseView extends PromiseView {
  previous_promised_ready_at: string;
}

/** Every location of every restaurant (the jobs ask each one; one with no open order costs one indexed read). */
export async function locationsToFollow(engine: Engine, callerTx?: ReadTransaction): Promise<string[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await flatMapInOrder(await tx.stores.restaurants.list(), async (r) => (await tx.stores.locations.list(r.id)).map((l) => l.id));
  });
}

interface Slip {
  order_id: string;
  previous: number;
  expected: number;
  promised: number;
  margin_basis: 'calibrated' | 'prior';
  quantile: number;
}

/**
 * The open orders of the location whose promise has not passed yet and whose predicted ready time
 * (their fired lines scheduled behind the location's load, their held lines' target) is past it by more than SLIP_TOLERANCE_MS,
 * with their new promise: the new expected time is the prediction, the promise that plus the margin
 * for what is left of the wait. Reads only.
 */
async function slipsAt(engine: Engine, tx: ReadTransaction, locationId: string, now: number): Promise<Slip[]> {
  const slips: Slip[] = [];
  const open = await tx.stores.kitchenTimings.openPromises(locationId, now - OPEN_LINE_HORIZON_MS, MAX_OPEN_LINES);
  if (open.length === 0) return slips;
  const restaurantId = (await tx.stores.orders.getById(open[0]!.order_id))?.restaurant_id;
  if (restaurantId === undefined) return slips;
  const heldTarget = new Map<string, number>();
  for (const held of await tx.stores.kitchenTimings.heldAtLocation(locationId, true, MAX_OPEN_LINES)) {
    heldTarget.set(held.order_id, Math.max(heldTarget.get(held.order_id) ?? held.target_ready_at, held.target_ready_at));
  }
  for (const test of [0, 1]) {
    const ofWorld = open.filter((o) => o.test === test);
    if (ofWorld.length === 0) continue;
    const load = await readKitchenLoad(engine, restaurantId, locationId, now, worldOf(test), undefined, tx);
    const predicted = scheduleOrder({ now, cooks: load.cooks, units: load.units, open: load.open, freed: load.freed, lines: [], watch_all: true }).orders_ready_at!;
    for (const promise of ofWorld) {
      const fired = predicted.get(promise.order_id);
      const held = heldTarget.get(promise.order_id);
      if (fired === undefined && held === undefined) continue;
      // A promise is moved while it can still be kept: once its time has passed (a ticket left
      // on the screen, a line bumped late), its customer was told last, and no move follows every
      // few minutes.
      if (now >= promise.promised_ready_at) continue;
      const expected = Math.max(fired ?? Number.NEGATIVE_INFINITY, held ?? Number.NEGATIVE_INFINITY);
      if (expected <= promise.promised_ready_at + SLIP_TOLERANCE_MS) continue;
      const margin = promiseMargin(load.outcomes, quantile, load.quantile, { lines: [], wait_seconds: (expected - now) / 1000 });
      slips.push({
        order_id: promise.order_id,
        previous: promise.promised_ready_at,
        expected: Math.round(expected),
        promised: Math.round(expected + margin.seconds * 1000),
        margin_basis: margin.basis,
        quantile: load.quantile,
      });
    }
  }
  return slips;
}

/** Moves the promises that slipped (slipsAt): an audit row and an `order.updated` carrying the new promise each. Inside a transaction. */
export async function followPromiseSlipsIn(engine: Engine, tx: WriteTransaction, locationId: string, now: number): Promise<number> {
  const slips = await slipsAt(engine, tx, locationId, now);
  for (const slip of slips) {
    const order = (await tx.stores.orders.getById(slip.order_id))!;
    const restaurant = (await tx.stores.restaurants.get(order.restaurant_id))!;
    await tx.stores.kitchenTimings.updatePromise({
      order_id: order.id,
      at: now,
      previous_promised_ready_at: slip.previous,
      expected_ready_at: slip.expected,
      promised_ready_at: slip.promised,
    });
    const view: MovedPromiseView = {
      expected_ready_at: formatInstant(slip.expected, restaurant.time_zone),
      promised_ready_at: formatInstant(slip.promised, restaurant.time_zone),
      wait_minutes: Math.max(0, Math.ceil((slip.promised - now) / 60_000)),
      quantile: slip.quantile,
      margin_basis: slip.margin_basis,
      previous_promised_ready_at: formatInstant(slip.previous, restaurant.time_zone),
    };
    await tx.stores.events.append(restaurant.id, worldOf(order.test), 'order.updated', now, { ...toOrderView(order, restaurant.time_zone), promise: view });
  }
  return slips.length;
}

/** The jobs' pass for one location, in one transaction. */
export async function followPromiseSlips(engine: Engine, locationId: string): Promise<number> {
  // Read first: a tick where nothing slipped takes no write lock.
  if ((await engine.read(async (tx) => await slipsAt(engine, tx, locationId, engine.clock.now()))).length === 0) return 0;
  return await engine.transaction(async (tx) => await followPromiseSlipsIn(engine, tx, locationId, engine.clock.now()));
}
