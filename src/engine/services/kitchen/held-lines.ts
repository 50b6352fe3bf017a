// Lines held back so that an order's items finish together (issue 32): the jobs fire each one when
// its station's queue says it must start, or at the time its screen shows, whichever comes first.
import { decideHeldLines } from '../../domain/finish-together.ts';
import { queueOpenLines } from '../../domain/kitchen-promise.ts';
import { KITCHEN_EVENTS } from '../../../shared/screen-contract/kitchen.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import type { HeldItemRow } from '../../store/kitchen-timings-store.ts';
import { worldOf } from '../../../shared/world.ts';
import { MAX_OPEN_LINES, readKitchenLoad, type HeldDecision } from './kitchen-promise.ts';
import { logHeldLineFired } from './kitchen-timing-log.ts';

/** The locations with lines held: what the jobs look at on every tick. */
export async function locationsWithHeldLines(engine: Engine, callerTx?: ReadTransaction): Promise<string[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    return await tx.stores.kitchenTimings.heldLocations();
  });
}

/**
 * Decides the location's held lines (each world's against its own load: a sandbox order's against
 * live and sandbox lines, a live one's against live lines): those whose order runs late move later,
 * those that must go now fire. Call inside a transaction. Returns how many fired.
 */
export async function fireDueHeldLinesIn(engine: Engine, tx: WriteTransaction, locationId: string, now: number): Promise<number> {
  let fired = 0;
  for (const decisions of await decideDueHeldLines(engine, tx, locationId, now)) fired += await applyHeldDecisions(engine, tx, decisions, now);
  return fired;
}

/**
 * What would be decided of the location's held lines now, per world: reads only. One read of the load
 * and one pass over the held lines per world, however many there are.
 */
async function decideDueHeldLines(engine: Engine, tx: ReadTransaction, locationId: string, now: number): Promise<HeldDecision[][]> {
  const held = await tx.stores.kitchenTimings.heldAtLocation(locationId, true, MAX_OPEN_LINES);
  if (held.length === 0) return [];
  const perWorld: HeldDecision[][] = [];
  for (const test of [0, 1]) {
    const first = held.find((h) => h.test === test);
    if (!first) continue;
    const restaurantId = (await tx.stores.orders.getById(first.order_id))?.restaurant_id;
    if (restaurantId === undefined) continue;
    const load = await readKitchenLoad(engine, restaurantId, locationId, now, worldOf(test), 'all', tx);
    const decisions = decideHeldLines(queueOpenLines({ now, cooks: load.cooks, units: load.units, freed: load.freed, open: load.fired }), load.held.filter((h) => h.test === test));
    perWorld.push(decisions);
  }
  return perWorld;
}

/** Writes what was decided of held lines: plans moved later (the screens told), lines fired. Returns how many fired. */
export async function applyHeldDecisions(engine: Engine, tx: WriteTransaction, decisions: readonly HeldDecision[], now: number): Promise<number> {
  let fired = 0;
  for (const { line, shift, fires } of decisions) {
    if (shift > 0 && !fires) await replan(engine, tx, line, shift, now);
    if (fires) {
      await fireHeldLine(engine, tx, line, now);
      fired++;
    }
  }
  return fired;
}

/**
 * The order's fired lines are now predicted done more than REPLAN_MS after the held line's target
 * (their station is slower than planned): the line's planned firing moves as much later, and the
 * screens are told (so "retenido hasta" stays true), rather than have it done long before its order.
 */
async function replan(engine: Engine, tx: WriteTransaction, line: HeldItemRow, shift: number, now: number): Promise<void> {
  const { order_id, item_index, location_id, test, station_id, product_id, quantity, held_at } = line;
  await tx.stores.kitchenTimings.hold({ order_id, item_index, location_id, test, station_id, product_id, quantity, held_at, fire_at: line.fire_at + shift, target_ready_at: line.target_ready_at + shift });
  const order = await tx.stores.orders.getById(line.order_id);
  if (order) await tx.stores.events.append(order.restaurant_id, worldOf(order.test), KITCHEN_EVENTS.item, now, { order_id: order.id, item_index: line.item_index, done: false });
}

async function fireHeldLine(engine: Engine, tx: WriteTransaction, line: HeldItemRow, now: number): Promise<void> {
  const order = await tx.stores.orders.getById(line.order_id);
  if (!order) {
    await tx.stores.kitchenTimings.unhold(line.order_id, line.item_index);
    return;
  }
  await logHeldLineFired(engine, tx, order, line.item_index, now);
}

/** The jobs' pass for one location: its due held lines fired in one transaction. */
export async function fireDueHeldLines(engine: Engine, locationId: string): Promise<number> {
  // Read first: a tick where no held line moves or fires takes no write lock.
  const decided = await engine.read(async (tx) => await decideDueHeldLines(engine, tx, locationId, engine.clock.now()));
  if (!decided.some((decisions) => decisions.some((d) => d.fires || d.shift > 0))) return 0;
  return await engine.transaction(async (tx) => await fireDueHeldLinesIn(engine, tx, locationId, engine.clock.now()));
}

/** The lines of an order held now, with when each is planned to fire (epoch ms). */
export async function heldLinesOf(engine: Engine, orderId: string, callerTx?: ReadTransaction): Promise<Map<number, number>> {
  return await engine.readWithin(callerTx, async (tx) => {
    return new Map((await tx.stores.kitchenTimings.heldOf(orderId)).map((h) => [h.item_index, h.fire_at]));
  });
}
