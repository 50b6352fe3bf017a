import { Agent, type Dispatcher } from 'undici';

/** The upstream answered, with any status. */
export interface UpstreamResponse<T = unknown> {
  status: number;
  body: T;
  /** From Retry-After, in milliseconds, when present. */
  retryAfterMs: number | null;
}

/** The upstream could not be reached, or the exchange broke (reset, timeout, truncated body). */
export class UpstreamUnreachable extends Error {
  override readonly name = 'UpstreamUnreachable';
}

export interface UpstreamCall {
  body?: unknown;
  idempotencyKey?: string;
  /** Longer for long-polls. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * One connection pool to the upstream's API, with the key kept here and nowhere else. Every
 * exchange is bounded in time: a half-open connection must not stall the kitchen's sync.
 */
export class UpstreamClient {
  private readonly agent: Agent;
  private readonly baseUrl: string;
  /** The base URL taken apart once (undici's `request(url)` parses the whole URL on every call); null when it is not a URL. */
  private readonly origin: string | null = null;
  private readonly basePath: string = '';

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    if (URL.canParse(this.baseUrl)) {
      const url = new URL(this.baseUrl);
      this.origin = url.origin;
      this.basePath = url.pathname.replace(/\/+$/, '');
    }
    this.agent = new Agent({ connections: 20, connectTimeout: 5_000, keepAliveTimeout: 10_000, pipelining: 1 });
  }

  get base(): string {
    return this.baseUrl;
  }

  async call<T = unknown>(method: Dispatcher.HttpMethod, path: string, options: UpstreamCall = {}): Promise<UpstreamResponse<T>> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    try {
      // Not a URL: unreachable, as every call to it fails.
      if (this.origin === null) throw new Error("the platform's address is not a URL");
      const response = await this.agent.request({
        origin: this.origin,
        path: `${this.basePath}${path}`,
        method,
        headers,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const text = await response.body.text();
      let body: unknown = null;
      if (text.length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          // A proxy's HTML error page, or a body cut short: the exchange is not trustworthy.
          if (response.statusCode < 500) throw new UpstreamUnreachable(`unreadable answer (${response.statusCode}) from ${path}`);
          body = { error: { code: 'internal_error', message: text.slice(0, 200) } };
        }
      }
      const retryAfter = response.headers['retry-after'];
      const retryAfterSeconds = typeof retryAfter === 'string' ? Number(retryAfter) : NaN;
      return {
        status: response.statusCode,
        body: body as T,
        retryAfterMs: Number.isFinite(retryAfterSeconds) ? Math.max(0, retryAfterSeconds) * 1000 : null,
      };
    } catch (error) {
      if (error instanceof UpstreamUnreachable) throw error;
      if (options.signal?.aborted) throw error;
      throw new UpstreamUnreachable(`${method} ${path}: ${(error as Error).message}`);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
