import type { ConnectionCheck } from '../payment-provider-registry.ts';
import { createMercadoPagoProvider, MercadoPagoError } from './mercadopago-api.ts';

/**
 * One real call with the token against the API base (GET /users/me): the account it belongs to,
 * else why not. The message never carries the token (mercadopago.ts keeps it out of its errors).
 */
export async function checkMercadoPagoConnection(
  credentials: { accessToken: string; apiBase: string },
  timeoutMs = 10_000,
): Promise<ConnectionCheck> {
  const provider = createMercadoPagoProvider(credentials);
  try {
    const me = await provider.whoAmI(AbortSignal.timeout(timeoutMs));
    return { ok: true, user_id: me.id };
  } catch (error) {
    const message = (error as Error).message;
    if (error instanceof MercadoPagoError) {
      return { ok: false, reason: error.status === 401 || error.status === 403 ? 'rejected' : 'failed', error: message };
    }
    // No HTTP answer at all: refused, unknown host, reset, or the timeout.
    const code = (error as { code?: unknown }).code;
    const unreachable = typeof code === 'string' || (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
    return { ok: false, reason: unreachable ? 'unreachable' : 'failed', error: message };
  }
}
