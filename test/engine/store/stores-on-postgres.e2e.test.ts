// Every store's shared test body (contracts/) on PostgreSQL (issue 34): the platform's stores
// (src/engine/postgres/stores/) against the same lines SQLite's pass (stores-on-sqlite.test.ts).
// Each body gets a database of its own in this process's throwaway cluster. In the e2e tier, with
// the other PostgreSQL tests (the cluster's start is paid once per file).
import { after, before, describe } from 'node:test';
import { usePostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.ts';
import { STORE_CONTRACTS } from './contracts/index.ts';
import { openPostgresBackend } from './support/store-backends.ts';

// Held for the whole file: each body's hold alone would stop the server between bodies.
let cluster: PostgresCluster;
before(async () => {
  cluster = await usePostgresCluster();
});
after(() => cluster.release());

for (const [store, contract] of STORE_CONTRACTS) {
  describe(`${store} on PostgreSQL`, () => contract(openPostgresBackend));
}

// The same bodies on a database collated for Chile (ICU es-CL), where text sorts as a dictionary
// does ('a' < 'B'): the stores order and compare byte by byte (COLLATE "C"), as SQLite does.
for (const [store, contract] of STORE_CONTRACTS) {
  describe(`${store} on PostgreSQL collated es-CL`, () => contract(() => openPostgresBackend({ icuLocale: 'es-CL' })));
}
