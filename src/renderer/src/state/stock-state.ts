// The stock screen: the tracked products of one location in one world, edited as drafts and saved
// as absolute quantities (PUT /stock semantics). A test-world save answers "simulated".
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LivePush, StockEntry, World } from '../../../shared/screen-contract/kitchen.ts';
import type { KitchenApi } from '../api.ts';
import { errorMessage } from '../api.ts';

export interface StockState {
  locationId: string | null;
  world: World;
  entries: StockEntry[];
  /** Quantities typed or stepped but not saved yet, by product. */
  drafts: Record<string, number>;
  loading: boolean;
  saving: boolean;
  error: string | null;
  lastSave: { simulated: boolean; at: number; count: number } | null;
  open(locationId: string, world: World): Promise<void>;
  reload(): Promise<void>;
  setDraft(productId: string, quantity: number): void;
  step(productId: string, delta: number): void;
  soldOut(productId: string): void;
  discard(): void;
  save(): Promise<boolean>;
  receive(push: LivePush): void;
}

export type StockStateApi = StoreApi<StockState>;

const clampQuantity = (n: number) => (Number.isFinite(n) ? Math.min(1_000_000, Math.max(0, Math.trunc(n))) : 0);

export function createStockState(deps: { api: Pick<KitchenApi, 'readStock' | 'setStock'>; now?: () => number }): StockStateApi {
  const now = deps.now ?? (() => Date.now());
  return createStore<StockState>()((set, get) => {
    const quantityOf = (productId: string) =>
      get().drafts[productId] ?? get().entries.find((e) => e.product_id === productId)?.quantity ?? 0;
    const setDraft = (productId: string, quantity: number) => {
      const value = clampQuantity(quantity);
      const saved = get().entries.find((e) => e.product_id === productId)?.quantity;
      set((s) => {
        const { [productId]: _old, ...rest } = s.drafts;
        return { drafts: value === saved ? rest : { ...rest, [productId]: value } };
      });
    };
    return {
      locationId: null,
      world: 'live',
      entries: [],
      drafts: {},
      loading: false,
      saving: false,
      error: null,
      lastSave: null,
      async open(locationId, world) {
        set({ locationId, world, drafts: {}, lastSave: null });
        await get().reload();
      },
      async reload() {
        const { locationId, world } = get();
        if (!locationId) return;
        set({ loading: true, error: null });
        try {
          const view = await deps.api.readStock({ location_id: locationId, world });
          if (get().locationId === locationId && get().world === world) set({ entries: view.data, loading: false });
        } catch (error) {
          set({ loading: false, error: errorMessage(error) });
        }
      },
      setDraft,
      step: (productId, delta) => setDraft(productId, quantityOf(productId) + delta),
      soldOut: (productId) => setDraft(productId, 0),
      discard: () => set({ drafts: {} }),
      async save() {
        const { locationId, world, drafts } = get();
        const items = Object.entries(drafts).map(([product_id, quantity]) => ({ product_id, quantity }));
        if (!locationId || items.length === 0) return false;
        set({ saving: true, error: null });
        try {
          const result = await deps.api.setStock({ location_id: locationId, world, items });
          const saved = new Map(result.data.map((i) => [i.product_id, i.quantity]));
          set((s) => ({
            saving: false,
            drafts: {},
            lastSave: { simulated: result.simulated, at: now(), count: items.length },
            // A simulated write changed nothing: the list keeps the real quantities.
            entries: result.simulated ? s.entries : s.entries.map((e) => (saved.has(e.product_id) ? { ...e, quantity: saved.get(e.product_id)! } : e)),
          }));
          return true;
        } catch (error) {
          set({ saving: false, error: errorMessage(error) });
          return false;
        }
      },
      receive(push) {
        if (push.kind !== 'events') return;
        const { locationId, world } = get();
        const touched = push.events.some(
          (e) => e.type === 'stock.updated' && e.data.location_id === locationId && (e.world === world || e.world === 'both'),
        );
        // Someone else changed this location's stock (an order, the API): show the new numbers.
        if (touched) void get().reload();
      },
    };
  });
}
