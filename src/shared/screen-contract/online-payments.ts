// Ajustes → Pagos en línea: what the desktop's window sees of the restaurant's payment account, and
// the providers it may choose from (the engine's registry, engine/payments/payment-providers.ts: a
// provider added there is offered here with no edit). The token and the webhook secret go in and
// never come back out: only that they are set and their last 4 characters.
import Type from 'typebox';

/** One provider the screen offers, as the engine's registry has it. */
export interface OnlinePaymentProvider {
  /** The registry's name: what `payments:set` sends back and the account is kept under. */
  name: string;
  /** The provider's brand name, shown as it is in every language (a brand is not translated). */
  label: string;
  /** The provider's public API, used when the API field is left empty. */
  default_api_base: string;
}

export interface OnlinePaymentsInfo {
  /** The kept account's provider, by the registry's name; the registry's first when none is kept. */
  provider: string;
  /** Every provider the engine can use, in the registry's order. */
  providers: OnlinePaymentProvider[];
  configured: boolean;
  /** Where the app calls the provider (its public API unless a stand-in was set); null when not configured. */
  api_base: string | null;
  access_token_last4: string | null;
  webhook_secret_last4: string | null;
}

/** Probar conexión: the token works (the account's user id), is refused, the API cannot be reached, or something else failed. */
export interface OnlinePaymentsCheck {
  result: 'ok' | 'rejected' | 'unreachable' | 'failed' | 'not_configured';
  user_id: string | null;
  /** The provider's answer or the network's error, never the token. */
  message: string | null;
}

const Secret = Type.String({ minLength: 1, maxLength: 512 });

export const SetOnlinePaymentsSchema = Type.Object({
  /** A name in the engine's registry (checked there: the contract does not list them). */
  provider: Type.String({ minLength: 1, maxLength: 40, pattern: '^[a-z0-9_-]+$' }),
  access_token: Secret,
  webhook_secret: Secret,
  /** Empty or null: the provider's public API. */
  api_base: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]),
});
