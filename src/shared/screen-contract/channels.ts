// The one table of the screens' channels: for each, who may call it (`kitchen`: the desktop window
// and paired tablets, over the preload bridge and over HTTP + live stream; `desktop`: the desktop's
// own window only), the bridge method that calls it, the schema its request must pass and the type
// of its answer. contract.ts derives from this table the request and response types, the kitchen
// and desktop lists and the bridge; the dispatcher validates with these schemas. Adding an action
// is one row here, its handler, its service and its screen (docs/architecture.md, "Recipes").
import type { DemoRushStatus } from './demo-rush.ts';
import Type, { type TSchema } from 'typebox';
import { PATCH_TARGETS } from '../order-states.ts';
import { Uuid } from '../schemas/common.ts';
import { WORLDS } from '../world.ts';
import type {
  ApiKeyEntry,
  BoardSnapshot,
  KitchenTicket,
  LocationStatusEntry,
  LocationsViewData,
  KitchenBusyEntry,
  StationCooksEntry,
  PrepTimeDriftEntry,
  SetStockResultView,
  SoldOutBoardView,
  StockView,
} from './kitchen.ts';
import { SettingsPatchSchema, type AppInfo, type SettingsView } from './settings.ts';
import type { SyncStatus } from '../sync-status.ts';
import { SCREEN_ROLES, type KitchenDeviceEntry, type PairingLockout, type PairingOffer } from './devices.ts';
import { PRINT_WHEN, type PrinterEntry, type PrinterFailure } from './printers.ts';
import { PICKUP_ORDER_TYPES, type PickupBoard, type PickupScreenSettings } from './pickup.ts';
import { LANGUAGES } from '../locale.ts';
import { SetOnlinePaymentsSchema, type OnlinePaymentsCheck, type OnlinePaymentsInfo } from './online-payments.ts';
import { KitchenReportQuery, REPORT_TABLE_NAMES } from '../schemas/kitchen-report-query.ts';
import type { KitchenReport } from '../schemas/kitchen-report.ts';
import { KitchenReplayQuery } from '../schemas/kitchen-replay-query.ts';
import type { KitchenReplay } from '../kitchen-replay.ts';
import type { TableRows } from '../kitchen-report-tables.ts';

/** Carries a channel's answer type in the table; it holds nothing at run time. */
declare const answerType: unique symbol;
export interface Answer<T> {
  readonly [answerType]?: T;
}
const answers = <T>(): Answer<T> => ({});

export type Audience = 'kitchen' | 'desktop';
export interface ChannelEntry<M extends string = string, S extends TSchema = TSchema, R = unknown> {
  audience: Audience;
  method: M;
  request: S;
  response: Answer<R>;
}
const kitchen = <M extends string, S extends TSchema, R>(method: M, request: S, response: Answer<R>) =>
  ({ audience: 'kitchen', method, request, response }) as const;
const desktop = <M extends string, S extends TSchema, R>(method: M, request: S, response: Answer<R>) =>
  ({ audience: 'desktop', method, request, response }) as const;

const Empty = Type.Object({});
const WorldField = Type.Enum([...WORLDS]);
/** A screen's key for one change (pending-slice.ts makes 32 hex digits): applied once. */
const ChangeId = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' });
const Label = Type.Union([Type.String({ maxLength: 100 }), Type.Null()]);

export const CHANNELS = {
  // The kitchen: what a screen does wherever it runs.
  'board:snapshot': kitchen('boardSnapshot', Empty, answers<BoardSnapshot>()),
  /** `change_id`: the screen's key for this change; sent again, it is applied once. */
  'orders:transition': kitchen(
    'transitionOrder',
    Type.Object({ order_id: Uuid(), target: Type.Enum([...PATCH_TARGETS]), change_id: Type.Optional(ChangeId) }),
    answers<KitchenTicket>(),
  ),
  /** Item-level bump: strikes (or un-strikes) one line of the order, shared by every screen. */
  'items:set-done': kitchen(
    'setItemDone',
    Type.Object({
      order_id: Uuid(),
      item_index: Type.Integer({ minimum: 0, maximum: 999 }),
      done: Type.Boolean(),
      change_id: Type.Optional(ChangeId),
    }),
    answers<KitchenTicket>(),
  ),
  /**
   * A line started at its station (issue 32): the board's first tap on it (`started: false`, the undo
   * tray). Logged as the line's real start, which the promise and the firing of held lines go by.
   */
  'items:set-started': kitchen(
    'setItemStarted',
    Type.Object({
      order_id: Uuid(),
      item_index: Type.Integer({ minimum: 0, maximum: 999 }),
      started: Type.Boolean(),
      change_id: Type.Optional(ChangeId),
    }),
    answers<KitchenTicket>(),
  ),
  /** Brings a finished ticket back on the board for a few minutes, without changing its state. */
  'orders:recall': kitchen('recallOrder', Type.Object({ order_id: Uuid() }), answers<KitchenTicket>()),
  /** Reimprimir: the order's ticket again at its printers, marked REIMPRESIÓN. */
  'orders:reprint': kitchen('reprintOrder', Type.Object({ order_id: Uuid() }), answers<{ queued: number }>()),
  /** Reintentar: a printer's tickets set aside (never confirmed by it after a few sends) queued again, as reprints. */
  'printers:retry': kitchen('retryPrinter', Type.Object({ printer_id: Uuid() }), answers<{ printer: string; retried: number }>()),
  /** The pickup screen's one read: order numbers preparing and ready (shared/screen-contract/pickup.ts). */
  'pickup:board': kitchen('pickupBoard', Empty, answers<PickupBoard>()),
  'stock:read': kitchen('readStock', Type.Object({ location_id: Uuid(), world: WorldField }), answers<StockView>()),
  'stock:set': kitchen(
    'setStock',
    Type.Object({
      location_id: Uuid(),
      world: WorldField,
      items: Type.Array(Type.Object({ product_id: Uuid(), quantity: Type.Integer({ minimum: 0, maximum: 1_000_000 }) }), {
        minItems: 1,
        maxItems: 500,
      }),
    }),
    answers<SetStockResultView>(),
  ),
  /** The Stock screen's "agotado" list: every dish of the menu (tracked or not) and its options, with their switch. */
  'sold-out:read': kitchen('readSoldOut', Type.Object({ location_id: Uuid(), world: WorldField }), answers<SoldOutBoardView>()),
  /** Switches one dish or option "agotado" (86) at a location, or back (PUT /sold-out semantics). */
  'sold-out:set': kitchen(
    'setSoldOut',
    Type.Object({ location_id: Uuid(), world: WorldField, kind: Type.Enum(['product', 'option']), id: Uuid(), sold_out: Type.Boolean() }),
    answers<SoldOutBoardView>(),
  ),
  /**
   * From a ticket: switches the dish of one line of the order "agotado" (or back) at the order's
   * location, in the order's world. A ticket item's menu calls it with the line's index.
   */
  'items:set-sold-out': kitchen(
    'setItemSoldOut',
    Type.Object({ order_id: Uuid(), item_index: Type.Integer({ minimum: 0, maximum: 999 }), sold_out: Type.Boolean() }),
    answers<{ product_id: string; name: string; location_id: string; sold_out: boolean; simulated: boolean }>(),
  ),
  'locations:list': kitchen('listLocations', Type.Object({ world: WorldField }), answers<LocationsViewData>()),
  'locations:set-open': kitchen(
    'setLocationOpen',
    Type.Object({ location_id: Uuid(), world: WorldField, open: Type.Boolean() }),
    answers<LocationStatusEntry>(),
  ),

  // The desktop's own window: never served over HTTP, never to a tablet.
  'app:info': desktop('appInfo', Empty, answers<AppInfo>()),
  'app:restart': desktop('restartApp', Empty, answers<{ restarting: boolean }>()),
  'keys:list': desktop('listKeys', Empty, answers<ApiKeyEntry[]>()),
  // The hub during service (issue 32): busy mode's override, and the cooks on shift per station.
  'locations:set-busy': desktop(
    'setLocationBusy',
    Type.Object({ location_id: Uuid(), mode: Type.Enum(['pause', 'resume', 'auto']) }),
    answers<KitchenBusyEntry>(),
  ),
  'stations:cooks': desktop('stationCooks', Empty, answers<StationCooksEntry[]>()),
  'stations:set-cooks': desktop(
    'setStationCooks',
    Type.Object({ station_id: Type.String({ minLength: 1, maxLength: 50 }), cooks: Type.Integer({ minimum: 1, maximum: 50 }) }),
    answers<StationCooksEntry[]>(),
  ),
  // The manager's prep times (issue 32): where the learned time drifts from the typed one, and one tap to accept it.
  'prep-times:drift': desktop('prepTimeDrift', Empty, answers<PrepTimeDriftEntry[]>()),
  'prep-times:accept': desktop(
    'acceptPrepTime',
    Type.Object({ product_id: Uuid(), station_id: Type.String({ minLength: 1, maxLength: 50 }) }),
    answers<PrepTimeDriftEntry[]>(),
  ),
  // Informes (issue 33): the kitchen report of a location over days, and one of its tables for "Exportar".
  'reports:kitchen': desktop('kitchenReport', KitchenReportQuery, answers<KitchenReport>()),
  // The replay of a past service (issue 33r): the day's timeline, read once; the screen scrubs it.
  'reports:replay': desktop('kitchenReplay', KitchenReplayQuery, answers<KitchenReplay>()),
  'reports:table': desktop(
    'kitchenReportTable',
    Type.Object({ ...KitchenReportQuery.properties, table: Type.Enum([...REPORT_TABLE_NAMES]) }, { additionalProperties: false }),
    answers<TableRows>(),
  ),
  'keys:create': desktop(
    'createKey',
    Type.Object({ world: WorldField, write: Type.Boolean(), label: Label }),
    answers<{ key: string; record: ApiKeyEntry }>(),
  ),
  'keys:revoke': desktop('revokeKey', Type.Object({ key_id: Type.String({ minLength: 1, maxLength: 64 }) }), answers<ApiKeyEntry>()),
  'settings:get': desktop('getSettings', Empty, answers<SettingsView>()),
  'settings:update': desktop('updateSettings', SettingsPatchSchema, answers<SettingsView>()),
  'platform:set-key': desktop(
    'setPlatformKey',
    Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }), label: Label }),
    answers<SettingsView>(),
  ),
  'platform:clear-key': desktop('clearPlatformKey', Empty, answers<SettingsView>()),
  'sync:status': desktop('syncStatus', Empty, answers<SyncStatus | null>()),
  'app:backup': desktop('backupDatabase', Empty, answers<{ file: string; bytes: number }>()),
  // "Probar con pedidos de ejemplo" (the demo restaurant only): the project's rush over the API.
  'demo:rush': desktop(
    'demoRush',
    Type.Object({ action: Type.Enum(['status', 'start', 'stop']), per_minute: Type.Optional(Type.Integer({ minimum: 1, maximum: 120 })) }),
    answers<DemoRushStatus>(),
  ),
  'mail:set-smtp': desktop(
    'setSmtp',
    Type.Object({ url: Type.String({ minLength: 1, maxLength: 2000 }), from: Type.Union([Type.String({ maxLength: 254 }), Type.Null()]) }),
    answers<SettingsView>(),
  ),
  'mail:clear-smtp': desktop('clearSmtp', Empty, answers<SettingsView>()),
  'devices:list': desktop('listDevices', Empty, answers<KitchenDeviceEntry[]>()),
  'devices:pair': desktop(
    'pairDevice',
    Type.Object({ name: Type.Union([Type.String({ maxLength: 60 }), Type.Null()]), role: Type.Optional(Type.Enum([...SCREEN_ROLES])) }),
    answers<PairingOffer>(),
  ),
  'devices:revoke': desktop('revokeDevice', Type.Object({ device_id: Uuid() }), answers<KitchenDeviceEntry>()),
  'devices:pairing-lockout': desktop('pairingLockout', Empty, answers<PairingLockout | null>()),
  /** The pickup screen's privacy choices (first names, which orders) and language, per restaurant. */
  'pickup:settings': desktop('pickupSettings', Empty, answers<PickupScreenSettings>()),
  'pickup:set-settings': desktop(
    'setPickupSettings',
    Type.Object(
      {
        show_first_name: Type.Optional(Type.Boolean()),
        order_types: Type.Optional(Type.Enum([...PICKUP_ORDER_TYPES])),
        language: Type.Optional(Type.Enum([...LANGUAGES])),
      },
      { additionalProperties: false },
    ),
    answers<PickupScreenSettings>(),
  ),
  'printers:list': desktop('listPrinters', Empty, answers<PrinterEntry[]>()),
  'printers:add': desktop(
    'addPrinter',
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: 60 }),
      host: Type.String({ minLength: 1, maxLength: 253 }),
      port: Type.Integer({ minimum: 1, maximum: 65535 }),
      width_mm: Type.Union([Type.Literal(58), Type.Literal(80)]),
      code_page: Type.Optional(Type.String({ maxLength: 20 })),
      stations: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 }),
      when: Type.Array(Type.Enum([...PRINT_WHEN]), { minItems: 1, maxItems: 3 }),
      fallback_seconds: Type.Optional(Type.Integer({ minimum: 5, maximum: 3600 })),
    }),
    answers<PrinterEntry>(),
  ),
  'printers:remove': desktop('removePrinter', Type.Object({ printer_id: Uuid() }), answers<{ id: string; name: string; dropped_jobs: number }>()),
  /** Imprimir prueba: a test page sent at once; the answer carries the printer's new state. */
  'printers:test': desktop('testPrinter', Type.Object({ printer_id: Uuid() }), answers<{ printed: boolean; error: string | null; silent: boolean; failure: PrinterFailure | null; reply: string; reply_bytes: number; printer: PrinterEntry }>()),
  /** Ajustes → Pagos en línea: the restaurant's Mercado Pago account, kept in the app's protected storage. */
  'payments:get': desktop('getOnlinePayments', Empty, answers<OnlinePaymentsInfo>()),
  'payments:set': desktop('setOnlinePayments', SetOnlinePaymentsSchema, answers<OnlinePaymentsInfo>()),
  /** Probar conexión: one real call with the kept token (GET /users/me). */
  'payments:test': desktop('testOnlinePayments', Empty, answers<OnlinePaymentsCheck>()),
  'payments:remove': desktop('removeOnlinePayments', Empty, answers<OnlinePaymentsInfo>()),
} as const satisfies Record<string, ChannelEntry>;
