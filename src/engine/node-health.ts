// Issue 35: what `GET /v1/health` tells a load balancer or an operator: which node answers, on which
// database, and whether it can write now. A check is cached briefly and shared by the requests that
// arrive meanwhile, so a flood of health requests costs the database at most one probe a second.
import { hostname } from 'node:os';
import type { Engine } from './engine.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface WriteCheck {
  writable: boolean;
  /** Why not, in a few words (never a connection string); null when writable. */
  reason: string | null;
}

export interface NodeHealth {
  readonly nodeId: string;
  readonly database: DatabaseKind;
  /** Whether this node can write now (cached for a moment: see cachedWriteCheck). */
  canWrite(): Promise<WriteCheck>;
}

/** A node's name when the host gives none: the machine's. */
export const defaultNodeId = (): string => hostname();

/** How long one answer serves the health requests after it. */
export const HEALTH_CACHE_MS = 1_000;

/** `probe` run at most once per `cacheMs` (by `now`), concurrent callers sharing the one under way. */
export function cachedWriteCheck(probe: () => Promise<WriteCheck>, now: () => number, cacheMs = HEALTH_CACHE_MS): () => Promise<WriteCheck> {
  let last: { at: number; check: WriteCheck } | null = null;
  let running: Promise<WriteCheck> | null = null;
  return () => {
    if (last && now() - last.at < cacheMs) return Promise.resolve(last.check);
    running ??= probe()
      .catch((error: unknown): WriteCheck => ({ writable: false, reason: `check failed: ${(error as Error).message ?? 'unknown'}` }))
      .then((check) => {
        last = { at: now(), check };
        return check;
      })
      .finally(() => (running = null));
    return running;
  };
}

/** A SQLite engine can write unless its file was found damaged or its disk full. */
export function sqliteNodeHealth(engine: Engine, nodeId = defaultNodeId()): NodeHealth {
  return {
    nodeId,
    database: 'sqlite',
    canWrite: async () => {
      if (engine.writesRefused) return { writable: false, reason: 'the database file is damaged' };
      if (engine.storageFull) return { writable: false, reason: 'the disk is full' };
      return { writable: true, reason: null };
    },
  };
}
