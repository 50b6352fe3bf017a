/** Polls `check` until it returns a truthy value or the time is up. */
export async function eventually<T>(check: () => Promise<T> | T, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : String(last)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
