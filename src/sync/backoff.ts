/** Exponential backoff with full jitter: retries from many kitchens do not arrive in step. */
export function backoffDelay(failures: number, baseMs = 250, capMs = 30_000, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(failures, 20));
  return Math.floor(ceiling / 2 + random() * (ceiling / 2));
}

/** A wait that ends early when `signal` aborts or `wake` is called. */
export class Waker {
  private wakeCurrent: (() => void) | null = null;

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        if (this.wakeCurrent === done) this.wakeCurrent = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.wakeCurrent = done;
    });
  }

  wake(): void {
    this.wakeCurrent?.();
  }
}
