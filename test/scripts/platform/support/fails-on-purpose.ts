// Run by leaves-nothing.e2e.test.ts in a child test runner, never on its own: a platform test that
// fails on purpose in the middle of its scenario (the platform up, two serve nodes taking orders),
// and whose teardown never runs (no after hook: as a runner killed by a CI timeout, or one whose
// hooks were skipped). What cleans up is what a real failure leaves to: the engine nodes' exit hook
// and the state folder's reaper. It prints the folder for the parent to check.
import { test } from 'node:test';
import { APP_DATABASE, APP_ROLE } from '../../../../scripts/platform/configs.ts';
import { up } from '../../../../scripts/platform/up.ts';
import { migratePostgres } from '../../../../src/engine/postgres/migrate-postgres.ts';
import { createPostgresPool } from '../../../../src/engine/postgres/postgres-pool.ts';
import { engineNodesUnderLoad } from './engine-nodes-under-load.ts';

test('a failover scenario that fails in the middle, its teardown skipped', async (t) => {
  const { layout, secrets } = await up({ reapWhenGone: true, replication: 'synchronous' });
  console.log(`PLATFORM_DIR=${layout.dir}`);
  const connectionString = `postgres://${APP_ROLE}:${encodeURIComponent(secrets.app)}@${layout.host}:${layout.haproxy.writePort}/${APP_DATABASE}`;
  const admin = createPostgresPool({ connectionString, max: 2, onError: () => {} });
  await migratePostgres(admin);
  await engineNodesUnderLoad({
    layout,
    admin,
    label: 'fails-on-purpose',
    clock: () => performance.now(),
    ordersAroundTheFault: 4,
    recoveryTimeoutMs: 60_000,
    signal: t.signal,
    database: { url: `postgres://${APP_ROLE}@${layout.host}:${layout.haproxy.writePort}/${APP_DATABASE}`, password: secrets.app },
    fault: {
      inject: async () => {
        console.log('FAILING_ON_PURPOSE');
        throw new Error('fails on purpose, with two serve nodes taking orders');
      },
    },
  });
});
