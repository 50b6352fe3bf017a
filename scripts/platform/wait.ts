// Waits on a condition, never a fixed time: polls `probe` until its value passes `until`. The
// timeout is a safety net for a wedged start, not a speed target (a busy machine gets there later).
export async function waitFor<T>(probe: () => Promise<T>, what: string, until: (value: T) => boolean, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = 'nothing yet';
  for (;;) {
    try {
      const value = await probe();
      if (until(value)) return value;
      last = JSON.stringify(value);
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${last.slice(0, 500)})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
