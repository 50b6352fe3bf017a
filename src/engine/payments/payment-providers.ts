import { mercadoPagoEntry } from './mercadopago/mercadopago-entry.ts';
import { paymentProviderRegistry, type PaymentProviderEntry } from './payment-provider-registry.ts';

/**
 * Every payment provider this engine can use, by name. A new provider is its folder under
 * payments/ and one line here: the CLI, the webhook route and Ajustes → Pagos en línea read this list.
 */
export const PAYMENT_PROVIDER_ENTRIES = paymentProviderRegistry(mercadoPagoEntry);

/** The names in the order of the list: what `--provider` and the screen accept. */
export const PAYMENT_PROVIDER_NAMES: readonly string[] = [...PAYMENT_PROVIDER_ENTRIES.keys()];

export function paymentProviderEntry(name: string): PaymentProviderEntry | undefined {
  return PAYMENT_PROVIDER_ENTRIES.get(name);
}
