// What a platform on one machine is made of: three etcd members, three PostgreSQL nodes under
// Patroni, one HAProxy; every port on loopback and every file in one state folder. `up` writes it
// to layout.json there, so that `status`, `down` and the tests read the same layout back.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
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
  etcd: EtcdMember[];
  nodes: DatabaseNode[];
  haproxy: { writePort: number; statsPort: number };
}

export const NODE_COUNT = 3;
const LAYOUT_FILE = 'layout.json';

/** A free loopback port, as the kernel hands one out (the gap until the service binds it is short). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Ports from `basePort` on (basePort, +1, … +13), or free ones the kernel picks when it is absent. */
export async function allocateLayout(dir: string, replication: Replication, basePort?: number): Promise<PlatformLayout> {
  const ports: number[] = [];
  for (let index = 0; index < NODE_COUNT * 4 + 2; index += 1) {
    ports.push(basePort === undefined ? await freePort() : basePort + index);
  }
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
