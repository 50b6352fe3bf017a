import type { World } from '../../shared/world.ts';
import type { PaymentCredentialsSource } from './payment-credentials-source.ts';
import type { PaymentProviderRegistry } from './payment-provider-registry.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { PAYMENT_PROVIDER_ENTRIES } from './payment-providers.ts';

/**
 * The providers restaurants configured (`npm run payments`, or the desktop's Ajustes → Pagos en
 * línea): for the live world, the first provider of the registry the restaurant has credentials
 * for, built from what the source holds when asked, so a change made by the CLI (another process)
 * or the app is seen by the next order. The test world keeps the sandbox simulator.
 */
export function configuredPaymentProviders(
  credentialsOf: PaymentCredentialsSource,
  registry: PaymentProviderRegistry = PAYMENT_PROVIDER_ENTRIES,
): (restaurantId: string, world: World) => PaymentProvider | null {
  const built = new Map<string, { name: string; token: string; apiBase: string; provider: PaymentProvider }>();
  return (restaurantId, world) => {
    if (world !== 'live') return null;
    for (const entry of registry.values()) {
      const credentials = credentialsOf(restaurantId, entry.name);
      if (!credentials) continue;
      const kept = built.get(restaurantId);
      if (kept && kept.name === entry.name && kept.token === credentials.accessToken && kept.apiBase === credentials.apiBase) return kept.provider;
      const provider = entry.create(credentials);
      built.set(restaurantId, { name: entry.name, token: credentials.accessToken, apiBase: credentials.apiBase, provider });
      return provider;
    }
    built.delete(restaurantId);
    return null;
  };
}
