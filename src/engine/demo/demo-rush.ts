// "Probar con pedidos de ejemplo": the project's rush (src/shared/demo-rush.ts) posted to the demo
// restaurant over the real API, as a store front would, with a key of its own, at a pace the user
// picks, until stopped. It runs outside any transaction: each order is one HTTP request, and a
// refused or failed one is counted and the rush goes on.
import type { Engine } from '../engine.ts';
import { createApiKey } from '../services/keys/api-keys.ts';
import { RUSH_RESTAURANT, rushOrder } from '../../shared/demo-rush.ts';

export interface DemoRushOptions {
  /** The engine's API base, e.g. http://127.0.0.1:4750/v1. */
  baseUrl: string;
  /** Orders per minute (1 to 120). */
  perMinute: number;
  seed?: number;
  /** Where to start in the rush (a second rush goes on where the first stopped). */
  from?: number;
  /** How many orders at most (default: until stopped). */
  limit?: number;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  fetch?: typeof fetch;
  /** Told after each order: its index, and its number or why it was refused. */
  onOrder?: (result: { index: number; number: string | null; error: string | null }) => void;
}

export interface DemoRush {
  readonly posted: number;
  readonly failed: number;
  readonly running: boolean;
  /** Stops it; an order already on its way still arrives. */
  stop(): void;
  /** Settles when it has stopped (by stop() or its limit) and no order is on its way. */
  done: Promise<void>;
}

/** A write key for the demo rush alone, labelled so it can be told apart (and revoked) in Integraciones. */
export async function demoRushKey(engine: Engine, restaurantId: string = RUSH_RESTAURANT.id): Promise<string> {
  return (await createApiKey(engine, { restaurantId, world: 'live', write: true, label: 'pedidos de ejemplo' })).key;
}

export function startDemoRush(key: string, options: DemoRushOptions): DemoRush {
  const perMinute = Math.min(120, Math.max(1, Math.round(options.perMinute)));
  const interval = 60_000 / perMinute;
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const post = options.fetch ?? fetch;
  let index = options.from ?? 0;
  const last = options.limit === undefined ? Infinity : index + options.limit;
  let posted = 0;
  let failed = 0;
  let running = true;
  let inFlight = 0;
  let timer: unknown = null;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const settle = () => {
    if (!running && inFlight === 0) finish();
  };

  const sendOne = async (at: number) => {
    inFlight++;
    let number: string | null = null;
    let error: string | null = null;
    try {
      const response = await post(`${options.baseUrl}/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(rushOrder(at, { seed: options.seed, now: now() })),
      });
      const body = (await response.json().catch(() => null)) as { number?: string; error?: { code?: string } } | null;
      if (response.ok && body?.number) number = body.number;
      else error = body?.error?.code ?? `HTTP ${response.status}`;
    } catch (cause) {
      error = (cause as Error).message;
    }
    if (error === null) posted++;
    else failed++;
    inFlight--;
    options.onOrder?.({ index: at, number, error });
    settle();
  };

  const tick = () => {
    timer = null;
    if (!running) return;
    void sendOne(index++);
    if (index >= last) {
      running = false;
      settle();
      return;
    }
    timer = setTimer(tick, interval);
  };
  tick();

  return {
    get posted() {
      return posted;
    },
    get failed() {
      return failed;
    },
    get running() {
      return running;
    },
    stop() {
      running = false;
      if (timer !== null) clearTimer(timer);
      timer = null;
      settle();
    },
    done,
  };
}
