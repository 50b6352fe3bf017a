/**
 * One holder at a time, in arrival order (FIFO, so no writer starves), across awaits: the SQLite
 * engine holds it from BEGIN to COMMIT (or ROLLBACK), so no other work of this process runs inside a
 * transaction while a use case awaits its stores. A free lock is taken without waiting a turn.
 */
export class ProcessLock {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  async hold<T>(section: () => Promise<T>): Promise<T> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held = true;
    try {
      return await section();
    } finally {
      // Handed straight to the next in line (still held), so nobody arriving meanwhile cuts in.
      const next = this.waiting.shift();
      if (next) next();
      else this.held = false;
    }
  }

  /** Whether a holder is in its section now. */
  get busy(): boolean {
    return this.held;
  }
}
