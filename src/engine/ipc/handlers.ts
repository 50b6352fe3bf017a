// The kitchen screen's door into the engine: one handler per channel of the IPC contract, each
// calling the same services (and the same EngineCommands) as the HTTP API. Main registers these
// with ipcMain; tests call them directly, without Electron.
import Value from 'typebox/value';
import type { IpcChannel, IpcContract, IpcRequest, IpcResponse, IpcResult } from '../../shared/ipc/contract.ts';
import { isIpcChannel } from '../../shared/ipc/contract.ts';
import type { KitchenOrder, LocationStatusEntry, World } from '../../shared/ipc/kitchen.ts';
import { NO_MAIL, type AppSettings, type SettingsPatch, type SettingsView } from '../../shared/ipc/settings.ts';
import { DateTime } from 'luxon';
import { join } from 'node:path';
import { invalidRequest, notFound } from '../domain/errors.ts';
import { DEFAULT_TIME_ZONE } from '../domain/time.ts';
import { backupDatabase } from '../services/backup-database.ts';
import type { Engine } from '../engine.ts';
import type { Actor } from '../services/actor.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys.ts';
import type { EngineCommands } from '../services/engine-commands.ts';
import { readKitchenBoard, readKitchenTicket, readKitchenTicketById } from '../services/kitchen-board.ts';
import { recallOrder } from '../services/recall-order.ts';
import type { LocationStatusView } from '../services/location-status.ts';
import { listLocations } from '../services/locations.ts';
import type { OrderView } from '../services/order-view.ts';
import { readStock } from '../services/stock.ts';
import { AppError, toFailure } from './ipc-errors.ts';
import { platformKeyMode } from './platform-key.ts';
import type { HostPort, MailSettingsPort, PlatformKeyPort, SettingsPort } from './ports.ts';
import { checkSmtpSettings } from '../mail/smtp-sender.ts';
import { REQUEST_SCHEMAS } from './request-schemas.ts';

// The engine's views must stay assignable to the kitchen's types (a compile error otherwise).
const _orderFits = (order: OrderView): KitchenOrder => order;
const _locationFits = (location: LocationStatusView): LocationStatusEntry => location;

/** The name the kitchen screen's writes carry, where an API key's id would be. */
export const KITCHEN_KEY_ID = 'kitchen';

export interface IpcHandlerDeps {
  engine: Engine;
  /** How writes are applied: `localCommands(engine)` standalone; a replica passes its own. */
  commands: EngineCommands;
  /** The restaurant this screen works for. */
  restaurantId: string;
  settings: SettingsPort;
  platformKey: PlatformKeyPort;
  /** Absent where the host keeps no SMTP settings (then mail stays queued). */
  mail?: MailSettingsPort;
  host: HostPort;
  /** The settings the app started with: changing those that need a restart is reported. */
  bootSettings?: AppSettings;
  /** Where unexpected errors are reported (never to the screen). */
  log?: (error: unknown) => void;
}

export type IpcHandlers = {
  [C in IpcChannel]: (request: IpcRequest<C>) => IpcResponse<C> | Promise<IpcResponse<C>>;
};

/** The kitchen's actor in one world of its restaurant: it may write, and says so as "kitchen". */
export function kitchenActor(restaurantId: string, world: World): Actor {
  return { restaurantId, mode: world, canWrite: true, keyId: KITCHEN_KEY_ID };
}

export function createIpcHandlers(deps: IpcHandlerDeps): IpcHandlers {
  const { engine, commands, restaurantId } = deps;
  const actor = (world: World) => kitchenActor(restaurantId, world);

  const settingsView = (): SettingsView => {
    const settings = deps.settings.read();
    return {
      settings,
      platform_key: deps.platformKey.info(),
      mail: deps.mail?.info() ?? NO_MAIL,
      secure_storage: deps.platformKey.storage(),
      restart_required: deps.bootSettings ? needsRestart(deps.bootSettings, settings) : false,
    };
  };

  return {
    'app:info': () => deps.host.appInfo(),
    'sync:status': () => deps.host.syncStatus(),
    'app:backup': async () => {
      const folder = deps.host.backupFolder();
      if (folder === null) throw new AppError('backup_unavailable', 'this app keeps no backup folder');
      const zone = engine.restaurants.get(restaurantId)?.time_zone ?? DEFAULT_TIME_ZONE;
      const stamp = DateTime.fromMillis(engine.clock.now(), { zone }).toFormat('yyyyLLdd-HHmmss');
      const result = await backupDatabase(engine, join(folder, `comanda-${stamp}.db`));
      return { file: result.file, bytes: result.bytes };
    },
    'app:restart': () => {
      if (!deps.host.restart) return { restarting: false };
      deps.host.restart();
      return { restarting: true };
    },
    'board:snapshot': () => readKitchenBoard(engine, restaurantId),
    'orders:transition': ({ order_id, target }) => {
      // A test order is changed in the test world, a real one in the real world: the same rules
      // an API key of that world meets.
      const row = engine.orders.getById(order_id.toLowerCase());
      if (!row || row.restaurant_id !== restaurantId) throw notFound(`order ${order_id} not found`);
      const order = commands.transitionOrder(actor(row.test === 1 ? 'test' : 'live'), row.id, target);
      return readKitchenTicket(engine, restaurantId, order);
    },
    'items:set-done': ({ order_id, item_index, done }) => {
      const row = engine.orders.getById(order_id.toLowerCase());
      if (!row || row.restaurant_id !== restaurantId) throw notFound(`order ${order_id} not found`);
      const result = commands.setItemDone(actor(row.test === 1 ? 'test' : 'live'), row.id, item_index, done);
      return readKitchenTicketById(engine, restaurantId, result.order.id);
    },
    'orders:recall': ({ order_id }) => readKitchenTicketById(engine, restaurantId, recallOrder(engine, restaurantId, order_id).order.id),
    'stock:read': ({ location_id, world }) => ({ location_id, world, ...readStock(engine, actor(world), location_id) }),
    'stock:set': ({ location_id, world, items }) => commands.setStock(actor(world), { location_id, items }),
    'locations:list': ({ world }) => ({ ...listLocations(engine, actor(world)), world }),
    'locations:set-open': ({ location_id, world, open }) => commands.setLocationOpen(actor(world), location_id, open),
    'keys:list': () => listApiKeys(engine, restaurantId),
    'keys:create': ({ mode, write, label }) => createApiKey(engine, { restaurantId, mode, write, label }),
    'keys:revoke': ({ key_id }) => revokeApiKey(engine, restaurantId, key_id),
    'settings:get': () => settingsView(),
    'settings:update': (patch) => {
      const next = applySettingsPatch(deps.settings.read(), patch, {
        restaurantExists: (id) => engine.restaurants.get(id) !== undefined,
        hasPlatformKey: () => deps.platformKey.info().present,
      });
      deps.settings.write(next);
      return settingsView();
    },
    'platform:set-key': ({ key, label }) => {
      const trimmed = key.trim();
      if (platformKeyMode(trimmed) === null) {
        throw invalidRequest('key is not a platform API key (expected <prefix>_live_… or <prefix>_test_…)');
      }
      deps.platformKey.save(trimmed, label?.trim() || null);
      return settingsView();
    },
    'mail:set-smtp': ({ url, from }) => {
      if (!deps.mail) throw new AppError('mail_unavailable', 'this app keeps no mail settings');
      const smtp = { url: url.trim(), ...(from?.trim() ? { from: from.trim() } : {}) };
      try {
        checkSmtpSettings(smtp);
      } catch (error) {
        throw invalidRequest(`SMTP: ${(error as Error).message}`);
      }
      deps.mail.save(smtp);
      deps.host.configureMail?.(smtp);
      return settingsView();
    },
    'mail:clear-smtp': () => {
      deps.mail?.clear();
      deps.host.configureMail?.(null);
      return settingsView();
    },
    'platform:clear-key': () => {
      deps.platformKey.clear();
      const settings = deps.settings.read();
      if (settings.connection.mode === 'connected') {
        deps.settings.write({ ...settings, connection: { ...settings.connection, mode: 'standalone' } });
      }
      return settingsView();
    },
  };
}

/**
 * Runs one request through its handler: the channel and the payload are checked first, and every
 * outcome comes back as data, the engine's refusals with their code and message intact.
 */
export async function dispatchIpc(
  handlers: IpcHandlers,
  channel: unknown,
  request: unknown,
  log?: (error: unknown) => void,
): Promise<IpcResult<unknown>> {
  try {
    if (!isIpcChannel(channel)) throw notFound(`no such channel: ${String(channel).slice(0, 60)}`);
    const payload = request === undefined || request === null ? {} : request;
    const schema = REQUEST_SCHEMAS[channel];
    if (!Value.Check(schema, payload)) {
      const first = [...Value.Errors(schema, payload)][0];
      const field = first?.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : 'request';
      throw invalidRequest(`${channel}: ${field} ${first?.message ?? 'is not valid'}`);
    }
    const handler = handlers[channel] as (request: unknown) => unknown;
    return { ok: true, value: await handler(payload) };
  } catch (error) {
    return { ok: false, error: toFailure(error, log) };
  }
}

/** A typed call for code in the same process (tests, the headless harness). */
export async function callIpc<C extends IpcChannel>(
  handlers: IpcHandlers,
  channel: C,
  request: IpcRequest<C>,
): Promise<IpcResult<IpcContract[C]['response']>> {
  return (await dispatchIpc(handlers, channel, request)) as IpcResult<IpcResponse<C>>;
}

const RESTART_KEYS = ['http', 'restaurant_id', 'connection'] as const;

export function needsRestart(boot: AppSettings, now: AppSettings): boolean {
  return RESTART_KEYS.some((key) => JSON.stringify(boot[key]) !== JSON.stringify(now[key]));
}

export function applySettingsPatch(
  current: AppSettings,
  patch: SettingsPatch,
  checks: { restaurantExists(id: string): boolean; hasPlatformKey(): boolean },
): AppSettings {
  const next: AppSettings = {
    ...current,
    ...(patch.language !== undefined ? { language: patch.language } : {}),
    ...(patch.theme !== undefined ? { theme: patch.theme } : {}),
    ...(patch.sound !== undefined ? { sound: patch.sound } : {}),
    thresholds: { ...current.thresholds, ...patch.thresholds },
    http: { ...current.http, ...patch.http },
    restaurant_id: patch.restaurant_id === undefined ? current.restaurant_id : patch.restaurant_id?.toLowerCase() ?? null,
    connection: { ...current.connection, ...patch.connection },
  };
  if (next.thresholds.warn_minutes >= next.thresholds.late_minutes) {
    throw invalidRequest('thresholds.warn_minutes must be less than thresholds.late_minutes');
  }
  if (next.restaurant_id !== null && !checks.restaurantExists(next.restaurant_id)) {
    throw invalidRequest(`restaurant_id: unknown restaurant ${next.restaurant_id}`);
  }
  const url = next.connection.platform_url?.trim() || null;
  if (url !== null && !isHttpUrl(url)) throw invalidRequest('connection.platform_url must be an http(s) URL');
  next.connection = { ...next.connection, platform_url: url };
  if (next.connection.mode === 'connected') {
    if (url === null) throw invalidRequest('connection.platform_url is required to connect to a platform');
    if (!checks.hasPlatformKey()) throw new AppError('platform_key_missing', 'save the platform key before connecting');
  }
  return next;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

