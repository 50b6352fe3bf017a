// PostgreSQL's migrations (issue 34), one list as for SQLite: TypeScript modules holding SQL, so they
// travel inside any bundle. Each version is applied once, in its own transaction.
import schemaOfSqlite0017 from './0001-schema-of-sqlite-0017.ts';
import restaurantClocks from './0002-restaurant-clocks.ts';
import reportIndexes from './0003-report-indexes.ts';
import heldItemsPromiseUpdates from './0004-held-items-promise-updates.ts';
import reportDays from './0005-report-days.ts';
import busyRefusals from './0006-busy-refusals.ts';
import issue31WorldAndProviders from './0007-issue31-world-and-providers.ts';
import issue34ReportDaysTriggers from './0008-issue34-report-days-triggers.ts';
import issue34PairingBucketTally from './0009-issue34-pairing-bucket-tally.ts';
import issue34CourierClaims from './0010-issue34-courier-claims.ts';
import issue32LineStarts from './0011-issue32-line-starts.ts';
import issue34ConfigVersion from './0012-issue34-config-version.ts';
import issue35HubKeys from './0013-issue35-hub-keys.ts';
import issue34SoldOutKept from './0014-issue34-sold-out-kept.ts';

/**
 * The SQLite schema version PostgreSQL's schema mirrors (0001 mirrors 0017; each later SQLite
 * migration has its twin here): the version an export reads.
 */
export const MIRRORED_SQLITE_VERSION = 25;

export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  { version: 1, name: 'schema-of-sqlite-0017', sql: schemaOfSqlite0017 },
  { version: 2, name: 'restaurant-clocks', sql: restaurantClocks },
  { version: 3, name: 'report-indexes (SQLite 0018)', sql: reportIndexes },
  { version: 4, name: 'held-items-promise-updates (SQLite 0019)', sql: heldItemsPromiseUpdates },
  { version: 5, name: 'report-days (SQLite 0020)', sql: reportDays },
  { version: 6, name: 'busy-refusals (SQLite 0021, issue 33)', sql: busyRefusals },
  { version: 7, name: 'issue31-world-and-providers (SQLite 0022, issue 31)', sql: issue31WorldAndProviders },
  { version: 8, name: 'issue34-report-days-triggers (SQLite 0020\'s triggers, issue 34)', sql: issue34ReportDaysTriggers },
  { version: 9, name: 'issue34-pairing-bucket-tally (PostgreSQL only, issue 34)', sql: issue34PairingBucketTally },
  { version: 10, name: 'issue34-courier-claims (SQLite 0023, issue 34)', sql: issue34CourierClaims },
  { version: 11, name: 'issue32-line-starts (SQLite 0024, issue 32)', sql: issue32LineStarts },
  { version: 12, name: 'issue34-config-version (PostgreSQL only, issue 34)', sql: issue34ConfigVersion },
  { version: 13, name: 'issue35-hub-keys (SQLite 0025, issue 35)', sql: issue35HubKeys },
  { version: 14, name: 'issue34-sold-out-kept (PostgreSQL only, issue 34)', sql: issue34SoldOutKept },
];
