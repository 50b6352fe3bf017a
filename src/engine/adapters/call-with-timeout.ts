/** An outside party (payment provider, courier) that did not answer in time. */
class AdapterTimeoutError extends Error {
  constructor(what: string, timeoutMs: number) {
    super(`${what} did not answer within ${timeoutMs} ms`);
    this.name = 'AdapterTimeoutError';
  }
}

/**
 * Calls an adapter with a deadline: the answer, or AdapterTimeoutError once `timeoutMs` of real
 * time has passed (a network call waits on the wire, not on the engine's clock). The adapter gets
 * a signal that aborts at the deadline, so it can drop its request. Never call this inside a
 * database transaction: the point is that nothing waits on a provider while SQLite's write lock is held.
 */
export async function callWithTimeout<T>(what: string, timeoutMs: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new AdapterTimeoutError(what, timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => call(controller.signal)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
