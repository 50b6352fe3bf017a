// The one way a test waits for something another part does (an engine, a replica, a browser, a
// child process): poll a probe until its value is what the test wants. A safety-net timeout, not a
// speed limit: a busy machine gets there later, a real failure names what never came and how it
// last looked. The default sits just under the fast tier's 60 s per-test timeout, so a loaded
// machine is never failed by a tighter bound than the test's own.
import { inspect } from 'node:util';

export interface EventuallyOptions<T> {
  /** When the probe's value is the one awaited; by default, any truthy value. */
  until?: (value: T) => boolean;
  /** Give up after this long (default 50 s: just under a fast-tier test's own timeout). */
  timeoutMs?: number;
}

const POLL_EVERY_MS = 20;

/**
 * Polls `probe` every 20 ms until its value passes `until` (truthy by default) and returns that
 * value. A probe that throws has not got there yet (a page mid-navigation, a port not open); after
 * `timeoutMs` it fails naming `what` and the last value or error.
 */
export async function eventually<T>(probe: () => T | Promise<T>, what: string, options: EventuallyOptions<T> = {}): Promise<T> {
  const until = options.until ?? ((value: T) => Boolean(value));
  const timeoutMs = options.timeoutMs ?? 50_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: string;
    try {
      const value = await probe();
      if (until(value)) return value;
      last = inspect(value, { depth: 4, breakLength: Infinity, maxStringLength: 500 });
    } catch (error) {
      last = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
  }
}
