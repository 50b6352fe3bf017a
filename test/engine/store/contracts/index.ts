// Every store's shared test body, by store: what both runners run (stores-on-sqlite.test.ts, in the
// fast tier, and stores-on-postgres.e2e.test.ts). A store listed here has its PostgreSQL twin in
// src/engine/postgres/stores/; docs/running-the-platform.md lists which stores have one.
import type { OpenBackend } from '../support/store-backends.ts';
import { apiKeysStoreContract } from './api-keys-store.contract.ts';
import { catalogueStoreContract } from './catalogue-store.contract.ts';
import { courierDeliveriesStoreContract } from './courier-deliveries-store.contract.ts';
import { eventsStoreContract } from './events-store.contract.ts';
import { idempotencyStoreContract } from './idempotency-store.contract.ts';
import { kitchenBoardStoreContract } from './kitchen-board-store.contract.ts';
import { kitchenDataStoreContract } from './kitchen-data-store.contract.ts';
import { kitchenDevicesStoreContract } from './kitchen-devices-store.contract.ts';
import { kitchenTimingsStoreContract } from './kitchen-timings-store.contract.ts';
import { printJobsStoreContract } from './print-jobs-store.contract.ts';
import { mirrorStoreContract } from './mirror-store.contract.ts';
import { syncStoreContract } from './sync-store.contract.ts';
import { busyRefusalsStoreContract, kitchenReplayStoreContract, kitchenReportDaysStoreContract } from './report-stores.contract.ts';
import { kitchenReportsStoreContract } from './kitchen-reports-store.contract.ts';
import { restaurantImportStoreContract } from './restaurant-import-store.contract.ts';
import { locationsStoreContract } from './locations-store.contract.ts';
import { mailOutboxStoreContract } from './mail-outbox-store.contract.ts';
import { ordersStoreContract } from './orders-store.contract.ts';
import { paymentActionsStoreContract } from './payment-actions-store.contract.ts';
import { paymentSessionsStoreContract } from './payment-sessions-store.contract.ts';
import { restaurantsStoreContract } from './restaurants-store.contract.ts';
import {
  dueOrdersStoreContract, kitchenChangesStoreContract, locationBusyStoreContract, printersStoreContract, paymentCredentialsStoreContract, pickupScreenSettingsStoreContract,
} from './small-stores.contract.ts';
import { soldOutStoreContract } from './sold-out-store.contract.ts';
import { stockStoreContract } from './stock-store.contract.ts';
import { whereDatabasesDifferContract } from './where-databases-differ.contract.ts';

export const STORE_CONTRACTS: readonly [string, (open: OpenBackend) => void][] = [
  ['OrdersStore', ordersStoreContract],
  ['IdempotencyStore', idempotencyStoreContract],
  ['EventsStore', eventsStoreContract],
  ['StockStore', stockStoreContract],
  ['ApiKeysStore', apiKeysStoreContract],
  ['RestaurantsStore', restaurantsStoreContract],
  ['CatalogueStore', catalogueStoreContract],
  ['LocationsStore', locationsStoreContract],
  ['SoldOutStore', soldOutStoreContract],
  ['KitchenChangesStore', kitchenChangesStoreContract],
  ['PaymentCredentialsStore', paymentCredentialsStoreContract],
  ['PickupScreenSettingsStore', pickupScreenSettingsStoreContract],
  ['DueOrdersStore', dueOrdersStoreContract],
  ['CourierDeliveriesStore', courierDeliveriesStoreContract],
  ['PaymentSessionsStore', paymentSessionsStoreContract],
  ['MailOutboxStore', mailOutboxStoreContract],
  ['PaymentActionsStore', paymentActionsStoreContract],
  ['LocationBusyStore', locationBusyStoreContract],
  ['PrintersStore', printersStoreContract],
  ['KitchenBoardStore', kitchenBoardStoreContract],
  ['KitchenDataStore', kitchenDataStoreContract],
  ['KitchenDevicesStore', kitchenDevicesStoreContract],
  ['KitchenTimingsStore', kitchenTimingsStoreContract],
  ['PrintJobsStore', printJobsStoreContract],
  ['SyncStore', syncStoreContract],
  ['MirrorStore', mirrorStoreContract],
  ['KitchenReportDaysStore', kitchenReportDaysStoreContract],
  ['BusyRefusalsStore', busyRefusalsStoreContract],
  ['KitchenReplayStore', kitchenReplayStoreContract],
  ['KitchenReportsStore', kitchenReportsStoreContract],
  ['RestaurantImportStore', restaurantImportStoreContract],
  ['Where the databases differ', whereDatabasesDifferContract],
];
