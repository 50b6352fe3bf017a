// The integrations screen: API keys of this restaurant for store fronts and POS on the LAN.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiKeyEntry, World } from '../../../shared/screen-contract/kitchen.ts';
import type { KitchenApi } from '../api.ts';
import { adminAction, type AdminActionState } from './admin-action.ts';

export interface KeysState extends AdminActionState {
  keys: ApiKeyEntry[];
  /** The key just generated: shown once, then forgotten by `dismissCreated`. */
  created: { key: string; record: ApiKeyEntry } | null;
  load(): Promise<void>;
  create(input: { world: World; write: boolean; label: string | null }): Promise<boolean>;
  revoke(keyId: string): Promise<boolean>;
  dismissCreated(): void;
}

export type KeysStateApi = StoreApi<KeysState>;

export function createKeysState(deps: { api: Pick<KitchenApi, 'listKeys' | 'createKey' | 'revokeKey'> }): KeysStateApi {
  return createStore<KeysState>()((set, get) => {
    const attempt = adminAction(set);
    return {
      keys: [],
      created: null,
      busy: false,
      error: null,
      async load() {
        await attempt(async () => set({ keys: await deps.api.listKeys({}) }));
      },
      create: (input) =>
        attempt(async () => {
          const label = input.label?.trim() || null;
          const created = await deps.api.createKey({ ...input, label });
          set({ created, keys: [...get().keys, created.record] });
        }),
      revoke: (keyId) =>
        attempt(async () => {
          const record = await deps.api.revokeKey({ key_id: keyId });
          set({ keys: get().keys.map((k) => (k.id === keyId ? record : k)) });
        }),
      dismissCreated() {
        set({ created: null });
      },
    };
  });
}
