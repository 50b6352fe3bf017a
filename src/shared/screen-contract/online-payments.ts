// Ajustes → Pagos en línea: what the desktop's window sees of the restaurant's Mercado Pago account.
// The token and the webhook secret go in and never come back out: only that they are set and their
// last 4 characters.
import Type from 'typebox';

/** The providers the screen offers: the registry's names (engine/payments/payment-providers.ts) that have screen text. */
export const ONLINE_PAYMENT_PROVIDERS = ['mercadopago'] as const;

export interface OnlinePaymentsInfo {
  /** The kept account's provider, by the registry's name; the first the screen offers when none is kept. */
  provider: string;
  configured: boolean;
  /** Where the app calls Mercado Pago (its public API unless a stand-in was set); null when not configured. */
  api_base: string | null;
  access_token_last4: string | null;
  webhook_secret_last4: string | null;
}

export const NO_ONLINE_PAYMENTS: OnlinePaymentsInfo = {
  provider: 'mercadopago',
  configured: false,
  api_base: null,
  access_token_last4: null,
  webhook_secret_last4: null,
};

/** Probar conexión: the token works (the account's user id), is refused, the API cannot be reached, or something else failed. */
export interface OnlinePaymentsCheck {
  result: 'ok' | 'rejected' | 'unreachable' | 'failed' | 'not_configured';
  user_id: string | null;
  /** Mercado Pago's answer or the network's error, never the token. */
  message: string | null;
}

const Secret = Type.String({ minLength: 1, maxLength: 512 });

export const SetOnlinePaymentsSchema = Type.Object({
  provider: Type.Enum([...ONLINE_PAYMENT_PROVIDERS]),
  access_token: Secret,
  webhook_secret: Secret,
  /** Empty or null: Mercado Pago's public API. */
  api_base: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]),
});
