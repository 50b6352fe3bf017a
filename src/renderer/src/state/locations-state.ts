// The locations screen: live open/closed status with its reason and next opening; open or close now.
// On the hub (the desktop's window) also the kitchen's wait and busy mode with the manager's
// override, and the cooks on shift per station with "+ / −" (issue 32).
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KitchenWaitEntry, LivePush, LocationsViewData, PrepTimeDriftEntry, StationCooksEntry, World } from '../../../shared/screen-contract/kitchen.ts';
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
  /** The hub's cooks per station; null until loaded (and on a tablet, which has no such channel). */
  cooks: StationCooksEntry[] | null;
  loadCooks(): Promise<void>;
  setCooks(stationId: string, cooks: number): Promise<boolean>;
  /** The products whose learned prep time drifts from the typed one; null until loaded (the hub only). */
  drift: PrepTimeDriftEntry[] | null;
  /** The product being accepted (its button waits), by product and station. */
  accepting: string | null;
  loadDrift(): Promise<void>;
  /** One tap: the learned time becomes the product's prep time; the list comes back without it. */
  acceptDrift(productId: string, stationId: string): Promise<boolean>;
  /** The manager's busy-mode override: pause or resume store fronts now, or give it back to the wait. */
  setBusy(locationId: string, mode: 'pause' | 'resume' | 'auto'): Promise<boolean>;
  /** Each active location's kitchen wait (live), as the last heartbeat said it; null until one says it (the board's status strip). */
  kitchenWaits: KitchenWaitEntry[] | null;
  receive(push: LivePush): void;
}

type HubApi = Pick<KitchenApi, 'listLocations' | 'setLocationOpen'> & Partial<Pick<KitchenApi, 'stationCooks' | 'setStationCooks' | 'setLocationBusy' | 'prepTimeDrift' | 'acceptPrepTime'>>;

export type LocationsStateApi = StoreApi<LocationsState>;

export function createLocationsState(deps: { api: HubApi }): LocationsStateApi {
  return createStore<LocationsState>()((set, get) => ({
    world: 'live',
    view: null,
    busy: {},
    error: null,
    simulated: {},
    cooks: null,
    drift: null,
    accepting: null,
    kitchenWaits: null,
    async loadDrift() {
      if (!deps.api.prepTimeDrift) return;
      try {
        set({ drift: await deps.api.prepTimeDrift({}) });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
    async acceptDrift(productId, stationId) {
      if (!deps.api.acceptPrepTime || get().accepting !== null) return false;
      set({ accepting: `${productId}/${stationId}`, error: null });
      try {
        set({ drift: await deps.api.acceptPrepTime({ product_id: productId, station_id: stationId }), accepting: null });
        return true;
      } catch (error) {
        set({ error: errorMessage(error), accepting: null });
        return false;
      }
    },
    async loadCooks() {
      if (!deps.api.stationCooks) return;
      try {
        set({ cooks: await deps.api.stationCooks({}) });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
    async setCooks(stationId, cooks) {
      if (!deps.api.setStationCooks) return false;
      try {
        set({ cooks: await deps.api.setStationCooks({ station_id: stationId, cooks }), error: null });
        return true;
      } catch (error) {
        set({ error: errorMessage(error) });
        return false;
      }
    },
    async setBusy(locationId, mode) {
      if (!deps.api.setLocationBusy) return false;
      set((s) => ({ busy: { ...s.busy, [locationId]: true }, error: null }));
      try {
        const kitchenBusy = await deps.api.setLocationBusy({ location_id: locationId, mode });
        set((s) => ({
          busy: { ...s.busy, [locationId]: false },
          view: s.view ? { ...s.view, data: s.view.data.map((l) => (l.location_id === locationId ? { ...l, kitchen_busy: kitchenBusy } : l)) } : s.view,
        }));
        return true;
      } catch (error) {
        set((s) => ({ busy: { ...s.busy, [locationId]: false }, error: errorMessage(error) }));
        return false;
      }
    },
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
          // The open/close answer has no kitchen wait or busy mode: the entry keeps the ones it had.
          view: s.view && s.world === world
            ? { ...s.view, data: s.view.data.map((l) => (l.location_id === locationId ? { ...l, ...status } : l)) }
            : s.view,
        }));
        return true;
      } catch (error) {
        set((s) => ({ busy: { ...s.busy, [locationId]: false }, error: errorMessage(error) }));
        return false;
      }
    },
    receive(push) {
      // The wait is read by the engine per heartbeat (every 2 s): it follows the kitchen's changes and its clock.
      if (push.kind === 'heartbeat') {
        // The same figures as before (most heartbeats): kept as they are, so nothing draws again.
        if (push.kitchen_waits && JSON.stringify(push.kitchen_waits) !== JSON.stringify(get().kitchenWaits)) set({ kitchenWaits: push.kitchen_waits });
        return;
      }
      if (get().world !== 'live') return;
      for (const event of push.events) {
        if (event.type !== 'location.updated') continue;
        set((s) => ({
          view: s.view ? { ...s.view, data: s.view.data.map((l) => (l.location_id === event.data.location_id ? { ...l, ...event.data } : l)) } : s.view,
        }));
      }
    },
  }));
}
