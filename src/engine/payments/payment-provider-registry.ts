import type { PaymentCredentials } from './payment-credentials-source.ts';
import type { PaymentProvider } from './payment-provider.ts';

/** What "Probar conexión" and `npm run payments -- test` tell: the token works, is refused, or the API cannot be reached. */
export type ConnectionCheck =
  | { ok: true; user_id: string }
  | { ok: false; reason: 'rejected' | 'unreachable' | 'failed'; error: string };

/** A provider's webhook request, as the route received it (nothing of it is trusted yet). */
export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  query: unknown;
}

/**
 * What a provider's webhook said once its signature was checked with the restaurant's secret:
 * refused (forged, stale or malformed signature), about a payment to read (`payment_id`), about
 * something else (acknowledged and ignored), or signed but naming no valid payment.
 */
export type WebhookVerdict =
  | { kind: 'refused'; reason: string }
  | { kind: 'payment'; payment_id: string }
  | { kind: 'ignored' }
  | { kind: 'invalid'; message: string };

/**
 * One payment provider the engine can use for a restaurant's live world, by the name its
 * credentials, its sessions and its webhook path carry (`/v1/payments/notifications/{name}/…`).
 * Adding one is a folder under payments/ with its entry and its line in `PAYMENT_PROVIDER_ENTRIES`:
 * the settings screen lists the registry (docs/architecture.md, "A payment provider").
 */
export interface PaymentProviderEntry {
  readonly name: string;
  /** The provider's brand name, for logs, the CLI and the settings screen's list (a brand is not translated). */
  readonly label: string;
  /** The provider's public API, used when a restaurant gives none. */
  readonly defaultApiBase: string;
  /** The provider's client for one restaurant's account. */
  create(credentials: PaymentCredentials): PaymentProvider;
  /** One real call with the token: whose account it is, else why not. Never carries the token. */
  checkConnection(credentials: Pick<PaymentCredentials, 'accessToken' | 'apiBase'>, timeoutMs?: number): Promise<ConnectionCheck>;
  /** Checks a notification's signature (with the restaurant's secret and the engine's clock) and reads what it names. */
  verifyWebhook(request: WebhookRequest, secret: string, now: number): WebhookVerdict;
}

/** The providers by name, as the engine knows them. */
export type PaymentProviderRegistry = ReadonlyMap<string, PaymentProviderEntry>;

export function paymentProviderRegistry(...entries: PaymentProviderEntry[]): PaymentProviderRegistry {
  return new Map(entries.map((entry) => [entry.name, entry]));
}
