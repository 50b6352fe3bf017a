// The renderer's typed calls: the preload bridge's answers unwrapped, refusals thrown as ScreenCallError
// with the engine's code and message.
import type { ComandaBridge, ScreenFailure } from '../../shared/screen-contract/contract.ts';

export class ScreenCallError extends Error {
  readonly code: string;

  constructor(failure: ScreenFailure) {
    super(failure.message);
    this.name = 'ScreenCallError';
    this.code = failure.code;
  }
}

type Unwrapped<F> = F extends (request: infer Q) => Promise<infer R>
  ? (request: Q) => Promise<R extends { ok: true; value: infer V } ? V : never>
  : never;

export type KitchenApi = { [M in Exclude<keyof ComandaBridge, 'onLive' | 'showStations'>]: Unwrapped<ComandaBridge[M]> } & {
  onLive: ComandaBridge['onLive'];
  showStations: ComandaBridge['showStations'];
};

/** A bridge's answer unwrapped: its value, or its refusal thrown as a ScreenCallError. */
export function answerOf<T>(result: { ok: boolean; value?: T; error?: ScreenFailure } | null | undefined): T {
  if (!result || typeof result !== 'object') throw new ScreenCallError({ code: 'internal_error', message: 'no answer from the app' });
  if (result.ok) return result.value as T;
  throw new ScreenCallError(result.error ?? { code: 'internal_error', message: 'unknown error' });
}

export function createApi(bridge: ComandaBridge): KitchenApi {
  const api: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(bridge)) {
    if (name === 'onLive' || name === 'showStations') continue;
    api[name] = async (request: unknown) => answerOf(await (method as (r: unknown) => Promise<{ ok: boolean; value?: unknown; error?: ScreenFailure }>)(request ?? {}));
  }
  api.onLive = (listener: Parameters<ComandaBridge['onLive']>[0]) => bridge.onLive(listener);
  api.showStations = (stations: readonly string[] | null) => bridge.showStations(stations);
  return api as KitchenApi;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
