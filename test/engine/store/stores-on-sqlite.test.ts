// Every store's shared test body (contracts/) on SQLite, the hub's database; the same bodies run on
// PostgreSQL in stores-on-postgres.e2e.test.ts (issue 34).
import { describe } from 'node:test';
import { STORE_CONTRACTS } from './contracts/index.ts';
import { openSqliteBackend } from './support/store-backends.ts';

for (const [store, contract] of STORE_CONTRACTS) {
  describe(`${store} on SQLite`, () => contract(openSqliteBackend));
}
