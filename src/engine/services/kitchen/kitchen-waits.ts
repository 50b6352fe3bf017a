// The kitchen's current wait per location as the board's status strip shows it (issue 32): the same
// wait as GET /locations' `kitchen_wait_minutes` (live orders), and whether busy mode has paused the
// store fronts. Read on every heartbeat: between two kitchen changes the load is kept
// (kitchen-load-rows.ts), so a heartbeat costs the version check and the schedule.
import type { KitchenWaitEntry } from '../../../shared/screen-contract/kitchen.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import { currentWait, readKitchenLoad } from './kitchen-promise.ts';
import { readBusyState } from './busy-mode.ts';

export async function readKitchenWaits(engine: Engine, restaurantId: string, callerTx?: ReadTransaction): Promise<KitchenWaitEntry[]> {
  return await engine.readWithin(callerTx, async (tx) => {
    const now = engine.clock.now();
    const waits: KitchenWaitEntry[] = [];
    for (const location of await tx.stores.locations.list(restaurantId)) {
      if (location.is_active !== 1) continue;
      const load = await readKitchenLoad(engine, restaurantId, location.id, now, 'live', undefined, tx);
      const busy = await readBusyState(engine, location.id, tx);
      waits.push({ location_id: location.id, wait_minutes: currentWait(load).wait_minutes, paused: busy.paused });
    }
    return waits;
  });
}
