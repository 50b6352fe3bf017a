// Lines held back so that an order's items finish together (issue 32): the jobs fire each one when
// its station's queue says it must start, or at the time its screen shows, whichever comes first.
import { firesNow, replanShift } from '../domain/finish-together.ts';
import { KITCHEN_EVENTS } from '../../shared/ipc/kitchen.ts';
import { scheduleOrder } from '../domain/kitchen-promise.ts';
import type { Engine } from '../engine.ts';
import type { HeldItemRow } from '../store/kitchen-timings-store.ts';
import { worldOf } from '../../shared/world.ts';
import { MAX_OPEN_LINES, newLines, readKitchenLoad } from './kitchen-promise.ts';
import { logHeldLineFired } from './kitchen-timing-log.ts';

/** The locations with lines held: what the jobs look at on every tick. */
export function locationsWithHeldLines(engine: Engine): string[] {
  return engine.stores.kitchenTimings.heldLocations();
}

/**
 * Fires the location's held lines that must go now (each world's against its own load: a sandbox
 * order's against live and sandbox lines, a live one's against live lines), and moves later those
 * whose order runs late. Call inside a transaction; returns how many fired (`dryRun`: reads only,
 * 1 when something would fire or move, else 0). Soonest planned first, so a line fired here is ahead of the
 * next one in its station's queue.
 */
export function fireDueHeldLinesIn(engine: Engine, locationId: string, now: number, dryRun = false): number {
  const held = engine.stores.kitchenTimings.heldAtLocation(locationId, true, MAX_OPEN_LINES);
  if (held.length === 0) return 0;
  let fired = 0;
  for (const test of [0, 1]) {
    const ofWorld = held.filter((h) => h.test === test);
    if (ofWorld.length === 0) continue;
    const restaurantId = engine.stores.orders.getById(ofWorld[0]!.order_id)?.restaurant_id;
    if (restaurantId === undefined) continue;
    // One read of the load per world; each line fired is added to it as open from now.
    const load = readKitchenLoad(engine, restaurantId, locationId, now, worldOf(test));
    for (const planned of ofWorld) {
      const others = load.open.filter((o) => !(o.order_id === planned.order_id && o.item_index === planned.item_index));
      const [what] = newLines(load, [{ product_id: planned.product_id, quantity: planned.quantity, modifiers: [] }]);
      const schedule = scheduleOrder({ now, cooks: load.cooks, open: others, freed: load.freed, lines: [{ ...what!, station_id: planned.station_id }], watch: planned.order_id });
      const shift = replanShift(planned, schedule.watched_ready_at);
      if (dryRun) {
        if (shift > 0 || firesNow(now, planned, schedule.expected_ready_at, schedule.watched_ready_at)) return 1;
        continue;
      }
      const line = shift > 0 ? replan(engine, planned, shift, now) : planned;
      if (!firesNow(now, line, schedule.expected_ready_at, schedule.watched_ready_at)) continue;
      fireHeldLine(engine, line, now);
      load.open = [...others, { station_id: line.station_id, fired_at: now, started_at: null, seconds: what!.seconds, order_id: line.order_id, item_index: line.item_index }];
      fired++;
    }
  }
  return fired;
}

/**
 * The order's fired lines are now predicted done more than REPLAN_MS after the held line's target
 * (their station is slower than planned): the line's planned firing moves as much later, and the
 * screens are told (so "sale a las" stays true), rather than have it done long before its order.
 */
function replan(engine: Engine, line: HeldItemRow, shift: number, now: number): HeldItemRow {
  const moved = { ...line, fire_at: line.fire_at + shift, target_ready_at: line.target_ready_at + shift };
  engine.stores.kitchenTimings.hold(moved);
  const order = engine.stores.orders.getById(line.order_id);
  if (order) engine.stores.events.append(order.restaurant_id, worldOf(order.test), KITCHEN_EVENTS.item, now, { order_id: order.id, item_index: line.item_index, done: false });
  return moved;
}

function fireHeldLine(engine: Engine, line: HeldItemRow, now: number): void {
  const order = engine.stores.orders.getById(line.order_id);
  if (!order) {
    engine.stores.kitchenTimings.unhold(line.order_id, line.item_index);
    return;
  }
  logHeldLineFired(engine, order, line.item_index, now);
}

/** The jobs' pass for one location: its due held lines fired in one transaction. */
export function fireDueHeldLines(engine: Engine, locationId: string): number {
  // Read first: a tick where no held line moves or fires takes no write lock.
  if (engine.read(() => fireDueHeldLinesIn(engine, locationId, engine.clock.now(), true)) === 0) return 0;
  return engine.transaction(() => fireDueHeldLinesIn(engine, locationId, engine.clock.now()));
}

/** The lines of an order held now, with when each is planned to fire (epoch ms). */
export function heldLinesOf(engine: Engine, orderId: string): Map<number, number> {
  return new Map(engine.stores.kitchenTimings.heldOf(orderId).map((h) => [h.item_index, h.fire_at]));
}
