// The desktop's "Pantallas de cocina": the tablets paired to this restaurant, the pairing offer on
// show (QR, URL, six-digit code, until when), and revoking a screen.
import type { ScreenRole } from '../../../shared/ipc/devices.ts';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KitchenDeviceEntry, PairingLockout, PairingOffer } from '../../../shared/ipc/devices.ts';
import type { KitchenApi } from '../api.ts';
import { adminAction, type AdminActionState } from './admin-action.ts';

export interface DevicesState extends AdminActionState {
  devices: KitchenDeviceEntry[];
  offer: PairingOffer | null;
  /** When wrong codes last voided the live six-digit codes, if ever. */
  lockout: PairingLockout | null;
  load(): Promise<void>;
  offerPairing(name: string | null, role?: ScreenRole): Promise<boolean>;
  revoke(deviceId: string): Promise<boolean>;
  dismissOffer(): void;
}

export type DevicesStore = StoreApi<DevicesState>;

export function createDevicesStore(deps: { api: Pick<KitchenApi, 'listDevices' | 'pairDevice' | 'revokeDevice' | 'pairingLockout'> }): DevicesStore {
  return createStore<DevicesState>()((set, get) => {
    const attempt = adminAction(set);
    return {
      devices: [],
      offer: null,
      lockout: null,
      busy: false,
      error: null,
      async load() {
        await attempt(async () => set({ devices: await deps.api.listDevices({}), lockout: await deps.api.pairingLockout({}) }));
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
