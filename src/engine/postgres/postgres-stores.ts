// Issue 34: the registry of the stores on PostgreSQL, one line per store: `tx.stores` of a PostgreSQL
// transaction, every twin (stores/) built on that transaction's client, so every statement of the use
// case runs in it. Every store of `Stores` has its twin: the type below refuses a store left out.
import type { AsyncStores } from '../async-stores.ts';
import { PostgresApiKeysStore } from './stores/api-keys-store.ts';
import { PostgresCatalogueStore } from './stores/catalogue-store.ts';
import { PostgresCourierDeliveriesStore } from './stores/courier-deliveries-store.ts';
import { PostgresDueOrdersStore } from './stores/due-orders-store.ts';
import { PostgresEventsStore } from './stores/events-store.ts';
import { PostgresIdempotencyStore } from './stores/idempotency-store.ts';
import { PostgresKitchenChangesStore } from './stores/kitchen-changes-store.ts';
import { PostgresLocationBusyStore } from './stores/location-busy-store.ts';
import { PostgresLocationsStore } from './stores/locations-store.ts';
import { PostgresMailOutboxStore } from './stores/mail-outbox-store.ts';
import { PostgresOrdersStore } from './stores/orders-store.ts';
import { PostgresPaymentActionsStore } from './stores/payment-actions-store.ts';
import { PostgresPaymentCredentialsStore } from './stores/payment-credentials-store.ts';
import { PostgresPaymentSessionsStore } from './stores/payment-sessions-store.ts';
import { PostgresPickupScreenSettingsStore } from './stores/pickup-screen-settings-store.ts';
import { PostgresPrintersStore } from './stores/printers-store.ts';
import { PostgresRestaurantsStore } from './stores/restaurants-store.ts';
import { PostgresSoldOutStore } from './stores/sold-out-store.ts';
import { PostgresStockStore } from './stores/stock-store.ts';
import { PostgresBusyRefusalsStore } from './stores/busy-refusals-store.ts';
import { PostgresKitchenBoardStore } from './stores/kitchen-board-store.ts';
import { PostgresKitchenDataStore } from './stores/kitchen-data-store.ts';
import { PostgresKitchenDevicesStore } from './stores/kitchen-devices-store.ts';
import { PostgresKitchenReplayStore } from './stores/kitchen-replay-store.ts';
import { PostgresKitchenReportDaysStore } from './stores/kitchen-report-days-store.ts';
import { PostgresKitchenReportsStore } from './stores/kitchen-reports-store.ts';
import { PostgresKitchenTimingsStore } from './stores/kitchen-timings-store.ts';
import { PostgresMirrorStore } from './stores/mirror-store.ts';
import { PostgresPrintJobsStore } from './stores/print-jobs-store.ts';
import { PostgresRestaurantImportStore } from './stores/restaurant-import-store.ts';
import { PostgresSyncStore } from './stores/sync-store.ts';
import type { PostgresQueryable } from './stores/queryable.ts';

export interface PostgresStoresOptions {
  /** A replica's own orders get provisional numbers ('L'), as on SQLite (Stores). */
  orderNumberPrefix: string;
  /** Told of each event written, so the open transaction keeps whom to wake once it commits. */
  eventAppended: (restaurantId: string) => void;
}

type StoreName = keyof AsyncStores;
type Build<K extends StoreName> = (db: PostgresQueryable, options: PostgresStoresOptions) => AsyncStores[K];

/** Every store, by its name in `Stores` (stores.ts), and its twin. */
const STORES: { readonly [K in StoreName]: Build<K> } = {
  restaurants: (db, options) => new PostgresRestaurantsStore(db, options.orderNumberPrefix),
  restaurantImport: (db) => new PostgresRestaurantImportStore(db),
  locations: (db) => new PostgresLocationsStore(db),
  catalogue: (db) => new PostgresCatalogueStore(db),
  stock: (db) => new PostgresStockStore(db),
  soldOut: (db) => new PostgresSoldOutStore(db),
  orders: (db) => new PostgresOrdersStore(db),
  apiKeys: (db) => new PostgresApiKeysStore(db),
  events: (db, options) => new PostgresEventsStore(db, options.eventAppended),
  idempotency: (db) => new PostgresIdempotencyStore(db),
  sync: (db) => new PostgresSyncStore(db),
  mirror: (db) => new PostgresMirrorStore(db),
  kitchen: (db) => new PostgresKitchenBoardStore(db),
  kitchenData: (db) => new PostgresKitchenDataStore(db),
  paymentSessions: (db) => new PostgresPaymentSessionsStore(db),
  paymentCredentials: (db) => new PostgresPaymentCredentialsStore(db),
  paymentActions: (db) => new PostgresPaymentActionsStore(db),
  courierDeliveries: (db) => new PostgresCourierDeliveriesStore(db),
  mailOutbox: (db) => new PostgresMailOutboxStore(db),
  dueOrders: (db) => new PostgresDueOrdersStore(db),
  kitchenDevices: (db) => new PostgresKitchenDevicesStore(db),
  kitchenChanges: (db) => new PostgresKitchenChangesStore(db),
  printers: (db) => new PostgresPrintersStore(db),
  printJobs: (db) => new PostgresPrintJobsStore(db),
  pickupScreenSettings: (db) => new PostgresPickupScreenSettingsStore(db),
  kitchenTimings: (db) => new PostgresKitchenTimingsStore(db),
  locationBusy: (db) => new PostgresLocationBusyStore(db),
  kitchenReports: (db) => new PostgresKitchenReportsStore(db),
  kitchenReportDays: (db) => new PostgresKitchenReportDaysStore(db),
  busyRefusals: (db) => new PostgresBusyRefusalsStore(db),
  kitchenReplay: (db) => new PostgresKitchenReplayStore(db),
};

/** The stores of one transaction (or, for a read on its own, of the pool), all on `db`. */
export function postgresStores(db: PostgresQueryable, options: PostgresStoresOptions): AsyncStores {
  const stores: Partial<Record<StoreName, unknown>> = {};
  for (const name of Object.keys(STORES) as StoreName[]) stores[name] = STORES[name](db, options);
  return stores as AsyncStores;
}

