// Issue 34: the stores on both databases, for the shared test bodies (test/engine/store/contracts/):
// SQLite's stores on a file made by openDatabase (the engine's own start-up and migrations), and
// PostgreSQL's (src/engine/postgres/stores/) on a database of the test process's throwaway cluster
// (test/support/postgres-cluster.ts) migrated by migratePostgres. A body awaits every call, so the
// same lines serve SQLite's synchronous stores and PostgreSQL's asynchronous ones.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { migratePostgres } from '../../../../src/engine/postgres/migrate-postgres.ts';
import { createPostgresPool } from '../../../../src/engine/postgres/postgres-pool.ts';
import { runTransaction } from '../../../../src/engine/postgres/run-transaction.ts';
import { PostgresApiKeysStore } from '../../../../src/engine/postgres/stores/api-keys-store.ts';
import { PostgresCourierDeliveriesStore } from '../../../../src/engine/postgres/stores/courier-deliveries-store.ts';
import { PostgresDueOrdersStore } from '../../../../src/engine/postgres/stores/due-orders-store.ts';
import { PostgresKitchenChangesStore } from '../../../../src/engine/postgres/stores/kitchen-changes-store.ts';
import { PostgresPaymentCredentialsStore } from '../../../../src/engine/postgres/stores/payment-credentials-store.ts';
import { PostgresPickupScreenSettingsStore } from '../../../../src/engine/postgres/stores/pickup-screen-settings-store.ts';
import { PostgresMailOutboxStore } from '../../../../src/engine/postgres/stores/mail-outbox-store.ts';
import { PostgresPaymentSessionsStore } from '../../../../src/engine/postgres/stores/payment-sessions-store.ts';
import { PostgresLocationBusyStore } from '../../../../src/engine/postgres/stores/location-busy-store.ts';
import { PostgresPaymentActionsStore } from '../../../../src/engine/postgres/stores/payment-actions-store.ts';
import { PostgresPrintersStore } from '../../../../src/engine/postgres/stores/printers-store.ts';
import { PostgresCatalogueStore } from '../../../../src/engine/postgres/stores/catalogue-store.ts';
import { PostgresEventsStore } from '../../../../src/engine/postgres/stores/events-store.ts';
import { PostgresIdempotencyStore } from '../../../../src/engine/postgres/stores/idempotency-store.ts';
import { PostgresLocationsStore } from '../../../../src/engine/postgres/stores/locations-store.ts';
import { PostgresOrdersStore } from '../../../../src/engine/postgres/stores/orders-store.ts';
import type { PostgresQueryable } from '../../../../src/engine/postgres/stores/queryable.ts';
import { PostgresRestaurantsStore } from '../../../../src/engine/postgres/stores/restaurants-store.ts';
import { PostgresSoldOutStore } from '../../../../src/engine/postgres/stores/sold-out-store.ts';
import { PostgresStockStore } from '../../../../src/engine/postgres/stores/stock-store.ts';
import { ApiKeysStore } from '../../../../src/engine/store/api-keys-store.ts';
import { CatalogueStore } from '../../../../src/engine/store/catalogue-store.ts';
import { PrintersStore } from '../../../../src/engine/store/printers-store.ts';
import { LocationBusyStore } from '../../../../src/engine/store/location-busy-store.ts';
import { PaymentActionsStore } from '../../../../src/engine/store/payment-actions-store.ts';
import { MailOutboxStore } from '../../../../src/engine/store/mail-outbox-store.ts';
import { PaymentSessionsStore } from '../../../../src/engine/store/payment-sessions-store.ts';
import { CourierDeliveriesStore } from '../../../../src/engine/store/courier-deliveries-store.ts';
import { DueOrdersStore } from '../../../../src/engine/store/due-orders-store.ts';
import { KitchenChangesStore } from '../../../../src/engine/store/kitchen-changes-store.ts';
import { PaymentCredentialsStore } from '../../../../src/engine/store/payment-credentials-store.ts';
import { PickupScreenSettingsStore } from '../../../../src/engine/store/pickup-screen-settings-store.ts';
import { EventsStore } from '../../../../src/engine/store/events-store.ts';
import { IdempotencyStore } from '../../../../src/engine/store/idempotency-store.ts';
import { LocationsStore } from '../../../../src/engine/store/locations-store.ts';
import { openDatabase } from '../../../../src/engine/store/open-database.ts';
import { OrdersStore } from '../../../../src/engine/store/orders-store.ts';
import { RestaurantsStore } from '../../../../src/engine/store/restaurants-store.ts';
import { SoldOutStore } from '../../../../src/engine/store/sold-out-store.ts';
import { StockStore } from '../../../../src/engine/store/stock-store.ts';
import { PostgresKitchenBoardStore } from '../../../../src/engine/postgres/stores/kitchen-board-store.ts';
import { KitchenBoardStore } from '../../../../src/engine/store/kitchen-board-store.ts';
import { PostgresKitchenDataStore } from '../../../../src/engine/postgres/stores/kitchen-data-store.ts';
import { KitchenDataStore } from '../../../../src/engine/store/kitchen-data-store.ts';
import { PostgresKitchenDevicesStore } from '../../../../src/engine/postgres/stores/kitchen-devices-store.ts';
import { KitchenDevicesStore } from '../../../../src/engine/store/kitchen-devices-store.ts';
import { PostgresKitchenTimingsStore } from '../../../../src/engine/postgres/stores/kitchen-timings-store.ts';
import { KitchenTimingsStore } from '../../../../src/engine/store/kitchen-timings-store.ts';
import { PostgresPrintJobsStore } from '../../../../src/engine/postgres/stores/print-jobs-store.ts';
import { PrintJobsStore } from '../../../../src/engine/store/print-jobs-store.ts';
import { PostgresSyncStore } from '../../../../src/engine/postgres/stores/sync-store.ts';
import { SyncStore } from '../../../../src/engine/store/sync-store.ts';
import { PostgresMirrorStore } from '../../../../src/engine/postgres/stores/mirror-store.ts';
import { MirrorStore } from '../../../../src/engine/store/mirror-store.ts';
import { PostgresKitchenReportDaysStore } from '../../../../src/engine/postgres/stores/kitchen-report-days-store.ts';
import { KitchenReportDaysStore } from '../../../../src/engine/store/kitchen-report-days-store.ts';
import { PostgresBusyRefusalsStore } from '../../../../src/engine/postgres/stores/busy-refusals-store.ts';
import { BusyRefusalsStore } from '../../../../src/engine/store/busy-refusals-store.ts';
import { PostgresKitchenReplayStore } from '../../../../src/engine/postgres/stores/kitchen-replay-store.ts';
import { KitchenReplayStore } from '../../../../src/engine/store/kitchen-replay-store.ts';
import { PostgresKitchenReportsStore } from '../../../../src/engine/postgres/stores/kitchen-reports-store.ts';
import { KitchenReportsStore } from '../../../../src/engine/store/kitchen-reports-store.ts';
import { PostgresRestaurantImportStore } from '../../../../src/engine/postgres/stores/restaurant-import-store.ts';
import { RestaurantImportStore } from '../../../../src/engine/store/restaurant-import-store.ts';
import { usePostgresCluster, type PostgresCluster } from '../../../support/postgres-cluster.ts';
import type { Database } from 'better-sqlite3';

/** A store as a body sees it: every method may answer at once (SQLite) or by a Promise (PostgreSQL). */
export type EitherStore<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => infer R ? (...args: A) => R | Promise<Awaited<R>> : S[K];
};

export interface StoresUnderTest {
  orders: EitherStore<OrdersStore>;
  idempotency: EitherStore<IdempotencyStore>;
  events: EitherStore<EventsStore>;
  stock: EitherStore<StockStore>;
  apiKeys: EitherStore<ApiKeysStore>;
  restaurants: EitherStore<RestaurantsStore>;
  catalogue: EitherStore<CatalogueStore>;
  locations: EitherStore<LocationsStore>;
  soldOut: EitherStore<SoldOutStore>;
  kitchenChanges: EitherStore<KitchenChangesStore>;
  paymentCredentials: EitherStore<PaymentCredentialsStore>;
  pickupScreenSettings: EitherStore<PickupScreenSettingsStore>;
  dueOrders: EitherStore<DueOrdersStore>;
  courierDeliveries: EitherStore<CourierDeliveriesStore>;
  paymentSessions: EitherStore<PaymentSessionsStore>;
  mailOutbox: EitherStore<MailOutboxStore>;
  paymentActions: EitherStore<PaymentActionsStore>;
  locationBusy: EitherStore<LocationBusyStore>;
  printers: EitherStore<PrintersStore>;
  kitchenBoard: EitherStore<KitchenBoardStore>;
  kitchenData: EitherStore<KitchenDataStore>;
  kitchenDevices: EitherStore<KitchenDevicesStore>;
  kitchenTimings: EitherStore<KitchenTimingsStore>;
  printJobs: EitherStore<PrintJobsStore>;
  sync: EitherStore<SyncStore>;
  mirror: EitherStore<MirrorStore>;
  kitchenReportDays: EitherStore<KitchenReportDaysStore>;
  busyRefusals: EitherStore<BusyRefusalsStore>;
  kitchenReplay: EitherStore<KitchenReplayStore>;
  kitchenReports: EitherStore<KitchenReportsStore>;
  restaurantImport: EitherStore<RestaurantImportStore>;
}

export interface StoreBackend {
  kind: 'sqlite' | 'postgres';
  /** The stores outside any transaction (each statement its own). */
  stores: StoresUnderTest;
  /** The stores inside one transaction, committed when `work` resolves, rolled back when it throws. */
  transaction<T>(work: (stores: StoresUnderTest) => Promise<T>): Promise<T>;
  /** The restaurants the events stores were told of, in order (whom the engine wakes on commit). */
  appended: string[];
  /** Runs plain SQL, written for both (seeding). */
  exec(sql: string): Promise<void>;
  /** Reads rows directly (what a body checks), plain SQL written for both. */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  /** A bytes literal for this database's SQL, from hex. */
  bytes(hex: string): string;
  stop(): Promise<void>;
}

export type OpenBackend = () => Promise<StoreBackend>;

function sqliteStores(db: Database, appended: string[]): StoresUnderTest {
  return {
    orders: new OrdersStore(db),
    idempotency: new IdempotencyStore(db),
    events: new EventsStore(db, (restaurantId) => appended.push(restaurantId)),
    stock: new StockStore(db),
    apiKeys: new ApiKeysStore(db),
    restaurants: new RestaurantsStore(db),
    catalogue: new CatalogueStore(db),
    locations: new LocationsStore(db),
    soldOut: new SoldOutStore(db),
    kitchenChanges: new KitchenChangesStore(db),
    paymentCredentials: new PaymentCredentialsStore(db),
    pickupScreenSettings: new PickupScreenSettingsStore(db),
    dueOrders: new DueOrdersStore(db),
    courierDeliveries: new CourierDeliveriesStore(db),
    paymentSessions: new PaymentSessionsStore(db),
    mailOutbox: new MailOutboxStore(db),
    paymentActions: new PaymentActionsStore(db),
    locationBusy: new LocationBusyStore(db),
    printers: new PrintersStore(db),
    kitchenBoard: new KitchenBoardStore(db),
    kitchenData: new KitchenDataStore(db),
    kitchenDevices: new KitchenDevicesStore(db),
    kitchenTimings: new KitchenTimingsStore(db),
    printJobs: new PrintJobsStore(db),
    sync: new SyncStore(db),
    mirror: new MirrorStore(db),
    kitchenReportDays: new KitchenReportDaysStore(db),
    busyRefusals: new BusyRefusalsStore(db),
    kitchenReplay: new KitchenReplayStore(db),
    kitchenReports: new KitchenReportsStore(db),
    restaurantImport: new RestaurantImportStore(db),
  };
}

export async function openSqliteBackend(): Promise<StoreBackend> {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-stores-'));
  const db = openDatabase(join(dir, 'engine.db'));
  const appended: string[] = [];
  const stores = sqliteStores(db, appended);
  return {
    kind: 'sqlite',
    stores,
    appended,
    // As the engine's transaction does (BEGIN IMMEDIATE … COMMIT), on the one connection; a body runs one at a time.
    async transaction(work) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(stores);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    exec: async (sql) => void db.exec(sql),
    rows: async (sql) => db.prepare(sql).all() as Record<string, unknown>[],
    bytes: (hex) => `X'${hex}'`,
    stop: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresStores(db: PostgresQueryable, appended: string[]): StoresUnderTest {
  return {
    orders: new PostgresOrdersStore(db),
    idempotency: new PostgresIdempotencyStore(db),
    events: new PostgresEventsStore(db, (restaurantId) => appended.push(restaurantId)),
    stock: new PostgresStockStore(db),
    apiKeys: new PostgresApiKeysStore(db),
    restaurants: new PostgresRestaurantsStore(db),
    catalogue: new PostgresCatalogueStore(db),
    locations: new PostgresLocationsStore(db),
    soldOut: new PostgresSoldOutStore(db),
    kitchenChanges: new PostgresKitchenChangesStore(db),
    paymentCredentials: new PostgresPaymentCredentialsStore(db),
    pickupScreenSettings: new PostgresPickupScreenSettingsStore(db),
    dueOrders: new PostgresDueOrdersStore(db),
    courierDeliveries: new PostgresCourierDeliveriesStore(db),
    paymentSessions: new PostgresPaymentSessionsStore(db),
    mailOutbox: new PostgresMailOutboxStore(db),
    paymentActions: new PostgresPaymentActionsStore(db),
    locationBusy: new PostgresLocationBusyStore(db),
    printers: new PostgresPrintersStore(db),
    kitchenBoard: new PostgresKitchenBoardStore(db),
    kitchenData: new PostgresKitchenDataStore(db),
    kitchenDevices: new PostgresKitchenDevicesStore(db),
    kitchenTimings: new PostgresKitchenTimingsStore(db),
    printJobs: new PostgresPrintJobsStore(db),
    sync: new PostgresSyncStore(db),
    mirror: new PostgresMirrorStore(db),
    kitchenReportDays: new PostgresKitchenReportDaysStore(db),
    busyRefusals: new PostgresBusyRefusalsStore(db),
    kitchenReplay: new PostgresKitchenReplayStore(db),
    kitchenReports: new PostgresKitchenReportsStore(db),
    restaurantImport: new PostgresRestaurantImportStore(db),
  };
}

let databases = 0;

/**
 * A migrated database each body copies (CREATE DATABASE … TEMPLATE), per collation: the
 * migrations run once per process, not once per body. Its connections are closed (a template is
 * copied only while nobody is connected to it).
 */
const templates = new Map<string, Promise<string>>();

function migratedTemplate(cluster: PostgresCluster, icuLocale: string | undefined): Promise<string> {
  // Per cluster too: a file that let its cluster stop between bodies gets a new one, on another port.
  const key = `${cluster.port}/${icuLocale ?? ''}`;
  let template = templates.get(key);
  if (!template) {
    template = (async () => {
      const connectionString =
        icuLocale === undefined
          ? await cluster.createDatabase(`stores_${process.pid}_template`)
          : await createDatabaseFrom(
              `postgres://postgres@${cluster.host}:${cluster.port}/postgres`,
              `stores_${process.pid}_template_${icuLocale.toLowerCase().replace(/-/g, '_')}`,
              `TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${icuLocale}' LOCALE 'C.UTF-8'`,
            );
      const pool = createPostgresPool({ connectionString, max: 1, onError: () => {} });
      try {
        await migratePostgres(pool);
      } finally {
        await pool.end();
      }
      return connectionString;
    })();
    templates.set(key, template);
  }
  return template;
}

/**
 * `icuLocale`: the database's collation (say 'es-CL', as a platform's database may well be
 * created), where the cluster's own is C: what the stores' COLLATE "C" is for.
 */
export async function openPostgresBackend(options: { icuLocale?: string } = {}): Promise<StoreBackend & { pool: pg.Pool }> {
  if (options.icuLocale !== undefined && !/^[a-zA-Z-]+$/.test(options.icuLocale)) throw new Error(`not a locale: ${options.icuLocale}`);
  const cluster = await usePostgresCluster();
  const template = await migratedTemplate(cluster, options.icuLocale);
  const templateName = template.slice(template.lastIndexOf('/') + 1);
  const connectionString = await createDatabaseFrom(template, `stores_${process.pid}_${(databases += 1)}`, `TEMPLATE ${templateName}`);
  const errors: Error[] = [];
  const pool = createPostgresPool({ connectionString, max: 4, onError: (error) => errors.push(error) });
  const appended: string[] = [];
  return {
    kind: 'postgres',
    pool,
    stores: postgresStores(pool, appended),
    appended,
    // As a use case will run on the platform: one client, its stores built on it.
    transaction: (work) => runTransaction(pool, (client) => work(postgresStores(client, appended))),
    exec: async (sql) => void (await pool.query(sql)),
    rows: async (sql) => (await pool.query(sql)).rows as Record<string, unknown>[],
    bytes: (hex) => `'\\x${hex}'::bytea`,
    stop: async () => {
      await pool.end();
      // What the pool reported while the body ran (the cluster's stop afterwards ends connections too).
      const reported = [...errors];
      await cluster.release();
      if (reported.length > 0) throw new AggregateError(reported, 'the pool reported errors');
    },
  };
}

/** Creates database `name` (`how`: its template and collation) over a connection to another of the cluster. */
async function createDatabaseFrom(connectionString: string, name: string, how: string): Promise<string> {
  // The admin connection goes to the postgres database: a template must have no one connected.
  const admin = createPostgresPool({ connectionString: connectionString.replace(/\/[^/]+$/, '/postgres'), max: 1, onError: () => {} });
  try {
    await admin.query(`CREATE DATABASE ${name} ${how}`);
  } finally {
    await admin.end();
  }
  return connectionString.replace(/\/[^/]+$/, `/${name}`);
}

export const R1 = 'r-1';
export const R2 = 'r-2';
export const L1 = 'l-1';
export const L2 = 'l-2';

/** Two restaurants; r-1 with two locations, r-2 with one. Plain SQL both databases take. */
export const RESTAURANTS_SEED = `
  INSERT INTO restaurants (id, name, register_mode, created_at) VALUES ('${R1}', 'Uno', 'manual', 10), ('${R2}', 'Dos', 'schedule', 5);
  INSERT INTO locations (id, restaurant_id, name, address, position, is_active) VALUES
    ('${L1}', '${R1}', 'Centro', 'Calle 1', 1, 1), ('${L2}', '${R1}', 'Playa', 'Calle 2', 0, 0), ('l-3', '${R2}', 'Único', 'Calle 3', 0, 1);`;
