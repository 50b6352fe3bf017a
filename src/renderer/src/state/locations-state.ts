// The locations screen: live open/closed status with its reason and next opening; open or close now.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LivePush, LocationsViewData, World } from '../../../shared/ipc/kitchen.ts';
import type { KitchenApi } from '../api.ts';
import { errorMessage } from '../api.ts';

export interface LocationsState {
  world: World;
  view: LocationsViewData | null;
  busy: Record<string, boolean>;
  error: string | null;
  /** The last write in the test world answered "simulated" for this location. */
  simulated: Record<string, boolean>;
  load(world?: World): Promise<void>;
  setOpen(locationId: string, open: boolean): Promise<boolean>;
  receive(push: LivePush): void;
}

export type LocationsStore = StoreApi<LocationsState>;

export function createLocationsStore(deps: { api: Pick<KitchenApi, 'listLocations' | 'setLocationOpen'> }): LocationsStore {
  return createStore<LocationsState>()((set, get) => ({
    world: 'live',
    view: null,
    busy: {},
    error: null,
    simulated: {},
    async load(world = get().world) {
      if (world !== get().world) set({ world, view: null, simulated: {} });
      try {
        const view = await deps.api.listLocations({ world });
        if (get().world === world) set({ view, error: null });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
    async setOpen(locationId, open) {
      const world = get().world;
      set((s) => ({ busy: { ...s.busy, [locationId]: true }, error: null }));
      try {
        const status = await deps.api.setLocationOpen({ location_id: locationId, world, open });
        set((s) => ({
          busy: { ...s.busy, [locationId]: false },
          simulated: { ...s.simulated, [locationId]: status.simulated === true },
          view: s.view && s.world === world
            ? { ...s.view, data: s.view.data.map((l) => (l.location_id === locationId ? { ...status } : l)) }
            : s.view,
        }));
        return true;
      } catch (error) {
        set((s) => ({ busy: { ...s.busy, [locationId]: false }, error: errorMessage(error) }));
        return false;
      }
    },
    receive(push) {
      if (push.kind !== 'events' || get().world !== 'live') return;
      for (const event of push.events) {
        if (event.type !== 'location.updated') continue;
        set((s) => ({
          view: s.view ? { ...s.view, data: s.view.data.map((l) => (l.location_id === event.data.location_id ? event.data : l)) } : s.view,
        }));
      }
    },
  }));
}
