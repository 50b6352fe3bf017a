import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PreparedDatabase } from './prepare-database.ts';
import type { SpawnOptions } from './child.ts';
import { ENGINE_NODE_FLAGS } from '../../src/engine/engine-node-flags.ts';

export interface BenchContext {
  quick: boolean;
  /** Measured runs per figure; each figure is their median. */
  runs: number;
  /** Length of one measured load run. */
  seconds: number;
  warmupSeconds: number;
  /** Scratch space of this bench run (databases, browser profile); removed at the end. */
  workDir: string;
  prepared: PreparedDatabase;
  /** Where engine processes write CPU profiles (--profile), or null. */
  profileDir: string | null;
  log(message: string): void;
}

/** Node flags for a process of ours under test: the engine's own (src/engine/engine-node-flags.ts), and CPU profiling when asked for. */
export function underTest(context: BenchContext, name: string): SpawnOptions {
  if (!context.profileDir) return { nodeFlags: [...ENGINE_NODE_FLAGS] };
  const dir = join(context.profileDir, name);
  mkdirSync(dir, { recursive: true });
  return { nodeFlags: [...ENGINE_NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${dir}`] };
}

let copies = 0;

/** A fresh copy of the prepared database, for a run that writes. */
export function copyOfDatabase(context: BenchContext): string {
  const path = join(context.workDir, `copy-${++copies}.db`);
  copyFileSync(context.prepared.path, path);
  return path;
}

/** Removes a database copy with its WAL files. */
export function removeDatabase(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

export const authorization = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });
