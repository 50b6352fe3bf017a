import type { Database } from 'better-sqlite3';
import { ApiKeysStore } from './store/api-keys-store.ts';
import { CatalogueStore } from './store/catalogue-store.ts';
import { CourierDeliveriesStore } from './store/courier-deliveries-store.ts';
import { DueOrdersStore } from './store/due-orders-store.ts';
import { EventsStore } from './store/events-store.ts';
import { IdempotencyStore } from './store/idempotency-store.ts';
import { KitchenBoardStore } from './store/kitchen-board-store.ts';
import { KitchenChangesStore } from './store/kitchen-changes-store.ts';
import { KitchenDataStore } from './store/kitchen-data-store.ts';
import { KitchenDevicesStore } from './store/kitchen-devices-store.ts';
import { KitchenReportDaysStore } from './store/kitchen-report-days-store.ts';
import { BusyRefusalsStore } from './store/busy-refusals-store.ts';
import { KitchenReportsStore } from './store/kitchen-reports-store.ts';
import { KitchenReplayStore } from './store/kitchen-replay-store.ts';
import { KitchenTimingsStore, type KitchenLineWrite } from './store/kitchen-timings-store.ts';
import { LocationBusyStore } from './store/location-busy-store.ts';
import { LocationsStore } from './store/locations-store.ts';
import { MailOutboxStore } from './store/mail-outbox-store.ts';
import { MirrorStore } from './store/mirror-store.ts';
import { OrdersStore } from './store/orders-store.ts';
import { PaymentActionsStore } from './store/payment-actions-store.ts';
import { PaymentCredentialsStore } from './store/payment-credentials-store.ts';
import { PickupScreenSettingsStore } from './store/pickup-screen-settings-store.ts';
import { PrintersStore } from './store/printers-store.ts';
import { PrintJobsStore } from './store/print-jobs-store.ts';
import { PaymentSessionsStore } from './store/payment-sessions-store.ts';
import { RestaurantImportStore } from './store/restaurant-import-store.ts';
import { RestaurantsStore } from './store/restaurants-store.ts';
import { SoldOutStore } from './store/sold-out-store.ts';
import { StockStore } from './store/stock-store.ts';
import { SyncStore } from './store/sync-store.ts';

/**
 * The SQLite gateways of one database, each preparing its statements once, here. Reached by the
 * services (never a door: eslint.config.js) as `tx.stores.<name>` or `engine.stores.<name>`; a new
 * store gets its field here.
 */
export class Stores {
  readonly restaurants: RestaurantsStore;
  /** A restaurant file's rows, written once (services/restaurants/import-restaurant.ts). */
  readonly restaurantImport: RestaurantImportStore;
  readonly locations: LocationsStore;
  readonly catalogue: CatalogueStore;
  readonly stock: StockStore;
  /** The per-location "agotado" marks (services/menu/sold-out.ts). */
  readonly soldOut: SoldOutStore;
  /** Every write to the `orders` table goes through it. */
  readonly orders: OrdersStore;
  readonly apiKeys: ApiKeysStore;
  readonly events: EventsStore;
  readonly idempotency: IdempotencyStore;
  readonly sync: SyncStore;
  readonly mirror: MirrorStore;
  readonly kitchen: KitchenBoardStore;
  /** Item bumps, recalls, channels and the restaurant file's kitchen settings. */
  readonly kitchenData: KitchenDataStore;
  readonly paymentSessions: PaymentSessionsStore;
  /** Restaurants' payment provider credentials (never logged, never answered). */
  readonly paymentCredentials: PaymentCredentialsStore;
  /** Payment intents: payments to read, refunds to make (services/payments/payment-actions.ts). */
  readonly paymentActions: PaymentActionsStore;
  readonly courierDeliveries: CourierDeliveriesStore;
  readonly mailOutbox: MailOutboxStore;
  readonly dueOrders: DueOrdersStore;
  readonly kitchenDevices: KitchenDevicesStore;
  /** Kitchen screens' change keys already applied (services/kitchen/kitchen-changes.ts). */
  readonly kitchenChanges: KitchenChangesStore;
  /** Kitchen printers and their print jobs (services/printing/print-jobs.ts). */
  readonly printers: PrintersStore;
  readonly printJobs: PrintJobsStore;
  /** The pickup screen's privacy choices (services/kitchen/pickup-screen-settings.ts). */
  readonly pickupScreenSettings: PickupScreenSettingsStore;
  /** The item timing log, open lines, learned prep times, cooks on shift and promises (issue 32). */
  readonly kitchenTimings: KitchenTimingsStore;
  /** Busy mode per location and the store-front keys it refuses (issue 32). */
  readonly locationBusy: LocationBusyStore;
  /** What the reports read by time (issue 33, services/reports/kitchen-report.ts). */
  readonly kitchenReports: KitchenReportsStore;
  readonly kitchenReportDays: KitchenReportDaysStore;
  readonly busyRefusals: BusyRefusalsStore;
  readonly kitchenReplay: KitchenReplayStore;

  /**
   * `orderNumberPrefix`: a replica's own orders get provisional numbers ('L'). `eventAppended`: told
   * of each event written, so the open transaction (not a store) keeps whom to wake on commit.
   * `kitchenLinesWritten`: told of each write to the lines open or held at the stations, likewise
   * kept by the open transaction until it commits (the kept kitchen load follows them).
   */
  constructor(
    db: Database,
    orderNumberPrefix: string,
    eventAppended: (restaurantId: string) => void = () => {},
    kitchenLinesWritten: (write: KitchenLineWrite) => void = () => {},
  ) {
    this.restaurants = new RestaurantsStore(db, orderNumberPrefix);
    this.restaurantImport = new RestaurantImportStore(db);
    this.locations = new LocationsStore(db);
    this.catalogue = new CatalogueStore(db);
    this.stock = new StockStore(db);
    this.soldOut = new SoldOutStore(db);
    this.orders = new OrdersStore(db);
    this.apiKeys = new ApiKeysStore(db);
    this.events = new EventsStore(db, eventAppended);
    this.idempotency = new IdempotencyStore(db);
    this.sync = new SyncStore(db);
    this.mirror = new MirrorStore(db);
    this.kitchen = new KitchenBoardStore(db);
    this.kitchenData = new KitchenDataStore(db);
    this.paymentSessions = new PaymentSessionsStore(db);
    this.paymentCredentials = new PaymentCredentialsStore(db);
    this.paymentActions = new PaymentActionsStore(db);
    this.courierDeliveries = new CourierDeliveriesStore(db);
    this.mailOutbox = new MailOutboxStore(db);
    this.dueOrders = new DueOrdersStore(db);
    this.kitchenDevices = new KitchenDevicesStore(db);
    this.kitchenChanges = new KitchenChangesStore(db);
    this.printers = new PrintersStore(db);
    this.pickupScreenSettings = new PickupScreenSettingsStore(db);
    this.printJobs = new PrintJobsStore(db);
    this.kitchenTimings = new KitchenTimingsStore(db, kitchenLinesWritten);
    this.locationBusy = new LocationBusyStore(db);
    this.kitchenReports = new KitchenReportsStore(db);
    this.kitchenReportDays = new KitchenReportDaysStore(db);
    this.busyRefusals = new BusyRefusalsStore(db);
    this.kitchenReplay = new KitchenReplayStore(db);
  }
}
