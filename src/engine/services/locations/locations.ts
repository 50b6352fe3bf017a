import { mapInOrder } from '../../../shared/in-order.ts';
import { DateTime } from 'luxon';
import { localDate } from '../../domain/location-schedule.ts';
import { formatInstant } from '../../domain/time.ts';
import { notFound } from '../../domain/errors.ts';
import type { Engine, WriteTransaction, ReadTransaction } from '../../engine.ts';
import type { LocationRow } from '../../store/locations-store.ts';
import type { RestaurantRow } from '../../store/restaurants-store.ts';
import { isTestWorld, type Actor } from '../../domain/actor.ts';
import {
  exceptionsAround,
  locationOpenState,
  toLocationStatusView,
  toScheduleException,
  type LocationStatusView,
} from './location-status.ts';
import { requireWrite, restaurantOf } from '../keys/restaurant-context.ts';
import { currentWait, readKitchenLoad } from '../kitchen/kitchen-promise.ts';
import { kitchenBusyView, readBusyState } from '../kitchen/busy-mode.ts';
import { readKitchenSettings } from '../kitchen/kitchen-settings.ts';

export interface LocationsView {
  register_mode: RestaurantRow['register_mode'];
  checked_at: string;
  data: LocationStatusView[];
}

export async function listLocations(engine: Engine, actor: Actor, callerTx?: ReadTransaction): Promise<LocationsView> {
  return await engine.readWithin(callerTx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const now = engine.clock.now();
    const busySettings = (await readKitchenSettings(engine, restaurant.id, tx)).busy_mode;
    return {
      register_mode: restaurant.register_mode,
      checked_at: formatInstant(now, restaurant.time_zone),
      data: (await mapInOrder((await tx.stores.locations
        .list(restaurant.id)), async (l) => {
          const busy = kitchenBusyView(await readBusyState(engine, l.id, tx), busySettings, restaurant.time_zone);
          return {
            ...toLocationStatusView(l, await locationOpenState(engine, tx, restaurant, l, now), restaurant.time_zone),
            ...(busy ? { kitchen_busy: busy } : {}),
            kitchen_wait_minutes: currentWait(await readKitchenLoad(engine, restaurant.id, l.id, now, actor.world, undefined, tx)).wait_minutes,
          };
        })),
    };
  });
}

const API_CLOSED_LABEL = 'cerrado vía API';

export type LocationStatusResult = LocationStatusView & { simulated?: boolean };

/**
 * Opens (`open = true`) or closes a location now. Manual mode: the day's cash register. Schedule
 * mode: open removes today's exceptions so the weekly schedule rules; close records a closed-day
 * exception for today. A range past midnight belongs to the day it started on, so while
 * yesterday's range is still running, close also records a closed day for yesterday (the store
 * respects a close immediately) and open removes yesterday's API closures. A sandbox key gets the
 * resulting status computed, nothing written.
 */
export async function setLocationOpen(engine: Engine, actor: Actor, locationId: string, open: boolean, tx?: WriteTransaction): Promise<LocationStatusResult> {
  requireWrite(actor);
  return await engine.within(tx, async (tx) => {
    const restaurant = await restaurantOf(engine, actor, tx);
    const location = await tx.stores.locations.get(restaurant.id, locationId.toLowerCase());
    if (!location) throw notFound(`location ${locationId} not found`);
    const now = engine.clock.now();
    const simulated = isTestWorld(actor);
    if (simulated) {
      const state = await locationOpenState(engine, tx, restaurant, location, now, await simulatedOverrides(engine, tx, restaurant, location, open, now));
      return { ...toLocationStatusView(location, state, restaurant.time_zone), simulated: true };
    }
    if (restaurant.register_mode === 'manual') {
      await tx.stores.locations.setRegisterOpen(location.id, open);
    } else {
      const { today, yesterday } = daysAround(now, restaurant.time_zone);
      await tx.stores.locations.clearExceptions(location.id, today);
      await tx.stores.locations.clearApiExceptions(location.id, yesterday);
      if (!open) {
        await tx.stores.locations.addClosedDay(location.id, today, API_CLOSED_LABEL);
        // Still open: yesterday's range past midnight is running; close its rest too.
        if ((await locationOpenState(engine, tx, restaurant, location, now)).openNow) {
          await tx.stores.locations.addClosedDay(location.id, yesterday, API_CLOSED_LABEL);
        }
      }
    }
    const refreshed = (await tx.stores.locations.get(restaurant.id, location.id))!;
    const view = toLocationStatusView(refreshed, await locationOpenState(engine, tx, restaurant, refreshed, now), restaurant.time_zone);
    await tx.stores.events.append(restaurant.id, 'both', 'location.updated', now, view);
    return view;
  });
}

function daysAround(now: number, zone: string): { today: string; yesterday: string } {
  return {
    today: localDate(now, zone),
    yesterday: localDate(DateTime.fromMillis(now, { zone }).minus({ days: 1 }).toMillis(), zone),
  };
}

/** What the location would look like after the write, without writing it (the same rules as above). */
async function simulatedOverrides(engine: Engine, tx: WriteTransaction, restaurant: RestaurantRow, location: LocationRow, open: boolean, now: number) {
  if (restaurant.register_mode === 'manual') return { registerOpen: open };
  const { today, yesterday } = daysAround(now, restaurant.time_zone);
  const exceptions = [
    ...(await exceptionsAround(engine, tx, restaurant, location, now)).filter((e) => e.date !== today && e.date !== yesterday),
    ...(await tx.stores.locations
      .exceptions(location.id, yesterday, yesterday))
      .filter((row) => row.source !== 'api')
      .map(toScheduleException),
  ];
  if (open) return { exceptions };
  const closedDay = (date: string) => ({ date, closed: true, hours: [] });
  exceptions.push(closedDay(today));
  if ((await locationOpenState(engine, tx, restaurant, location, now, { exceptions })).openNow) exceptions.push(closedDay(yesterday));
  return { exceptions };
}
