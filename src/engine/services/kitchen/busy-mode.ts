import { mapInOrder } from '../../../shared/in-order.ts';
// Busy mode per location (issue 32): the jobs evaluate it from the kitchen's current wait, order
// creation refuses store fronts while it is paused, a manager overrides it from the hub, and every
// pause and resume is a `location.updated` event carrying `kitchen_busy`.
import { orderChannel } from '../orders/order-channel.ts';
import type { Static } from 'typebox';
import type { LocationStatus } from '../../../shared/schemas/locations.ts';
import type { Actor } from '../../domain/actor.ts';
import {
  NOT_BUSY,
  nextBusyState,
  orderRetryAfterSeconds,
  isSlowStation,
  refusesStoreFrontOrder,
  refusedDemandWindowMs,
  retryAfterSeconds,
  type BusyModeSettings, type BusyOverride, type BusyState, type OrderBusyCost } from '../../domain/busy-mode.ts';
import { ApiError, notFound } from '../../domain/errors.ts';
import { formatInstant } from '../../domain/time.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import type { LocationRow } from '../../store/locations-store.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';
import type { PrepLine } from '../../domain/prep-times.ts';
import { currentWait, loadWithLines, newLines, promiseFor, readKitchenLoad, stationWaits, type KitchenPromise } from './kitchen-promise.ts';
import type { NewLine } from '../../domain/kitchen-promise.ts';
import type { World } from '../../../shared/world.ts';
import { readKitchenSettings } from './kitchen-settings.ts';
import { locationOpenState, toLocationStatusView } from '../locations/location-status.ts';
import { requireWrite, restaurantOf } from '../keys/restaurant-context.ts';

export type KitchenBusyView = NonNullable<Static<typeof LocationStatus>['kitchen_busy']>;

export async function readBusyState(engine: Engine, locationId: string, callerTx?: ReadTransaction): Promise<BusyState> {
  return await engine.readWithin(callerTx, async (tx) => {
    const row = await tx.stores.locationBusy.state(locationId);
    if (!row) return NOT_BUSY;
    return {
      paused: row.paused === 1,
      changed_at: row.changed_at,
      above_since: row.above_since,
      wait_minutes: row.wait_minutes,
      recent_pauses: JSON.parse(row.recent_pauses) as number[],
      override: row.override,
    };
  });
}

async function writeBusyState(engine: Engine, tx: WriteTransaction, locationId: string, state: BusyState): Promise<void> {
  await tx.stores.locationBusy.setState({
    location_id: locationId,
    paused: state.paused ? 1 : 0,
    changed_at: state.changed_at,
    above_since: state.above_since,
    wait_minutes: state.wait_minutes,
    recent_pauses: JSON.stringify(state.recent_pauses),
    override: state.override,
  });
}

/** What GET /locations and the `location.updated` events say of it; null where busy mode is not set and a manager never used it. */
export function kitchenBusyView(state: BusyState, settings: BusyModeSettings | undefined, timeZone: string): KitchenBusyView | null {
  if (!settings && state.override === null && state.changed_at === 0) return null;
  return {
    paused: state.paused,
    since: state.changed_at > 0 ? formatInstant(state.changed_at, timeZone) : null,
    reason: state.override !== null ? 'manager' : state.paused ? 'kitchen_wait' : 'none',
    wait_minutes: state.wait_minutes,
    retry_after_seconds: state.paused ? (settings ? retryAfterSeconds(state, settings) : 15 * 60) : null,
  };
}

async function announce(engine: Engine, tx: WriteTransaction, restaurant: RestaurantRow, location: LocationRow, state: BusyState, settings: BusyModeSettings | undefined, now: number): Promise<void> {
  const view = {
    ...toLocationStatusView(location, await locationOpenState(engine, tx, restaurant, location, now), restaurant.time_zone),
    kitchen_busy: kitchenBusyView(state, settings, restaurant.time_zone)!,
  };
  await tx.stores.events.append(restaurant.id, 'both', 'location.updated', now, view);
}

const sameState = (a: BusyState, b: BusyState) =>
  a.paused === b.paused &&
  a.changed_at === b.changed_at &&
  a.above_since === b.above_since &&
  a.wait_minutes === b.wait_minutes &&
  a.override === b.override &&
  a.recent_pauses.join() === b.recent_pauses.join();

/**
 * The wait busy mode goes by: the location's current wait (live orders), its queue weighed with the
 * store fronts' lines it refused in the last threshold's minutes as if it had taken them
 * (domain/refused-demand.ts): the queue it would have if it took orders again now.
 */
export async function busyWait(engine: Engine, restaurantId: string, locationId: string, now: number, settings: BusyModeSettings, callerTx?: ReadTransaction): Promise<number> {
  const load = await readKitchenLoad(engine, restaurantId, locationId, now, 'live', undefined, callerTx);
  const refused = engine.refusedDemand.recent(locationId, now, refusedDemandWindowMs(settings));
  return currentWait(loadWithLines(load, refused.map((line) => ({ station_id: line.station_id, fired_at: line.at, seconds: line.seconds })))).wait_minutes;
}

/**
 * Evaluates busy mode for every location of a restaurant with `busy_mode` (the jobs, every tick):
 * each one's current wait, the next state, and an event when it paused or resumed. Reads first: a
 * location whose state would not change is not written (a tick takes no write lock for nothing);
 * one that would is written in its own transaction, from its state read again there.
 */
export async function evaluateBusyMode(engine: Engine, restaurantId: string): Promise<('paused' | 'resumed' | null)[]> {
  const { settings, restaurant, locations } = await engine.read(async (tx) => ({
    settings: (await readKitchenSettings(engine, restaurantId, tx)).busy_mode,
    restaurant: await tx.stores.restaurants.get(restaurantId),
    locations: await tx.stores.locations.list(restaurantId),
  }));
  if (!settings || !restaurant) return [];
  const next = async (tx: ReadTransaction, location: LocationRow, now: number) => {
    const current = await readBusyState(engine, location.id, tx);
    const wait = await busyWait(engine, restaurantId, location.id, now, settings, tx);
    return { current, ...nextBusyState(current, wait, now, settings) };
  };
  return (await mapInOrder(locations, async (location) => {
    const seen = await engine.read(async (tx) => await next(tx, location, engine.clock.now()));
    if (sameState(seen.current, seen.state)) return null;
    return await engine.transaction(async (tx) => {
      const now = engine.clock.now();
      const { state, change } = await next(tx, location, now);
      await writeBusyState(engine, tx, location.id, state);
      if (change) await announce(engine, tx, restaurant, location, state, settings, now);
      return change;
    });
  }));
}

/**
 * In an order's transaction: refuses it (503 `kitchen_busy` with Retry-After) when the location is
 * paused and the order comes from a store front's key: every one while a manager paused it; while the
 * wait did, one whose own promised wait (its lines behind the location's load) is above the
 * threshold. A POS's orders (a key marked `pos`, or one managed by a POS integration) and keys marked
 * neither are never refused.
 */
export async function refuseWhenBusy(
  engine: Engine, tx: WriteTransaction,
  actor: Actor,
  restaurant: RestaurantRow,
  location: LocationRow,
  managedBy: string | undefined,
  lines: readonly PrepLine[],
  world: World,
  order?: { type: string; lines: number; total: number },
): Promise<void> {
  if (managedBy !== undefined) return;
  const state = await readBusyState(engine, location.id, tx);
  if (!state.paused || await tx.stores.locationBusy.keyKind(actor.keyId) !== 'store_front') return;
  const settings = (await readKitchenSettings(engine, restaurant.id, tx)).busy_mode;
  let orderWait: number | null = null;
  let promised: KitchenPromise | null = null;
  let cost: OrderBusyCost | null = null;
  const orderCost = async (): Promise<OrderBusyCost> => {
    const now = engine.clock.now();
    const load = await readKitchenLoad(engine, restaurant.id, location.id, now, world, undefined, tx);
    const minutes = (at: number) => (at - now) / 60_000;
    promised = promiseFor(load, lines);
    orderWait = Math.max(0, Math.ceil(minutes(promised.promised_ready_at)));
    // Minutes of work per cook, the share of a station's queue a line takes.
    const perCook = (line: NewLine) => (line.station_id === null ? 0 : line.seconds / 60 / Math.max(1, load.cooks.get(line.station_id) ?? 1));
    const waits = stationWaits(load);
    const slow = (station: string | null) => station !== null && waits.has(station) && isSlowStation(minutes(waits.get(station)!.promised_ready_at), settings!);
    // One dish: the longest single unit at a slow station.
    const dishes = Object.entries(load.settings.product_stations)
      .filter(([, station]) => slow(station))
      .map(([product_id]) => perCook(newLines(load, [{ product_id, quantity: 1, modifiers: [] }])[0]!));
    return {
      own_wait: minutes(promised.promised_ready_at),
      slow_station_minutes: promised.lines.filter((line) => slow(line.station_id)).reduce((sum, line) => sum + perCook(line), 0),
      one_dish_minutes: Math.max(0, ...dishes),
    };
  };
  // The order's cost is read only where the rule asks for it (paused by the kitchen's wait).
  if (state.paused && state.override !== 'pause' && settings !== undefined) cost = await orderCost();
  const known = cost;
  if (!refusesStoreFrontOrder(state, settings, () => known!)) return;
  // Over the threshold itself: until it could be within it; a heavy order within it: until the wait could be below the margin.
  const retry = !settings ? 15 * 60 : orderWait !== null && orderWait > settings.threshold_minutes ? orderRetryAfterSeconds(orderWait, settings) : retryAfterSeconds(state, settings);
  const why =
    orderWait !== null
      ? orderWait > settings!.threshold_minutes
        ? `is not taking online orders that would wait over ${settings!.threshold_minutes} minutes for now, and this one would wait ${orderWait}`
        : `is not taking large online orders for now: this one needs more of its busiest stations than one dish`
      : `is not taking online orders for now: the kitchen's wait is ${state.wait_minutes} minutes`;
  // Its lines are work the location would have again if it took orders again: busy mode's projected queue.
  if (promised !== null && world === 'live') engine.refusedDemand.note(location.id, engine.clock.now(), (promised as KitchenPromise).lines);
  // Issue 33: noted for Informes outside this transaction, which the refusal undoes.
  if (order) engine.busyRefusals.note(restaurant.id, location.id, world, { at: engine.clock.now(), channel: await orderChannel(engine, tx, actor, undefined), ...order });
  throw new ApiError('kitchen_busy', `${location.name} ${why}; try again in ${Math.ceil(retry / 60)} minutes`, retry);
}

/** The manager's override from the hub: pause or resume now, or `auto` to give it back to the kitchen's wait. */
export async function setBusyOverride(engine: Engine, actor: Actor, locationId: string, override: BusyOverride | 'auto'): Promise<KitchenBusyView> {
  requireWrite(actor);
  return await engine.transaction(async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const location = await tx.stores.locations.get(restaurant.id, locationId.toLowerCase());
    if (!location) throw notFound(`location ${locationId} not found`);
    const settings = (await readKitchenSettings(engine, restaurant.id, tx)).busy_mode;
    const now = engine.clock.now();
    const before = await readBusyState(engine, location.id, tx);
    const wanted = override === 'auto' ? null : override;
    const paused = wanted === null ? before.paused && settings !== undefined : wanted === 'pause';
    // changed_at is set by any override, so the location shows busy mode from then on, paused or not.
    const state: BusyState = { ...before, override: wanted, paused, changed_at: paused !== before.paused || before.changed_at === 0 ? now : before.changed_at };
    await writeBusyState(engine, tx, location.id, state);
    if (paused !== before.paused || wanted !== before.override) await announce(engine, tx, restaurant, location, state, settings, now);
    return kitchenBusyView(state, settings, restaurant.time_zone)!;
  });
}

/** Marks an API key as a store front's or a POS's (keys CLI, the simulator). */
export async function setKeyChannelKind(engine: Engine, apiKeyId: string, kind: 'store_front' | 'pos', tx?: WriteTransaction): Promise<void> {
  await engine.within(tx, async (tx) => await tx.stores.locationBusy.setKeyKind(apiKeyId, kind));
}
