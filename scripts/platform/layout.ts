// What a platform on one machine is made of: three etcd members, three PostgreSQL nodes under
// Patroni, one HAProxy; every port on loopback and every file in one state folder. `up` writes it
// to layout.json there, so that `status`, `down` and the tests read the same layout back.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

export type Replication = 'synchronous' | 'asynchronous';

export interface EtcdMember {
  name: string;
  clientPort: number;
  peerPort: number;
}

export interface DatabaseNode {
  name: string;
  /** PostgreSQL's port. */
  port: number;
  /** Patroni's REST API (the /primary check HAProxy asks). */
  restPort: number;
  /** The etcd member on the same machine (in the layout for real machines: one of each per machine). */
  etcd: string;
}

export interface PlatformLayout {
  dir: string;
  host: '127.0.0.1';
  scope: string;
  replication: Replication;
  /** WAL archiving and backups with pgBackRest (`up --backups`; scripts/platform/pgbackrest.ts). */
  backups?: boolean;
  etcd: EtcdMember[];
  nodes: DatabaseNode[];
  haproxy: { writePort: number; statsPort: number };
}

export const NODE_COUNT = 3;
const LAYOUT_FILE = 'layout.json';

/**
 * `count` distinct free loopback ports, as the kernel hands them out: every probe stays open until
 * all are taken, so that the kernel cannot hand one out twice (a port closed at once is free again
 * for the next probe). The gap until the services bind them is short.
 */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => {
    const address = server.address();
    if (typeof address !== 'object' || !address) throw new Error('no port');
    return address.port;
  });
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** Ports from `basePort` on (basePort, +1, … +13), or free ones the kernel picks when it is absent. */
export async function allocateLayout(dir: string, replication: Replication, basePort?: number): Promise<PlatformLayout> {
  const count = NODE_COUNT * 4 + 2;
  const ports = basePort === undefined ? await freePorts(count) : Array.from({ length: count }, (_, index) => basePort + index);
  if (new Set(ports).size !== ports.length) throw new Error('the kernel handed out one port twice; run again');
  const take = () => ports.shift()!;
  const etcd = Array.from({ length: NODE_COUNT }, (_, index) => ({ name: `etcd${index + 1}`, clientPort: take(), peerPort: take() }));
  const nodes = Array.from({ length: NODE_COUNT }, (_, index) => ({
    name: `pg${index + 1}`,
    port: take(),
    restPort: take(),
    etcd: `etcd${index + 1}`,
  }));
  return { dir, host: '127.0.0.1', scope: 'comanda', replication, etcd, nodes, haproxy: { writePort: take(), statsPort: take() } };
}

export function writeLayout(layout: PlatformLayout): void {
  writeFileSync(join(layout.dir, LAYOUT_FILE), `${JSON.stringify(layout, null, 2)}\n`);
}

export function readLayout(dir: string): PlatformLayout {
  return JSON.parse(readFileSync(join(dir, LAYOUT_FILE), 'utf8')) as PlatformLayout;
}

export const nodeDir = (layout: PlatformLayout, node: string) => join(layout.dir, node);
export const dataDir = (layout: PlatformLayout, node: string) => join(layout.dir, node, 'data');
