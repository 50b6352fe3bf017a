// Token buckets by key (an API key id, a client address, a device), in memory, on the engine's
// clock. Every take() costs O(1) whatever the number of keys: the buckets sit in a Map kept in the
// order they were last touched, so the least recently touched is always first; a bucket untouched
// for capacity / refill seconds is full again and holds no information, so at most a few of those
// are dropped from the front on each take(). Memory is bounded by `maxKeys`: when every bucket in
// the map still holds information, a new key shares one overflow bucket instead of evicting anyone
// (evicting a half-empty bucket would hand its owner a full one).
import type { Clock } from '../clock.ts';
import { spend, type Bucket, type RateLimitDecision, type RateLimitSettings } from '../domain/token-bucket.ts';

export type { RateLimitDecision, RateLimitSettings } from '../domain/token-bucket.ts';

/** Default bound on the keys kept (each a few dozen bytes). */
const DEFAULT_MAX_KEYS = 100_000;
/** Expired buckets dropped per take(), at most: more than one, so the map shrinks faster than it grows. */
const EXPIRE_PER_TAKE = 4;

export interface RateLimiterStats {
  size: number;
  /** Buckets looked at to expire old ones, since the start (O(1) per take: at most EXPIRE_PER_TAKE + 1 each). */
  examined: number;
  /** Takes that went to the shared overflow bucket because the map was full. */
  overflowed: number;
}

export class TokenBucketLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private overflow: Bucket | undefined;
  /** The key of the last bucket set, which is the map's last entry if it is still there. */
  private newest: string | undefined;
  private readonly idleMs: number;
  private readonly counters = { examined: 0, overflowed: 0 };

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly clock: Clock,
    private readonly maxKeys: number = DEFAULT_MAX_KEYS,
  ) {
    this.idleMs = Math.ceil((settings.capacity / settings.refillPerSecond) * 1000);
  }

  take(key: string): RateLimitDecision {
    const now = this.clock.now();
    this.expire(now);
    const known = this.buckets.get(key);
    if (!known && this.buckets.size >= this.maxKeys) {
      this.counters.overflowed++;
      const { bucket, decision } = spend(this.settings, this.overflow, now);
      this.overflow = bucket;
      return decision;
    }
    const { bucket, decision } = spend(this.settings, known, now);
    // Re-inserted at the end: the map stays ordered by last touch. The key touched last is already
    // there (or gone, and set appends it): deleting it first would make V8 rebuild the map's table,
    // which for a long-lived map it allocates in the old generation, about 250 bytes of garbage
    // there per request that only a full collection frees (row 4's memory, docs/performance.md).
    if (key !== this.newest) this.buckets.delete(key);
    this.buckets.set(key, bucket);
    this.newest = key;
    return decision;
  }

  stats(): RateLimiterStats {
    return { size: this.buckets.size, ...this.counters };
  }

  /** Drops up to EXPIRE_PER_TAKE buckets idle long enough to be full again, from the front. */
  private expire(now: number): void {
    for (let i = 0; i < EXPIRE_PER_TAKE; i++) {
      const first = this.buckets.entries().next();
      if (first.done) return;
      this.counters.examined++;
      const [key, bucket] = first.value;
      if (now - bucket.updatedAt < this.idleMs) return;
      this.buckets.delete(key);
    }
  }
}
