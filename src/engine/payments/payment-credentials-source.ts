/** A restaurant's account with a payment provider: what the engine calls it with. Never logged. */
export interface PaymentCredentials {
  accessToken: string;
  webhookSecret: string;
  apiBase: string;
}

/**
 * Where the running engine reads a restaurant's credentials, on every use (so a change is seen by the
 * next order, webhook or job): the `payment_credentials` table, which `npm run payments` writes.
 * A host with a key store of its own (the desktop app: safeStorage) passes a source that is asked
 * first (host/start-engine-server.ts). A source, not a copy into the table: the desktop keeps the
 * token and the secret encrypted, and the database file (backed up, copied) never holds them.
 */
export type PaymentCredentialsSource = (restaurantId: string, provider: string) => PaymentCredentials | null;

/** The credentials `npm run payments` keeps in the database. */
export function databasePaymentCredentials(table: {
  get(restaurantId: string, provider: string): { access_token: string; webhook_secret: string; api_base: string } | undefined;
}): PaymentCredentialsSource {
  return (restaurantId, provider) => {
    const row = table.get(restaurantId, provider);
    return row ? { accessToken: row.access_token, webhookSecret: row.webhook_secret, apiBase: row.api_base } : null;
  };
}

/** `first` where it has credentials for the restaurant, else `then`. */
export function firstPaymentCredentials(first: PaymentCredentialsSource, then: PaymentCredentialsSource): PaymentCredentialsSource {
  return (restaurantId, provider) => first(restaurantId, provider) ?? then(restaurantId, provider);
}
