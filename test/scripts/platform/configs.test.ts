// The platform's configuration as its files say it (issue 35): synchronous replication with one
// synchronous standby and synchronous_commit on (never remote_apply), Patroni's timing within its
// own rule, HAProxy sending writes only where Patroni answers /primary; and the small parsers the
// platform reads Patroni and HAProxy with.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PATRONI_TIMING, etcdArguments, haproxyConfig, patroniConfig } from '../../../scripts/platform/configs.ts';
import { allocateLayout } from '../../../scripts/platform/layout.ts';
import { parseCluster } from '../../../scripts/platform/patroni-rest.ts';
import { pgbackrestConfig, pgbackrestConfigFile } from '../../../scripts/platform/pgbackrest.ts';
import { upServersFromStatsCsv } from '../../../scripts/platform/status.ts';
import { isRetried, longestGap, switchGap } from '../../support/order-writers.ts';

const secrets = { superuser: 's'.repeat(32), replication: 'r'.repeat(32), rewind: 'w'.repeat(32), app: 'a'.repeat(32) };

test('the layout: fourteen distinct loopback ports, three of each member, each node beside its etcd member', async () => {
  const layout = await allocateLayout('/tmp/x', 'synchronous');
  const ports = [...layout.etcd.flatMap((member) => [member.clientPort, member.peerPort]), ...layout.nodes.flatMap((node) => [node.port, node.restPort]), layout.haproxy.writePort, layout.haproxy.statsPort];
  assert.equal(new Set(ports).size, 14);
  assert.deepEqual(layout.nodes.map((node) => node.etcd), ['etcd1', 'etcd2', 'etcd3']);
  const fixed = await allocateLayout('/tmp/x', 'synchronous', 20_000);
  assert.equal(fixed.haproxy.statsPort, 20_013);
});

test('Patroni: synchronous mode with one synchronous standby, synchronous_commit on, timing within Patroni’s rule', async () => {
  const layout = await allocateLayout('/tmp/x', 'synchronous', 20_000);
  const config = patroniConfig(layout, layout.nodes[0]!, secrets);
  const dcs = config.bootstrap.dcs;
  assert.equal(dcs.synchronous_mode, true);
  assert.equal(dcs.synchronous_node_count, 1);
  // A leader cut from etcd stays the leader while it reaches the other members (no self-demotion and re-promotion).
  assert.equal(dcs.failsafe_mode, true);
  assert.equal(dcs.postgresql.parameters.synchronous_commit, 'on');
  assert.doesNotMatch(JSON.stringify(config), /remote_apply/);
  assert.ok(PATRONI_TIMING.loop_wait + 2 * PATRONI_TIMING.retry_timeout <= PATRONI_TIMING.ttl);
  // After a switch, commits wait for a standby to stream from the new leader: each loop and retry of that is short.
  assert.equal(PATRONI_TIMING.loop_wait, 1);
  assert.equal(dcs.postgresql.parameters.wal_retrieve_retry_interval, '250ms');
  assert.deepEqual(config.etcd3.hosts, layout.etcd.map((member) => `127.0.0.1:${member.clientPort}`));
  assert.ok(config.postgresql.pg_hba.every((line) => !/\btrust\b/.test(line)), 'no trust authentication');
  assert.ok('initdb' in config.bootstrap, 'without a template: initdb');
  const templated = patroniConfig(layout, layout.nodes[0]!, secrets, { templateBootstrapCommand: '/tmp/x/bootstrap-from-template.sh' });
  assert.equal((templated.bootstrap as { method?: string }).method, 'template');
  const asynchronous = patroniConfig(await allocateLayout('/tmp/x', 'asynchronous', 20_000), layout.nodes[0]!, secrets);
  assert.equal(asynchronous.bootstrap.dcs.synchronous_mode, false);
});

test('etcd: a three-member cluster on loopback', async () => {
  const layout = await allocateLayout('/tmp/x', 'synchronous', 20_000);
  const args = etcdArguments(layout, 'etcd2', 'token');
  assert.ok(args.includes('--initial-cluster=etcd1=http://127.0.0.1:20001,etcd2=http://127.0.0.1:20003,etcd3=http://127.0.0.1:20005'));
  assert.ok(args.includes('--listen-client-urls=http://127.0.0.1:20002'));
  assert.ok(args.includes('--pre-vote=true'), 'a member that comes back asks before it calls an election');
});

test('HAProxy: writes go only where Patroni answers 200 on /primary, to the node’s PostgreSQL port, checked on its REST port', async () => {
  const layout = await allocateLayout('/tmp/x', 'synchronous', 20_000);
  const config = haproxyConfig(layout);
  assert.match(config, /option httpchk GET \/primary/);
  assert.match(config, /http-check expect status 200/);
  assert.match(config, /on-marked-down shutdown-sessions/);
  // A switch is seen within a fifth of a second: the new leader, down until then, is checked every 200 ms and taken on one success;
  // the old one, checked every 500 ms while up, is left after two failures.
  assert.match(config, /default-server inter 500ms fastinter 200ms downinter 200ms fall 2 rise 1 /);
  for (const node of layout.nodes) assert.match(config, new RegExp(`server ${node.name} 127\\.0\\.0\\.1:${node.port} check port ${node.restPort}`));
  assert.match(config, new RegExp(`bind 127\\.0\\.0\\.1:${layout.haproxy.writePort}`));
});

test('Patroni’s /cluster answer is parsed strictly', () => {
  const members = parseCluster({ members: [{ name: 'pg1', role: 'leader', state: 'running', timeline: 1 }, { name: 'pg2', role: 'sync_standby', state: 'streaming', lag: 0 }] });
  assert.deepEqual(members.map((member) => member.role), ['leader', 'sync_standby']);
  assert.throws(() => parseCluster({ members: [{ name: 'pg1', role: 'boss', state: 'running' }] }), /not understood/);
  assert.throws(() => parseCluster({}), /without members/);
});

test('HAProxy’s stats CSV: the write servers it has UP', () => {
  const csv = '# pxname,svname,qcur,status\nwrite,FRONTEND,,OPEN\nwrite,pg1,0,DOWN\nwrite,pg2,0,UP\nwrite,BACKEND,0,UP\nstats,FRONTEND,,OPEN\n';
  assert.deepEqual(upServersFromStatsCsv(csv), ['pg2']);
});

test('the writers retry what a failover brings and nothing else', () => {
  assert.equal(isRetried(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })), '57P01');
  assert.equal(isRetried(Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' })), '25006');
  assert.equal(isRetried(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })), 'ECONNREFUSED');
  assert.ok(isRetried(new Error('Connection terminated unexpectedly')));
  assert.equal(isRetried(Object.assign(new Error('duplicate key'), { code: '23505' })), undefined);
  assert.equal(isRetried(Object.assign(new Error('syntax error'), { code: '42601' })), undefined);
});

test('the unavailable window: the longest time without an acknowledged write from the fault on; the switch from one node to another', () => {
  const acks = [
    { key: 'a', at: 100, serverPort: 1 },
    { key: 'b', at: 1000, serverPort: 1 },
    { key: 'c', at: 1200, serverPort: 1 },
    { key: 'd', at: 9200, serverPort: 2 },
    { key: 'e', at: 9300, serverPort: 2 },
  ];
  assert.equal(longestGap(acks, 1100), 8000);
  assert.equal(longestGap(acks, 1250), 7950);
  assert.equal(longestGap([], 0), Number.POSITIVE_INFINITY);
  assert.equal(switchGap(acks, 1100), 8000);
  assert.equal(switchGap(acks.slice(0, 3), 1100), undefined);
});

test('pgBackRest: with backups, every node archives to the one repository, naming its own data folder; the stanza knows the three nodes', async () => {
  const layout = { ...(await allocateLayout('/tmp/x', 'synchronous', 20_000)), backups: true };
  for (const node of layout.nodes) {
    const config = patroniConfig(layout, node, secrets);
    assert.equal(config.bootstrap.dcs.postgresql.parameters.archive_mode, 'on');
    const command = (config.postgresql.parameters as { archive_command?: string }).archive_command ?? '';
    assert.match(command, /archive-push "%p"$/);
    assert.ok(command.includes(`--pg1-path=/tmp/x/${node.name}/data `), `${node.name} archives from its own data folder`);
    assert.ok(command.includes(`--config=${pgbackrestConfigFile(layout)}`));
  }
  const ini = pgbackrestConfig(layout);
  assert.match(ini, /^\[comanda\]$/m);
  assert.match(ini, /^backup-standby=y$/m);
  for (const [index, node] of layout.nodes.entries()) {
    assert.match(ini, new RegExp(`^pg${index + 1}-path=/tmp/x/${node.name}/data$`, 'm'));
    assert.match(ini, new RegExp(`^pg${index + 1}-port=${node.port}$`, 'm'));
  }
  const without = patroniConfig(await allocateLayout('/tmp/x', 'synchronous', 20_000), layout.nodes[0]!, secrets);
  assert.equal('archive_mode' in without.bootstrap.dcs.postgresql.parameters, false, 'no archiving without backups');
});
