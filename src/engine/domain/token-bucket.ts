// The token bucket, the one rule every rate limit of the engine follows (the /v1 limits, the
// pairing limits per address, the kitchen door's per-device write limit): `capacity` requests at
// once, then `refillPerSecond`. Pure arithmetic on the caller's clock; where the buckets live (a
// bounded map in memory, rows in SQLite) is the caller's business.

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

export interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** The bucket at `now`: a missing one is full. */
function refill(settings: RateLimitSettings, bucket: Bucket | undefined, now: number): Bucket {
  if (!bucket) return { tokens: settings.capacity, updatedAt: now };
  const elapsed = Math.max(0, now - bucket.updatedAt) / 1000;
  return { tokens: Math.min(settings.capacity, bucket.tokens + elapsed * settings.refillPerSecond), updatedAt: Math.max(now, bucket.updatedAt) };
}

/** Spends one token if there is one: the bucket after, and the decision. */
export function spend(settings: RateLimitSettings, bucket: Bucket | undefined, now: number): { bucket: Bucket; decision: RateLimitDecision } {
  const next = refill(settings, bucket, now);
  const allowed = next.tokens >= 1;
  if (allowed) next.tokens -= 1;
  return { bucket: next, decision: decisionOf(settings, next, allowed) };
}

function decisionOf(settings: RateLimitSettings, bucket: Bucket, allowed: boolean): RateLimitDecision {
  const { capacity, refillPerSecond } = settings;
  return {
    allowed,
    limit: capacity,
    remaining: Math.floor(bucket.tokens),
    resetSeconds: Math.ceil((capacity - bucket.tokens) / refillPerSecond),
    retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerSecond)),
  };
}

/** When a bucket untouched since `bucket.updatedAt` is full again (it then holds no information). */
export function fullAt(settings: RateLimitSettings, bucket: Bucket): number {
  return bucket.updatedAt + Math.ceil(((settings.capacity - bucket.tokens) / settings.refillPerSecond) * 1000);
}

/**
 * The key a client address is limited under: an IPv4 address as such (also IPv4-mapped IPv6),
 * an IPv6 address by its /64 (one host usually holds a whole /64, so per-address would be no limit).
 */
export function addressKey(address: string | undefined | null): string {
  if (!address) return 'unknown';
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(lower);
  if (mapped) return mapped[1]!;
  if (!lower.includes(':')) return lower;
  const [head = '', tail = ''] = lower.split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = lower.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (g.replace(/^0+/, '') || '0'))
    .join(':')}::/64`;
}
