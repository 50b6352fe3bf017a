import { DateTime } from 'luxon';
import { invalidRequest, notFound } from '../domain/errors.ts';
import type { Engine } from '../engine.ts';
import { MERCADOPAGO_API_BASE, MERCADOPAGO_PROVIDER_NAME } from '../payments/mercadopago.ts';
import { databasePaymentCredentials, type PaymentCredentialsSource } from '../payments/payment-credentials-source.ts';

/** What may be shown of a restaurant's credentials: never the token nor the secret. */
export interface PaymentCredentialsView {
  restaurant_id: string;
  provider: string;
  world: 'live';
  api_base: string;
  access_token_set: boolean;
  webhook_secret_set: boolean;
  created_at: string;
  updated_at: string;
}

function checkApiBase(apiBase: string): string {
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    throw invalidRequest('the API base (--api-base) must be an http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidRequest('the API base (--api-base) must be an http(s) URL');
  return apiBase.replace(/\/+$/, '');
}

function checkSecret(name: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed.length < 8 || trimmed.length > 512 || /[\s\u0000-\u001f]/.test(trimmed)) {
    throw invalidRequest(`${name} must be 8 to 512 characters with no spaces`);
  }
  return trimmed;
}

function viewOf(engine: Engine, restaurantId: string): PaymentCredentialsView | null {
  const row = engine.stores.paymentCredentials.get(restaurantId, MERCADOPAGO_PROVIDER_NAME);
  if (!row) return null;
  const restaurant = engine.stores.restaurants.get(restaurantId);
  const at = (ms: number) => DateTime.fromMillis(ms, { zone: restaurant?.time_zone ?? 'UTC' }).toISO({ suppressMilliseconds: true })!;
  return {
    restaurant_id: row.restaurant_id,
    provider: row.provider,
    world: 'live',
    api_base: row.api_base,
    access_token_set: row.access_token.length > 0,
    webhook_secret_set: row.webhook_secret.length > 0,
    created_at: at(row.created_at),
    updated_at: at(row.updated_at),
  };
}

/** The token, the secret and the API base checked and trimmed (for the database or the app's key storage). */
export function checkMercadoPagoCredentials(input: { accessToken: string; webhookSecret: string; apiBase?: string | null | undefined }): {
  accessToken: string;
  webhookSecret: string;
  apiBase: string;
} {
  return {
    accessToken: checkSecret('the access token', input.accessToken),
    webhookSecret: checkSecret('the webhook secret', input.webhookSecret),
    apiBase: checkApiBase(input.apiBase?.trim() || MERCADOPAGO_API_BASE),
  };
}

/** Sets (or replaces) a restaurant's Mercado Pago credentials for its live world, in one transaction. */
export function setMercadoPagoCredentials(
  engine: Engine,
  restaurantId: string,
  input: { accessToken: string; webhookSecret: string; apiBase?: string | undefined },
): PaymentCredentialsView {
  const { accessToken, webhookSecret, apiBase } = checkMercadoPagoCredentials(input);
  return engine.transaction(() => {
    if (!engine.stores.restaurants.get(restaurantId)) throw notFound(`unknown restaurant ${restaurantId}`);
    const now = engine.clock.now();
    engine.stores.paymentCredentials.set({
      restaurant_id: restaurantId,
      provider: MERCADOPAGO_PROVIDER_NAME,
      access_token: accessToken,
      webhook_secret: webhookSecret,
      api_base: apiBase,
      created_at: now,
      updated_at: now,
    });
    return viewOf(engine, restaurantId)!;
  });
}

export function showPaymentCredentials(engine: Engine, restaurantId: string): PaymentCredentialsView | null {
  if (!engine.stores.restaurants.get(restaurantId)) throw notFound(`unknown restaurant ${restaurantId}`);
  return viewOf(engine, restaurantId);
}

export function removePaymentCredentials(engine: Engine, restaurantId: string): boolean {
  return engine.transaction(() => engine.stores.paymentCredentials.remove(restaurantId, MERCADOPAGO_PROVIDER_NAME));
}

/** The credentials `npm run payments` keeps in the database, read on every use (a change is seen by the next one). */
export function storedPaymentCredentials(engine: Engine): PaymentCredentialsSource {
  return databasePaymentCredentials(engine.stores.paymentCredentials);
}
