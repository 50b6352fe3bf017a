import type { Clock } from '../clock.ts';

export interface RateLimitSettings {
  /** Bucket size: requests that may come at once. */
  capacity: number;
  /** Tokens added per second. */
  refillPerSecond: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one request is allowed again (at least 1); meaningful when refused. */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

const SWEEP_THRESHOLD = 10_000;

/** Token buckets by key (an API key id, or a client address), on the engine's clock. */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly clock: Clock,
  ) {}

  take(key: string): RateLimitDecision {
    const now = this.clock.now();
    const bucket = this.refilled(key, now);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    if (this.buckets.size > SWEEP_THRESHOLD) this.sweep(now);
    return this.decide(bucket, allowed);
  }

  private decide(bucket: Bucket, allowed: boolean): RateLimitDecision {
    const { capacity, refillPerSecond } = this.settings;
    return {
      allowed,
      limit: capacity,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((capacity - bucket.tokens) / refillPerSecond),
      retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerSecond)),
    };
  }

  private refilled(key: string, now: number): Bucket {
    const { capacity, refillPerSecond } = this.settings;
    const bucket = this.buckets.get(key);
    if (!bucket) return { tokens: capacity, updatedAt: now };
    const elapsed = Math.max(0, now - bucket.updatedAt) / 1000;
    return { tokens: Math.min(capacity, bucket.tokens + elapsed * refillPerSecond), updatedAt: now };
  }

  /** Full buckets hold no information: dropping them keeps memory bounded under many clients. */
  private sweep(now: number): void {
    for (const [key] of this.buckets) {
      if (this.refilled(key, now).tokens >= this.settings.capacity) this.buckets.delete(key);
    }
  }
}
