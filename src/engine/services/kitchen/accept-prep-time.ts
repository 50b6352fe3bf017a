// The manager's prep times (issue 32): where the time the kitchen learned from its bumps drifts from
// the one typed in the restaurant file (prepTimeDrift), the hub lists it with the product's and
// station's names, and one tap accepts the learned median as the product's prep time: written to the
// restaurant's kitchen settings (the promise's prior from then on) with a `prep_time.updated` event,
// in one transaction. A later import of the restaurant file sets the file's `prep_minutes` again.
import type { Actor } from '../../domain/actor.ts';
import { DEFAULT_PREP_SECONDS } from '../../domain/prep-times.ts';
import { notFound } from '../../domain/errors.ts';
import { formatInstant } from '../../domain/time.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import { requireWrite, restaurantOf } from '../keys/restaurant-context.ts';
import { prepTimeDrift } from './learn-prep-times.ts';
import type { PrepTimeDriftEntry } from '../../../shared/screen-contract/kitchen.ts';
import { readKitchenSettings, writeKitchenSettings } from './kitchen-settings.ts';
import type { PrepTimeChange } from '../../../shared/schemas/events.ts';

/** The drift list with names, largest drift first (products no longer in the catalogue are left out). */
export async function readPrepTimeDrift(engine: Engine, actor: Actor, callerTx?: ReadTransaction): Promise<PrepTimeDriftEntry[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const settings = await readKitchenSettings(engine, restaurant.id, tx);
    const entries: PrepTimeDriftEntry[] = [];
    for (const drift of await prepTimeDrift(engine, restaurant.id, undefined, tx)) {
      const product = await tx.stores.catalogue.product(restaurant.id, drift.product_id);
      if (!product) continue;
      const station = settings.stations.find((s) => s.id === drift.station_id);
      entries.push({ ...drift, product_name: product.name, station_name: station?.name ?? drift.station_id });
    }
    return entries.sort((a, b) => Math.abs(b.learned_seconds - b.typed_seconds) - Math.abs(a.learned_seconds - a.typed_seconds));
  });
}

/** One tap: the product's learned median at its station becomes its prep time. */
export async function acceptLearnedPrepTime(engine: Engine, actor: Actor, productId: string, stationId: string): Promise<PrepTimeChange> {
  requireWrite(actor);
  return await engine.transaction(async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const settings = await readKitchenSettings(engine, restaurant.id, tx);
    const learned = (await tx.stores.kitchenTimings.prepStats(restaurant.id)).find((s) => s.product_id === productId && s.station_id === stationId);
    if (!learned) throw notFound(`no learned prep time for product ${productId} at station ${stationId}`);
    const now = engine.clock.now();
    const previous = settings.prep?.product_seconds[productId] ?? DEFAULT_PREP_SECONDS;
    const prep = { product_seconds: { ...settings.prep?.product_seconds, [productId]: Math.round(learned.median_seconds) }, option_seconds: settings.prep?.option_seconds ?? {} };
    await writeKitchenSettings(engine, tx, restaurant.id, { ...settings, prep });
    const event: PrepTimeChange = {
      product_id: productId,
      station_id: stationId,
      prep_seconds: Math.round(learned.median_seconds),
      previous_seconds: previous,
      samples: learned.samples,
      accepted_at: formatInstant(now, restaurant.time_zone),
    };
    await tx.stores.events.append(restaurant.id, 'both', 'prep_time.updated', now, event);
    return event;
  });
}
