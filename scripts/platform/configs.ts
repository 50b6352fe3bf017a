// The configuration files of the layout, as pure functions of it (checked by
// test/scripts/platform/configs.test.ts). Patroni reads YAML, of which JSON is a subset: its file is
// written with JSON.stringify, nothing hand-quoted.
import { join } from 'node:path';
import { dataDir, nodeDir, type DatabaseNode, type PlatformLayout } from './layout.ts';
import { archiveCommand } from './pgbackrest.ts';

export const POSTGRES_BIN_DIR = '/usr/lib/postgresql/15/bin';

export interface PlatformSecrets {
  superuser: string;
  replication: string;
  rewind: string;
  /** The application's role (what the engine nodes and the tests connect as). */
  app: string;
}

export const APP_ROLE = 'comanda';
export const APP_DATABASE = 'comanda';

/**
 * Timing: a dead leader's key expires after `ttl` and a replica takes it on its next loop, so an
 * unplanned failover takes at most about ttl + loop_wait (+ promotion). Patroni requires
 * loop_wait + 2 × retry_timeout ≤ ttl; on two busy cores a shorter ttl risks failovers nobody asked for.
 * loop_wait 1 s (not 2), Patroni's least: after a switch the new leader's commits wait for its
 * Patroni's first ordinary loop after the promotion, which sets its synchronous replication and makes
 * the standbys' replication slots (measured in round 10: writes resumed about two loop_waits after
 * the promotion, 0.1–0.3 s before the first standby streamed; docs/platform-failover.md).
 */
export const PATRONI_TIMING = { ttl: 15, loop_wait: 1, retry_timeout: 5 } as const;

export function etcdArguments(layout: PlatformLayout, name: string, clusterToken: string): string[] {
  const member = layout.etcd.find((candidate) => candidate.name === name);
  if (!member) throw new Error(`no etcd member ${name}`);
  const url = (port: number) => `http://${layout.host}:${port}`;
  return [
    `--name=${member.name}`,
    `--data-dir=${join(layout.dir, 'etcd', member.name)}`,
    `--listen-client-urls=${url(member.clientPort)}`,
    `--advertise-client-urls=${url(member.clientPort)}`,
    `--listen-peer-urls=${url(member.peerPort)}`,
    `--initial-advertise-peer-urls=${url(member.peerPort)}`,
    `--initial-cluster=${layout.etcd.map((other) => `${other.name}=${url(other.peerPort)}`).join(',')}`,
    '--initial-cluster-state=new',
    `--initial-cluster-token=${clusterToken}`,
    // etcd's defaults (100 ms, 1 s) make elections of their own on two busy cores.
    '--heartbeat-interval=250',
    '--election-timeout=2500',
    // A member that comes back (or was starved of CPU) asks the others before it calls an election,
    // instead of forcing a new term on a healthy leader: every etcd leader change renews every lease,
    // so elections in a row would keep a dead Patroni leader's key alive and delay the failover.
    '--pre-vote=true',
    '--log-level=warn',
  ];
}

export interface PatroniOptions {
  /** A script that copies a template data directory (Patroni's custom bootstrap); else initdb. */
  templateBootstrapCommand?: string;
}

export function patroniConfig(layout: PlatformLayout, node: DatabaseNode, secrets: PlatformSecrets, options: PatroniOptions = {}) {
  const synchronous = layout.replication === 'synchronous';
  const address = (port: number) => `${layout.host}:${port}`;
  return {
    scope: layout.scope,
    namespace: '/comanda/',
    name: node.name,
    log: { level: 'INFO', dir: nodeDir(layout, node.name), file_num: 2, file_size: 10_000_000 },
    restapi: { listen: address(node.restPort), connect_address: address(node.restPort) },
    etcd3: { hosts: layout.etcd.map((member) => address(member.clientPort)) },
    bootstrap: {
      dcs: {
        ...PATRONI_TIMING,
        // Only a replica this close to the leader may take over. With asynchronous replication (the
        // negative control) any replica may, so that the test sees what such a failover loses
        // instead of a cluster left without a leader.
        maximum_lag_on_failover: synchronous ? 1_048_576 : 1_073_741_824,
        synchronous_mode: synchronous,
        synchronous_node_count: 1,
        // A leader cut from etcd (an etcd member restarting, a busy machine: seen in CI) stays the
        // leader while it reaches every other member's Patroni, instead of demoting itself and
        // promoting itself again on a new timeline. Such a re-promotion writes /sync with no
        // synchronous standby and takes commits with none until its next loops name one; a leader
        // lost in those seconds leaves no replica Patroni may promote (docs/platform-failover.md).
        failsafe_mode: true,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: {
            // A commit returns once the synchronous standby has flushed it (never remote_apply:
            // it adds the standby's replay to every write and buys the write path nothing).
            synchronous_commit: 'on',
            wal_level: 'replica',
            hot_standby: 'on',
            wal_log_hints: 'on',
            max_wal_senders: 10,
            max_replication_slots: 10,
            wal_keep_size: '128MB',
            // A standby whose first try to stream from a new leader failed (its slot not made yet)
            // tries again after 250 ms, not PostgreSQL's 5 s: until it streams, commits wait for it
            // (the switchover's longest step, docs/platform-failover.md). A standby with no leader to
            // stream from costs one refused connection per try.
            wal_retrieve_retry_interval: '250ms',
            // With backups: every completed WAL segment goes to pgBackRest's repository, from the
            // leader only (a standby archives nothing with archive_mode on).
            ...(layout.backups ? { archive_mode: 'on' } : {}),
          },
        },
      },
      ...(options.templateBootstrapCommand
        ? { method: 'template', template: { command: options.templateBootstrapCommand, no_params: false } }
        : { initdb: [{ encoding: 'UTF8' }, 'data-checksums'] }),
      users: { [APP_ROLE]: { password: secrets.app, options: ['LOGIN', 'CREATEDB'] } },
    },
    postgresql: {
      listen: address(node.port),
      connect_address: address(node.port),
      data_dir: dataDir(layout, node.name),
      bin_dir: POSTGRES_BIN_DIR,
      pgpass: join(nodeDir(layout, node.name), 'pgpass'),
      use_unix_socket: true,
      authentication: {
        superuser: { username: 'postgres', password: secrets.superuser },
        replication: { username: 'replicator', password: secrets.replication },
        rewind: { username: 'rewinder', password: secrets.rewind },
      },
      parameters: {
        unix_socket_directories: nodeDir(layout, node.name),
        max_connections: 60,
        shared_buffers: '32MB',
        ...(layout.backups ? { archive_command: archiveCommand(layout, node.name) } : {}),
      },
      pg_hba: [
        'local all all peer',
        `host replication replicator ${layout.host}/32 scram-sha-256`,
        `host all all ${layout.host}/32 scram-sha-256`,
      ],
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
}

/**
 * HAProxy's checks of /primary: every 500 ms while up, every 200 ms while down or changing state; down
 * after two failures (one slow answer of a busy Patroni must not cut a healthy leader's sessions), up
 * after one success. A demoted leader is left within about 0.7 s (was 1.2 s with `inter 1s`).
 */
export const HAPROXY_CHECK_TIMING = 'inter 500ms fastinter 200ms downinter 200ms fall 2 rise 1';

/** HAProxy: one write port that reaches only the node whose Patroni answers 200 on /primary. */
export function haproxyConfig(layout: PlatformLayout): string {
  const servers = layout.nodes.map((node) => `  server ${node.name} ${layout.host}:${node.port} check port ${node.restPort}`);
  return [
    'global',
    '  maxconn 400',
    '',
    'defaults',
    '  mode tcp',
    '  timeout connect 2s',
    '  timeout client 30m',
    '  timeout server 30m',
    '  timeout check 2s',
    '',
    '# Writes: only the Patroni leader answers 200 on /primary; a node that stops being it is marked',
    '# down within two checks (about 0.7 s) and its sessions are cut, so no client keeps writing to a demoted node.',
    '# A node down (the new leader-to-be) is checked every 200 ms, and one that failed a check is checked',
    '# again after 200 ms: a switch is seen within about 0.2 s instead of up to 1–2 s (its share of the',
    "# switchover's 5 s, docs/platform-failover.md). Three nodes' checks at that rate cost nothing.",
    'listen write',
    `  bind ${layout.host}:${layout.haproxy.writePort}`,
    '  option httpchk GET /primary',
    '  http-check expect status 200',
    `  default-server ${HAPROXY_CHECK_TIMING} on-marked-down shutdown-sessions`,
    ...servers,
    '',
    '# The stats page (HTML at /, CSV at /;csv) and a health answer for a load balancer in front.',
    'listen stats',
    '  mode http',
    `  bind ${layout.host}:${layout.haproxy.statsPort}`,
    '  stats enable',
    '  stats uri /',
    '  stats refresh 2s',
    '  monitor-uri /health',
    '',
  ].join('\n');
}
