import { DateTime } from 'luxon';
import { invalidRequest, notFound } from '../../domain/errors.ts';
import type { Engine, ReadTransaction } from '../../engine.ts';
import { PAYMENT_PROVIDER_ENTRIES } from '../../payments/payment-providers.ts';
import type { PaymentProviderEntry, PaymentProviderRegistry } from '../../payments/payment-provider-registry.ts';
import { databasePaymentCredentials, type PaymentCredentialsSource } from '../../payments/payment-credentials-source.ts';
import { keptPaymentCredentials } from './kept-payment-credentials.ts';

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

/** The registry's entry for a provider's name, or invalid_request naming the ones there are. */
export function knownPaymentProvider(provider: string, registry: PaymentProviderRegistry = PAYMENT_PROVIDER_ENTRIES): PaymentProviderEntry {
  const entry = registry.get(provider);
  if (!entry) throw invalidRequest(`the provider must be one of: ${[...registry.keys()].join(', ')}`);
  return entry;
}

/** A provider as a settings screen offers it: its name, its brand and its public API. */
export interface OfferedPaymentProvider {
  name: string;
  label: string;
  default_api_base: string;
}

/** Every provider a restaurant may choose, in the registry's order: a provider added there is offered with no other edit. */
export function offeredPaymentProviders(registry: PaymentProviderRegistry = PAYMENT_PROVIDER_ENTRIES): OfferedPaymentProvider[] {
  return [...registry.values()].map((entry) => ({ name: entry.name, label: entry.label, default_api_base: entry.defaultApiBase }));
}

async function viewOf(engine: Engine, tx: ReadTransaction, restaurantId: string, provider: string): Promise<PaymentCredentialsView | null> {
  const row = await tx.stores.paymentCredentials.get(restaurantId, provider);
  if (!row) return null;
  const restaurant = await tx.stores.restaurants.get(restaurantId);
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

/**
 * The token, the secret and the API base checked and trimmed (for the database or the app's key
 * storage); no API base means the provider's public one.
 */
export function checkPaymentCredentials(
  provider: string,
  input: { accessToken: string; webhookSecret: string; apiBase?: string | null | undefined },
  registry: PaymentProviderRegistry = PAYMENT_PROVIDER_ENTRIES,
): {
  accessToken: string;
  webhookSecret: string;
  apiBase: string;
} {
  // The registry is the one list of names (the table takes any since migration 0022): checked first, always.
  const entry = knownPaymentProvider(provider, registry);
  return {
    accessToken: checkSecret('the access token', input.accessToken),
    webhookSecret: checkSecret('the webhook secret', input.webhookSecret),
    apiBase: checkApiBase(input.apiBase?.trim() || entry.defaultApiBase),
  };
}

/** Sets (or replaces) a restaurant's credentials with a provider for its live world, in one transaction. */
export async function setPaymentCredentials(
  engine: Engine,
  restaurantId: string,
  provider: string,
  input: { accessToken: string; webhookSecret: string; apiBase?: string | undefined },
): Promise<PaymentCredentialsView> {
  const { accessToken, webhookSecret, apiBase } = checkPaymentCredentials(provider, input);
  return await engine.transaction(async (tx) => {
    // Taken first: every node's copy of the credentials (kept-payment-credentials.ts) reads this restaurant again.
    await tx.takeRestaurant(restaurantId);
    if (!await tx.stores.restaurants.get(restaurantId)) throw notFound(`unknown restaurant ${restaurantId}`);
    const now = engine.clock.now();
    await tx.stores.paymentCredentials.set({
      restaurant_id: restaurantId,
      provider,
      access_token: accessToken,
      webhook_secret: webhookSecret,
      api_base: apiBase,
      created_at: now,
      updated_at: now,
    });
    return (await viewOf(engine, tx, restaurantId, provider))!;
  });
}

export async function showPaymentCredentials(engine: Engine, restaurantId: string, provider: string, callerTx?: ReadTransaction): Promise<PaymentCredentialsView | null> {
  return await engine.readWithin(callerTx, async (tx) => {
    knownPaymentProvider(provider);
    if (!await tx.stores.restaurants.get(restaurantId)) throw notFound(`unknown restaurant ${restaurantId}`);
    return await viewOf(engine, tx, restaurantId, provider);
  });
}

export async function removePaymentCredentials(engine: Engine, restaurantId: string, provider: string): Promise<boolean> {
  knownPaymentProvider(provider);
  return await engine.transaction(async (tx) => {
    await tx.takeRestaurant(restaurantId);
    return await tx.stores.paymentCredentials.remove(restaurantId, provider);
  });
}

/**
 * The credentials `npm run payments` keeps in the database, read on every use (a change is seen by
 * the next one). Synchronous (PaymentCredentialsSource is asked inside order writes, from the payment
 * providers' registry): on SQLite from the store, on PostgreSQL from the node's copy in memory,
 * kept right by every node's commits (kept-payment-credentials.ts).
 */
export function storedPaymentCredentials(engine: Engine): PaymentCredentialsSource {
  if (engine.kind === 'postgres') return keptPaymentCredentials(engine).source;
  return databasePaymentCredentials(engine.sqliteStores.paymentCredentials);
}
