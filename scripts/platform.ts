// npm run platform -- up|down|status|backup [--dir DIR] [--async] [--backups] [--type full|diff|incr] [--base-port N] [--no-template] [--json]
// The high-availability layout on one machine (docs/platform-failover.md): three etcd members,
// three PostgreSQL 15 nodes under Patroni with one synchronous standby, HAProxy in front.
import { parseArgs } from 'node:util';
import { down, stillRunning } from './platform/down.ts';
import { readLayout } from './platform/layout.ts';
import { backup, backupRepository, type BackupType } from './platform/pgbackrest.ts';
import { postgresUser } from './platform/run-as.ts';
import { up } from './platform/up.ts';
import { formatStatus, status } from './platform/status.ts';

const USAGE = `usage: npm run platform -- up|down|status|backup [options]
  up       start three etcd members, three PostgreSQL 15 nodes under Patroni and HAProxy on loopback
           ports; prints the state folder, the write port and the figures (one JSON line with --json)
  status   members, leader, synchronous standby, lag, where HAProxy sends writes
  backup   a pgBackRest backup (from a standby) of a platform started with --backups
  down     stop everything the folder's platform started; nothing is left running
options:
  --dir DIR        the state folder (up: default a new one under the OS temp folder; down/status: required)
  --async          asynchronous replication (the failover tests' negative control; never for real use)
  --backups        up: WAL archiving to a pgBackRest repository in the state folder, stanza created
  --type T         backup: full (default), diff or incr
  --base-port N    ports N..N+13 instead of free ones the kernel picks
  --no-template    bootstrap with initdb instead of the cached template data directory
  --json           machine-readable output`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      dir: { type: 'string' },
      async: { type: 'boolean', default: false },
      backups: { type: 'boolean', default: false },
      type: { type: 'string', default: 'full' },
      'base-port': { type: 'string' },
      'no-template': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (command === 'up') {
    const basePort = values['base-port'] === undefined ? undefined : Number(values['base-port']);
    if (basePort !== undefined && (!Number.isInteger(basePort) || basePort < 1024 || basePort > 65_535 - 14)) throw new Error('--base-port: a port from 1024 to 65521');
    const result = await up({ dir: values.dir, replication: values.async ? 'asynchronous' : 'synchronous', basePort, noTemplate: values['no-template'], backups: values.backups });
    const summary = { dir: result.layout.dir, write_url: `postgres://comanda@127.0.0.1:${result.layout.haproxy.writePort}/comanda`, stats_url: `http://127.0.0.1:${result.layout.haproxy.statsPort}/`, ready_ms: Math.round(result.readyMs), template_ms: Math.round(result.templateMs) };
    if (values.json) console.log(JSON.stringify(summary));
    else {
      console.log(formatStatus(await status(result.layout.dir)));
      console.log(`ready in ${(result.readyMs / 1000).toFixed(1)} s; the application's password is in ${result.layout.dir}/secrets.json ("app")`);
      console.log(`stop it: npm run platform -- down --dir ${result.layout.dir}`);
    }
    return 0;
  }
  if (!values.dir) throw new Error(`${command}: --dir DIR is required (the folder \`up\` printed)`);
  if (command === 'status') {
    const state = await status(values.dir);
    console.log(values.json ? JSON.stringify(state) : formatStatus(state));
    return 0;
  }
  if (command === 'backup') {
    const layout = readLayout(values.dir);
    if (!layout.backups) throw new Error('backup: this platform was started without --backups (no WAL archiving)');
    if (!['full', 'diff', 'incr'].includes(values.type)) throw new Error('--type: full, diff or incr');
    const label = await backup(layout, postgresUser(), values.type as BackupType);
    console.log(values.json ? JSON.stringify({ label }) : `backup ${label} in ${backupRepository(layout)}`);
    return 0;
  }
  if (command === 'down') {
    const result = await down(values.dir);
    const left = stillRunning(values.dir);
    console.log(values.json ? JSON.stringify({ ...result, still_running: left.length }) : `stopped ${result.stopped} processes (${result.killed} with SIGKILL); still running: ${left.length}`);
    return left.length === 0 ? 0 : 1;
  }
  console.error(USAGE);
  return 2;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`platform: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
