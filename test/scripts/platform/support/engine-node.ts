// Starts "an engine node" of the failover test: a process of its own on the platform's write port,
// answering the store fronts over HTTP. Today it is storage-node-process.ts (a real PostgresStorage
// behind a small HTTP door); once the engine runs on PostgreSQL (issue 34), `serve --database
// postgres://…` takes its place here and nothing else in the test changes but the paths it serves.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const NODE_PROCESS = join(import.meta.dirname, 'storage-node-process.ts');

export interface EngineNodeSeed {
  restaurant: string;
  location: string;
  product: string;
  apiKey: string;
  /** The clock the node's writes take (epoch ms). */
  at: number;
}

export interface EngineNode {
  nodeId: string;
  baseUrl: string;
  /** Ends the node (SIGTERM) and waits for its exit. */
  stop(): Promise<void>;
}

export async function startEngineNode(connectionString: string, nodeId: string, seed: EngineNodeSeed): Promise<EngineNode> {
  const child: ChildProcess = spawn(
    NODE,
    ['--import', 'tsx', NODE_PROCESS, connectionString, nodeId, seed.restaurant, seed.location, seed.product, seed.apiKey, String(seed.at)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let printed = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
      const line = printed.split('\n').find((candidate) => candidate.startsWith('{"listening"'));
      if (line) resolve((JSON.parse(line) as { listening: number }).listening);
    });
    child.once('exit', (code) => reject(new Error(`engine node ${nodeId} exited (${code}) before it listened`)));
  });
  return {
    nodeId,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
