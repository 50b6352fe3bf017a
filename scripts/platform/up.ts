// `npm run platform -- up`: starts the layout (three etcd members, three PostgreSQL nodes under
// Patroni, HAProxy) and returns once the cluster is whole (whole-cluster.ts: each replica streaming
// from the leader and, with synchronous replication, one of them its synchronous standby) and a write
// through HAProxy's write port succeeds.
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { APP_DATABASE, APP_ROLE, POSTGRES_BIN_DIR, etcdArguments, haproxyConfig, patroniConfig, type PlatformSecrets } from './configs.ts';
import { down } from './down.ts';
import { allocateLayout, dataDir, nodeDir, writeLayout, type PlatformLayout, type Replication } from './layout.ts';
import { pgbackrest, writePgbackrestFiles } from './pgbackrest.ts';
import { isAlive, recordedProcesses, startDetached } from './processes.ts';
import { startReaper } from './reaper.ts';
import { postgresUser } from './run-as.ts';
import { ensureTemplate, writeTemplateBootstrapScript } from './template.ts';
import { clusterState, notWholeBecause } from './whole-cluster.ts';
import { waitFor } from './wait.ts';

export interface UpOptions {
  dir?: string;
  replication?: Replication;
  basePort?: number;
  /** Bootstrap with initdb instead of the cached template (to measure what the template saves). */
  noTemplate?: boolean;
  /** WAL archiving to a pgBackRest repository in the state folder, its stanza created (backups and restores). */
  backups?: boolean;
  /**
   * Tie the platform to this process (tests): a reaper (reaper.ts) kills everything and removes the
   * state folder once this process is gone without having torn it down. Not for `npm run platform -- up`,
   * whose platform outlives the command.
   */
  reapWhenGone?: boolean;
}

export interface UpResult {
  layout: PlatformLayout;
  secrets: PlatformSecrets;
  /** Milliseconds from the start of `up` to a write through HAProxy. */
  readyMs: number;
  /** Of which: making the template (0 when it was cached). */
  templateMs: number;
}

const REQUIRED = [
  ['etcd', '/usr/bin/etcd'],
  ['patroni', '/usr/bin/patroni'],
  ['haproxy', '/usr/sbin/haproxy'],
  ['PostgreSQL 15', join(POSTGRES_BIN_DIR, 'postgres')],
  ['pgbackrest', '/usr/bin/pgbackrest'],
] as const;

export function missingPackages(): string[] {
  return REQUIRED.filter(([, path]) => !existsSync(path)).map(([name]) => name);
}

export const secretsFile = (dir: string) => join(dir, 'secrets.json');

/** The application's connection through HAProxy's write port. */
export function writeConnection(layout: PlatformLayout, secrets: PlatformSecrets, database = APP_DATABASE): pg.ClientConfig {
  return { host: layout.host, port: layout.haproxy.writePort, user: APP_ROLE, password: secrets.app, database, connectionTimeoutMillis: 5000 };
}

async function ask(config: pg.ClientConfig, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client(config);
  client.on('error', () => {}); // a connection cut by a failover surfaces as the query's error
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A start that fails part-way stops what it started, so that no test or try-out leaves processes behind. */
export async function up(options: UpOptions = {}): Promise<UpResult> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'comanda-platform-'));
  // Refused before anything starts, so that the clean-up below never stops a platform already there.
  if (recordedProcesses(dir).some(isAlive)) throw new Error(`a platform already runs in ${dir} (npm run platform -- down --dir ${dir})`);
  try {
    return await start({ ...options, dir });
  } catch (error) {
    if (existsSync(join(dir, 'layout.json'))) await down(dir).catch(() => {});
    throw error;
  }
}

async function start(options: UpOptions & { dir: string }): Promise<UpResult> {
  const started = performance.now();
  const missing = missingPackages();
  if (missing.length > 0) {
    throw new Error(`missing: ${missing.join(', ')}. Install Debian's packages: apt-get install -y patroni etcd-server etcd-client haproxy pgbackrest postgresql-15`);
  }
  const dir = options.dir;
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755); // PostgreSQL's user must reach its folders below
  if (options.reapWhenGone) startReaper(dir); // before anything starts, so that nothing escapes it
  const runAs = postgresUser();
  const layout: PlatformLayout = { ...(await allocateLayout(dir, options.replication ?? 'synchronous', options.basePort)), ...(options.backups ? { backups: true } : {}) };
  writeLayout(layout);
  if (layout.backups) writePgbackrestFiles(layout, runAs);
  const secret = () => randomBytes(24).toString('base64url');
  const secrets: PlatformSecrets = { superuser: secret(), replication: secret(), rewind: secret(), app: secret() };
  writeFileSync(secretsFile(dir), JSON.stringify(secrets), { mode: 0o600 });

  const templateStarted = performance.now();
  let templateBootstrapCommand: string | undefined;
  if (!options.noTemplate) templateBootstrapCommand = writeTemplateBootstrapScript(dir, ensureTemplate(runAs));
  const templateMs = performance.now() - templateStarted;

  const clusterToken = `comanda-${randomBytes(6).toString('hex')}`;
  for (const member of layout.etcd) {
    mkdirSync(join(dir, 'etcd'), { recursive: true });
    startDetached(dir, member.name, '/usr/bin/etcd', etcdArguments(layout, member.name, clusterToken));
  }
  await waitFor(
    async () => Promise.all(layout.etcd.map(async (member) => ((await (await fetch(`http://${layout.host}:${member.clientPort}/health`)).json()) as { health?: string }).health)),
    'the etcd members to be healthy',
    (healths) => healths.every((health) => health === 'true'),
  );

  for (const node of layout.nodes) {
    const folder = nodeDir(layout, node.name);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const configFile = join(folder, 'patroni.yml');
    writeFileSync(configFile, JSON.stringify(patroniConfig(layout, node, secrets, { templateBootstrapCommand }), null, 2), { mode: 0o600 });
    if (runAs) {
      chownSync(folder, runAs.uid, runAs.gid);
      chownSync(configFile, runAs.uid, runAs.gid);
    }
    startDetached(dir, node.name, '/usr/bin/patroni', [configFile], {
      runAs,
      cwd: folder,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder, LANG: 'C.UTF-8', PGDATA: dataDir(layout, node.name) },
    });
  }

  const haproxyFile = join(dir, 'haproxy.cfg');
  writeFileSync(haproxyFile, haproxyConfig(layout));
  startDetached(dir, 'haproxy', '/usr/sbin/haproxy', ['-f', haproxyFile, '-db']);

  const expected = { members: layout.nodes.length, synchronous: layout.replication === 'synchronous' };
  await waitFor(
    async () => notWholeBecause(await clusterState(layout, secrets), expected) ?? 'whole',
    expected.synchronous ? 'a leader, each replica streaming from it, one of them its synchronous standby' : 'a leader and each replica streaming from it',
    (reason) => reason === 'whole',
  );
  const superuser = { host: layout.host, port: layout.haproxy.writePort, user: 'postgres', password: secrets.superuser, database: 'postgres', connectionTimeoutMillis: 5000 };
  await waitFor(() => ask(superuser, 'SELECT pg_is_in_recovery() AS standby'), 'a writable node behind HAProxy', (result) => result.rows[0]?.standby === false);
  const existing = await ask(superuser, `SELECT 1 FROM pg_database WHERE datname = '${APP_DATABASE}'`);
  if (existing.rowCount === 0) await ask(superuser, `CREATE DATABASE ${APP_DATABASE} OWNER ${APP_ROLE}`);
  await ask(writeConnection(layout, secrets), 'SELECT 1');
  if (layout.backups) await pgbackrest(layout, runAs, ['stanza-create']);
  return { layout, secrets, readyMs: performance.now() - started, templateMs };
}
