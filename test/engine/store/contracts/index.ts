// Every store's shared test body, by store: what both runners run (stores-on-sqlite.test.ts, in the
// fast tier, and stores-on-postgres.e2e.test.ts). A store listed here has its PostgreSQL twin in
// src/engine/postgres/stores/; docs/running-the-platform.md lists which stores have one.
import type { OpenBackend } from '../support/store-backends.ts';
import { ordersStoreContract } from './orders-store.contract.ts';

export const STORE_CONTRACTS: readonly [string, (open: OpenBackend) => void][] = [
  ['OrdersStore', ordersStoreContract],
];
