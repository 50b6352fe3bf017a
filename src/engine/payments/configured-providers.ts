import { createMercadoPagoProvider, MERCADOPAGO_PROVIDER_NAME } from './mercadopago.ts';
import type { PaymentProvider } from './payment-provider.ts';
import type { World } from '../../shared/world.ts';

/** A restaurant's credentials for one provider, as stored (`payment_credentials`). */
export interface StoredCredentials {
  access_token: string;
  api_base: string;
}

/**
 * The providers restaurants configured (`npm run payments`): Mercado Pago for the live world,
 * built from the credentials in the database (`credentialsOf`, read when asked), so a change made by the CLI (another
 * process) is seen by the next order. The test world keeps the sandbox simulator.
 */
export function configuredPaymentProviders(credentialsOf: (restaurantId: string, provider: string) => StoredCredentials | undefined): (restaurantId: string, world: World) => PaymentProvider | null {
  const built = new Map<string, { token: string; apiBase: string; provider: PaymentProvider }>();
  return (restaurantId, world) => {
    if (world !== 'live') return null;
    const credentials = credentialsOf(restaurantId, MERCADOPAGO_PROVIDER_NAME);
    if (!credentials) {
      built.delete(restaurantId);
      return null;
    }
    const kept = built.get(restaurantId);
    if (kept && kept.token === credentials.access_token && kept.apiBase === credentials.api_base) return kept.provider;
    const provider = createMercadoPagoProvider({ accessToken: credentials.access_token, apiBase: credentials.api_base });
    built.set(restaurantId, { token: credentials.access_token, apiBase: credentials.api_base, provider });
    return provider;
  };
}
