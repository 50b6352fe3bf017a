// A seeded generator: the same seed gives the same service, on any machine.
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = (seed * 0x9e3779b1) >>> 0 || 1;
  }

  /** Uniform in [0, 1) (mulberry32). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  between(low: number, high: number): number {
    return low + (high - low) * this.next();
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Log-normal with this mean and sigma of its logarithm. */
  logNormal(mean: number, sigma: number): number {
    return Math.exp(Math.log(mean) - (sigma * sigma) / 2 + sigma * this.normal());
  }

  exponential(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }

  /** An index by weights. */
  pick(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }
}
