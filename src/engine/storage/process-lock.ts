/**
 * One holder at a time, in arrival order, across awaits: the SQLite twin holds it from BEGIN to
 * COMMIT, so no other work of this process runs inside a transaction while a use case awaits.
 */
export class ProcessLock {
  private tail: Promise<void> = Promise.resolve();

  async hold<T>(section: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await section();
    } finally {
      release();
    }
  }
}
