import { createMercadoPagoProvider, MERCADOPAGO_PROVIDER_NAME } from './mercadopago.ts';
import type { PaymentCredentialsSource } from './payment-credentials-source.ts';
import type { PaymentProvider } from './payment-provider.ts';
import type { World } from '../../shared/world.ts';

/**
 * The providers restaurants configured (`npm run payments`, or the desktop's Ajustes → Pagos en
 * línea): Mercado Pago for the live world, built from the credentials the source holds when asked,
 * so a change made by the CLI (another process) or the app is seen by the next order. The test
 * world keeps the sandbox simulator.
 */
export function configuredPaymentProviders(credentialsOf: PaymentCredentialsSource): (restaurantId: string, world: World) => PaymentProvider | null {
  const built = new Map<string, { token: string; apiBase: string; provider: PaymentProvider }>();
  return (restaurantId, world) => {
    if (world !== 'live') return null;
    const credentials = credentialsOf(restaurantId, MERCADOPAGO_PROVIDER_NAME);
    if (!credentials) {
      built.delete(restaurantId);
      return null;
    }
    const kept = built.get(restaurantId);
    if (kept && kept.token === credentials.accessToken && kept.apiBase === credentials.apiBase) return kept.provider;
    const provider = createMercadoPagoProvider({ accessToken: credentials.accessToken, apiBase: credentials.apiBase });
    built.set(restaurantId, { token: credentials.accessToken, apiBase: credentials.apiBase, provider });
    return provider;
  };
}
