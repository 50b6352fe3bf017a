// The desktop's "Pantallas de cocina": the tablets paired to this restaurant, the pairing offer on
// show (QR, URL, six-digit code, until when), revoking a screen, and the pickup screens' settings.
import type { ScreenRole } from '../../../shared/screen-contract/devices.ts';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KitchenDeviceEntry, PairingLockout, PairingOffer } from '../../../shared/screen-contract/devices.ts';
import type { PickupScreenSettings } from '../../../shared/screen-contract/pickup.ts';
import type { KitchenApi } from '../api.ts';
import { adminAction, type AdminActionState } from './admin-action.ts';

export interface DevicesState extends AdminActionState {
  devices: KitchenDeviceEntry[];
  offer: PairingOffer | null;
  /** When wrong codes last voided the live six-digit codes, if ever. */
  lockout: PairingLockout | null;
  /** The restaurant's pickup screen settings (null until loaded). */
  pickup: PickupScreenSettings | null;
  /** When the pickup settings were last saved (the view says so). */
  pickupSavedAt: number | null;
  load(): Promise<void>;
  savePickup(patch: Partial<PickupScreenSettings>): Promise<boolean>;
  offerPairing(name: string | null, role?: ScreenRole): Promise<boolean>;
  revoke(deviceId: string): Promise<boolean>;
  dismissOffer(): void;
}

export type DevicesStateApi = StoreApi<DevicesState>;

export function createDevicesState(deps: {
  api: Pick<KitchenApi, 'listDevices' | 'pairDevice' | 'revokeDevice' | 'pairingLockout' | 'pickupSettings' | 'setPickupSettings'>;
}): DevicesStateApi {
  return createStore<DevicesState>()((set, get) => {
    const attempt = adminAction(set);
    return {
      devices: [],
      offer: null,
      lockout: null,
      pickup: null,
      pickupSavedAt: null,
      busy: false,
      error: null,
      async load() {
        await attempt(async () => set({ devices: await deps.api.listDevices({}), lockout: await deps.api.pairingLockout({}) }));
        // Read once: the screen's own choices are not overwritten by the 3-second re-reads of an offer.
        if (get().pickup === null) await attempt(async () => set({ pickup: await deps.api.pickupSettings({}) }));
      },
      async savePickup(patch) {
        // The choice shows at once (a controlled checkbox would otherwise spring back until the
        // engine answers); a refusal puts back what the engine holds.
        const before = get().pickup;
        if (before) set({ pickup: { ...before, ...patch } });
        const saved = await attempt(async () => {
          set({ pickup: await deps.api.setPickupSettings(patch), pickupSavedAt: Date.now() });
        });
        if (!saved && before) set({ pickup: before });
        return saved;
      },
      offerPairing: (name, role = 'kitchen') =>
        attempt(async () => {
          set({ offer: await deps.api.pairDevice({ name: name?.trim() || null, role }) });
        }),
      revoke: (deviceId) =>
        attempt(async () => {
          const record = await deps.api.revokeDevice({ device_id: deviceId });
          set({ devices: get().devices.map((d) => (d.id === deviceId ? record : d)) });
        }),
      dismissOffer() {
        set({ offer: null });
      },
    };
  });
}
