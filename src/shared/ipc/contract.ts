// The typed IPC contract between the kitchen screen and the main process: one channel per use
// case, each with its request and response types. Main registers one handler per channel
// (src/engine/ipc/handlers.ts), the preload exposes one method per channel, and both are checked
// against this map by the compiler.
import type { PatchTarget } from '../order-states.ts';
import type {
  ApiKeyEntry,
  BoardSnapshot,
  KitchenTicket,
  LivePush,
  LocationStatusEntry,
  LocationsViewData,
  SetStockResultView,
  StockView,
  World,
} from './kitchen.ts';
import type { AppInfo, SettingsPatch, SettingsView } from './settings.ts';
import type { SyncStatus } from '../sync-status.ts';

export interface IpcContract {
  'app:info': { request: Record<string, never>; response: AppInfo };
  'app:restart': { request: Record<string, never>; response: { restarting: boolean } };
  'board:snapshot': { request: Record<string, never>; response: BoardSnapshot };
  'orders:transition': { request: { order_id: string; target: PatchTarget }; response: KitchenTicket };
  /** Item-level bump: strikes (or un-strikes) one line of the order, shared by every screen. */
  'items:set-done': { request: { order_id: string; item_index: number; done: boolean }; response: KitchenTicket };
  /** Brings a finished ticket back on the board for a few minutes, without changing its state. */
  'orders:recall': { request: { order_id: string }; response: KitchenTicket };
  'stock:read': { request: { location_id: string; world: World }; response: StockView };
  'stock:set': {
    request: { location_id: string; world: World; items: { product_id: string; quantity: number }[] };
    response: SetStockResultView;
  };
  'locations:list': { request: { world: World }; response: LocationsViewData };
  'locations:set-open': { request: { location_id: string; world: World; open: boolean }; response: LocationStatusEntry };
  'keys:list': { request: Record<string, never>; response: ApiKeyEntry[] };
  'keys:create': { request: { mode: World; write: boolean; label: string | null }; response: { key: string; record: ApiKeyEntry } };
  'keys:revoke': { request: { key_id: string }; response: ApiKeyEntry };
  'settings:get': { request: Record<string, never>; response: SettingsView };
  'settings:update': { request: SettingsPatch; response: SettingsView };
  'platform:set-key': { request: { key: string; label: string | null }; response: SettingsView };
  'platform:clear-key': { request: Record<string, never>; response: SettingsView };
  'sync:status': { request: Record<string, never>; response: SyncStatus | null };
  'app:backup': { request: Record<string, never>; response: { file: string; bytes: number } };
  'mail:set-smtp': { request: { url: string; from: string | null }; response: SettingsView };
  'mail:clear-smtp': { request: Record<string, never>; response: SettingsView };
}

export type IpcChannel = keyof IpcContract;
export type IpcRequest<C extends IpcChannel> = IpcContract[C]['request'];
export type IpcResponse<C extends IpcChannel> = IpcContract[C]['response'];

/** Every channel, for registration and for the sender check (a channel not listed is refused). */
export const IPC_CHANNELS = [
  'app:info',
  'app:restart',
  'board:snapshot',
  'orders:transition',
  'items:set-done',
  'orders:recall',
  'stock:read',
  'stock:set',
  'locations:list',
  'locations:set-open',
  'keys:list',
  'keys:create',
  'keys:revoke',
  'settings:get',
  'settings:update',
  'platform:set-key',
  'platform:clear-key',
  'sync:status',
  'app:backup',
  'mail:set-smtp',
  'mail:clear-smtp',
] as const satisfies readonly IpcChannel[];

// Fails to compile when a channel of the contract is missing from the list above.
type MissingChannels = Exclude<IpcChannel, (typeof IPC_CHANNELS)[number]>;
const _allChannelsListed: MissingChannels extends never ? true : MissingChannels = true;

export function isIpcChannel(value: unknown): value is IpcChannel {
  return typeof value === 'string' && (IPC_CHANNELS as readonly string[]).includes(value);
}

/** The live channel main pushes on (engine changes and heartbeats). */
export const LIVE_CHANNEL = 'live:push';

export interface IpcFailure {
  /** An API error code or one of the kitchen's own (error-codes.ts, `KitchenErrorCode`): translate by it. */
  code: string;
  message: string;
}

/** Every answer crosses the boundary as data, so the engine's refusal arrives with its words intact. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcFailure };

/** The preload's methods: one per channel, named for what they do. */
export const BRIDGE_METHODS = {
  appInfo: 'app:info',
  restartApp: 'app:restart',
  boardSnapshot: 'board:snapshot',
  transitionOrder: 'orders:transition',
  setItemDone: 'items:set-done',
  recallOrder: 'orders:recall',
  readStock: 'stock:read',
  setStock: 'stock:set',
  listLocations: 'locations:list',
  setLocationOpen: 'locations:set-open',
  listKeys: 'keys:list',
  createKey: 'keys:create',
  revokeKey: 'keys:revoke',
  getSettings: 'settings:get',
  updateSettings: 'settings:update',
  setPlatformKey: 'platform:set-key',
  clearPlatformKey: 'platform:clear-key',
  syncStatus: 'sync:status',
  backupDatabase: 'app:backup',
  setSmtp: 'mail:set-smtp',
  clearSmtp: 'mail:clear-smtp',
} as const satisfies Record<string, IpcChannel>;

export type BridgeMethod = keyof typeof BRIDGE_METHODS;

/** What `window.comanda` offers the renderer. */
export type ComandaBridge = {
  [M in BridgeMethod]: (request: IpcRequest<(typeof BRIDGE_METHODS)[M]>) => Promise<IpcResult<IpcResponse<(typeof BRIDGE_METHODS)[M]>>>;
} & {
  /** Calls `listener` with every live push; returns the unsubscribe. */
  onLive(listener: (push: LivePush) => void): () => void;
};
