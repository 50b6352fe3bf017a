// Issue 34: at most `capacity` of a node's use cases hold a pooled PostgreSQL connection at once; the
// others wait here, in arrival order, for as long as it takes. Without it they wait in pg's pool,
// whose connect timeout (there to notice a database out of reach) then fails a burst's latecomers:
// 200 orders of one restaurant at once, serialized by its clock row, were 147 × 503 on one node.
export class ConnectionGate {
  private inUse = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`a connection gate needs a capacity of at least 1, got ${capacity}`);
  }

  async through<T>(work: () => Promise<T>): Promise<T> {
    if (this.inUse < this.capacity) this.inUse += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // Handed straight to the next in line (still counted), so nobody arriving meanwhile cuts in.
      const next = this.waiting.shift();
      if (next) next();
      else this.inUse -= 1;
    }
  }

  /** Use cases waiting for a connection now. */
  get queued(): number {
    return this.waiting.length;
  }
}
