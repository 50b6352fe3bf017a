// The one contract between the screen and the engine: one channel per use case, each with its
// request (schema in request-schemas.ts) and response types. Kitchen channels are served on both
// transports (the desktop's preload bridge, and HTTP + live stream to paired tablets); desktop
// channels only on the bridge. Handlers (src/engine/screen/kitchen-handlers.ts, src/main/desktop-handlers.ts),
// the preload and the browser transport are all checked against these maps by the compiler.
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
import type { KitchenDeviceEntry, PairingLockout, PairingOffer } from './devices.ts';

/**
 * What a kitchen screen does, wherever it runs: served to the desktop window through the preload
 * bridge AND to paired browser tablets over HTTP (`POST /kitchen/api/<channel>`) and one live
 * stream (`GET /kitchen/live`). Both transports are built from this one list.
 */
export interface KitchenContract {
  'board:snapshot': { request: Record<string, never>; response: BoardSnapshot };
  /** `change_id`: the screen's key for this change; sent again, it is applied once. */
  'orders:transition': { request: { order_id: string; target: PatchTarget; change_id?: string }; response: KitchenTicket };
  /** Item-level bump: strikes (or un-strikes) one line of the order, shared by every screen. */
  'items:set-done': { request: { order_id: string; item_index: number; done: boolean; change_id?: string }; response: KitchenTicket };
  /** Brings a finished ticket back on the board for a few minutes, without changing its state. */
  'orders:recall': { request: { order_id: string }; response: KitchenTicket };
  'stock:read': { request: { location_id: string; world: World }; response: StockView };
  'stock:set': {
    request: { location_id: string; world: World; items: { product_id: string; quantity: number }[] };
    response: SetStockResultView;
  };
  'locations:list': { request: { world: World }; response: LocationsViewData };
  'locations:set-open': { request: { location_id: string; world: World; open: boolean }; response: LocationStatusEntry };
}

/** What only the desktop app's own window may do: never served over HTTP, never to a tablet. */
export interface DesktopContract {
  'app:info': { request: Record<string, never>; response: AppInfo };
  'app:restart': { request: Record<string, never>; response: { restarting: boolean } };
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
  'devices:list': { request: Record<string, never>; response: KitchenDeviceEntry[] };
  'devices:pair': { request: { name: string | null }; response: PairingOffer };
  'devices:revoke': { request: { device_id: string }; response: KitchenDeviceEntry };
  'devices:pairing-lockout': { request: Record<string, never>; response: PairingLockout | null };
}

export interface IpcContract extends KitchenContract, DesktopContract {}

export type KitchenChannel = keyof KitchenContract;
export type DesktopChannel = keyof DesktopContract;
export type IpcChannel = keyof IpcContract;
export type IpcRequest<C extends IpcChannel> = IpcContract[C]['request'];
export type IpcResponse<C extends IpcChannel> = IpcContract[C]['response'];

/** The kitchen's channels: registered on ipcMain and as HTTP endpoints, from this list. */
export const KITCHEN_CHANNELS = [
  'board:snapshot',
  'orders:transition',
  'items:set-done',
  'orders:recall',
  'stock:read',
  'stock:set',
  'locations:list',
  'locations:set-open',
] as const satisfies readonly KitchenChannel[];

/** The desktop's own channels: on ipcMain only. */
export const DESKTOP_CHANNELS = [
  'app:info',
  'app:restart',
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
  'devices:list',
  'devices:pair',
  'devices:revoke',
  'devices:pairing-lockout',
] as const satisfies readonly DesktopChannel[];

/** Every channel, for registration and for the sender check (a channel not listed is refused). */
export const IPC_CHANNELS: readonly IpcChannel[] = [...KITCHEN_CHANNELS, ...DESKTOP_CHANNELS];

// Fail to compile when a channel of a contract is missing from its list, or sits in both.
type MissingKitchen = Exclude<KitchenChannel, (typeof KITCHEN_CHANNELS)[number]>;
type MissingDesktop = Exclude<DesktopChannel, (typeof DESKTOP_CHANNELS)[number]>;
type InBoth = KitchenChannel & DesktopChannel;
const _allKitchenListed: MissingKitchen extends never ? true : MissingKitchen = true;
const _allDesktopListed: MissingDesktop extends never ? true : MissingDesktop = true;
const _noChannelInBoth: InBoth extends never ? true : InBoth = true;

export function isKitchenChannel(value: unknown): value is KitchenChannel {
  return typeof value === 'string' && (KITCHEN_CHANNELS as readonly string[]).includes(value);
}

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
  listDevices: 'devices:list',
  pairDevice: 'devices:pair',
  revokeDevice: 'devices:revoke',
  pairingLockout: 'devices:pairing-lockout',
} as const satisfies Record<string, IpcChannel>;

export type BridgeMethod = keyof typeof BRIDGE_METHODS;

/** What `window.comanda` offers the renderer. */
export type ComandaBridge = {
  [M in BridgeMethod]: (request: IpcRequest<(typeof BRIDGE_METHODS)[M]>) => Promise<IpcResult<IpcResponse<(typeof BRIDGE_METHODS)[M]>>>;
} & {
  /** Calls `listener` with every live push; returns the unsubscribe. */
  onLive(listener: (push: LivePush) => void): () => void;
};
