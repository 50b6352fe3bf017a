import { spawnChild } from './child.ts';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Request paths taken in turn (each with the url's host); the url's own path otherwise. */
  paths?: string[];
  connections?: number;
  durationSeconds: number;
  /** A run first, not measured, so the server's JIT and caches are warm. */
  warmupSeconds?: number;
}

export interface LoadResult {
  /** Successful (2xx) requests per second. */
  rps: number;
  /** Latency of successful requests, ms. */
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/** Runs autocannon in its own process (bench/children/load-generator.ts) against `url`. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const timeoutMs = ((options.warmupSeconds ?? 0) + options.durationSeconds) * 1000 + 60_000;
  const child = await spawnChild('load-generator', options, { timeoutMs });
  await child.stop();
  const { type: _type, ...result } = child.ready;
  const load = result as unknown as LoadResult;
  if (load.non2xx > 0 || load.errors > 0) {
    throw new Error(`${options.method ?? 'GET'} ${options.url}: ${load.non2xx} non-2xx answers and ${load.errors} errors under load`);
  }
  return load;
}
