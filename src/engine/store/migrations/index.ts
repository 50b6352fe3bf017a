// Migrations are TypeScript modules holding SQL so that they travel inside any bundle (the Electron
// main process is bundled; a directory of .sql files would not follow it).
import initial from './0001-initial.ts';
import replica from './0002-replica.ts';
import paymentsCouriersMail from './0003-payments-couriers-mail.ts';
import kitchenData from './0004-kitchen-data.ts';
import kitchenDevices from './0005-kitchen-devices.ts';
import paymentOpening from './0006-payment-opening.ts';
import kitchenChanges from './0007-kitchen-changes.ts';
import conflictResolution from './0008-conflict-resolution.ts';
import paymentProviders from './0009-payment-providers.ts';
import pairingGuard from './0010-pairing-guard.ts';
import paymentRefunds from './0011-payment-refunds.ts';
import printJobs from './0012-print-jobs.ts';
import pickupScreenSettings from './0013-pickup-screen-settings.ts';
import printJobRetention from './0014-print-job-retention.ts';
import printJobsSetAside from './0015-print-jobs-set-aside.ts';
import soldOut from './0016-sold-out.ts';
import kitchenPromises from './0017-kitchen-promises.ts';
import reportIndexes from './0018-report-indexes.ts';
import heldItemsPromiseUpdates from './0019-held-items-promise-updates.ts';
import issue33ReportDays from './0020-issue33-report-days.ts';
import issue33BusyRefusals from './0021-issue33-busy-refusals.ts';
import issue31WorldAndProviders from './0022-issue31-world-and-providers.ts';
import issue34CourierClaims from './0023-issue34-courier-claims.ts';
import issue32LineStarts from './0024-issue32-line-starts.ts';
import issue35HubKeys from './0025-issue35-hub-keys.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'replica', sql: replica },
  { version: 3, name: 'payments-couriers-mail', sql: paymentsCouriersMail },
  { version: 4, name: 'kitchen-data', sql: kitchenData },
  { version: 5, name: 'kitchen-devices', sql: kitchenDevices },
  { version: 6, name: 'payment-opening', sql: paymentOpening },
  { version: 7, name: 'kitchen-changes', sql: kitchenChanges },
  { version: 8, name: 'conflict-resolution', sql: conflictResolution },
  { version: 9, name: 'payment-providers', sql: paymentProviders },
  { version: 10, name: 'pairing-guard', sql: pairingGuard },
  { version: 11, name: 'payment-refunds', sql: paymentRefunds },
  { version: 12, name: 'print-jobs', sql: printJobs },
  { version: 13, name: 'pickup-screen-settings', sql: pickupScreenSettings },
  { version: 14, name: 'print-job-retention', sql: printJobRetention },
  { version: 15, name: 'print-jobs-set-aside', sql: printJobsSetAside },
  { version: 16, name: 'sold-out', sql: soldOut },
  { version: 17, name: 'kitchen-promises', sql: kitchenPromises },
  { version: 18, name: 'report-indexes', sql: reportIndexes },
  { version: 19, name: 'held-items-promise-updates', sql: heldItemsPromiseUpdates },
  { version: 20, name: 'issue33-report-days', sql: issue33ReportDays },
  { version: 21, name: 'issue33-busy-refusals', sql: issue33BusyRefusals },
  { version: 22, name: 'issue31-world-and-providers', sql: issue31WorldAndProviders },
  { version: 23, name: 'issue34-courier-claims', sql: issue34CourierClaims },
  { version: 24, name: 'issue32-line-starts', sql: issue32LineStarts },
  { version: 25, name: 'issue35-hub-keys', sql: issue35HubKeys },
];
