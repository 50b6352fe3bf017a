// The kitchen screen for browser tablets, on the engine's HTTP port apart from the public /v1 API:
// the built page at /kitchen/, pairing at /kitchen/pair, one endpoint per kitchen channel of the
// contract at /kitchen/api/<channel>, and the live stream at /kitchen/live. Every call and every
// live message checks the device token (cookie); desktop-only channels do not exist here.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KITCHEN_CHANNELS, isKitchenChannel, type IpcFailure, type IpcResult } from '../../../shared/ipc/contract.ts';
import { ERROR_STATUS, KITCHEN_ERROR_STATUS } from '../../../shared/error-codes.ts';
import type { ConnectionStatus } from '../../../shared/ipc/kitchen.ts';
import { ApiError } from '../../domain/errors.ts';
import { dispatchChannel } from '../../ipc/dispatch.ts';
import { toFailure } from '../../ipc/ipc-errors.ts';
import { createKitchenHandlers, type KitchenHandlers } from '../../ipc/kitchen-handlers.ts';
import { DEFAULT_HEARTBEAT_MS } from '../../ipc/live-feed.ts';
import { STANDALONE_STATUS } from '../../ipc/ports.ts';
import { authenticateDevice, pairWithCode, type DeviceIdentity } from '../../services/kitchen-devices.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { TokenBucketLimiter, type RateLimitSettings } from '../rate-limiter.ts';
import { deviceTokenOf, setDeviceCookie } from './device-cookie.ts';
import { liveStreams } from './live-stream.ts';
import { securityHeaders, sendKitchenFile } from './static-files.ts';

export interface KitchenDoorOptions {
  /** The built kitchen screen (out/renderer); null or absent: /kitchen/ says to build it. */
  rendererDir?: string | null;
  /** How often the live stream's heartbeat goes out (the screen calls itself stale after three missed). */
  heartbeatMs?: number;
  /** What the heartbeat reports about this engine's connection (the desktop app's, in connected mode). */
  connectionStatus?: () => ConnectionStatus;
  /** Pairing attempts per client address. */
  pairingLimits?: RateLimitSettings;
}

/** Ten tries at once, then one a minute per address: a six-digit code cannot be guessed in ten minutes. */
export const DEFAULT_PAIRING_LIMITS: RateLimitSettings = { capacity: 10, refillPerSecond: 1 / 60 };

/** The refusal a screen gets without a valid device token: it shows its pairing page. */
export const DEVICE_UNPAIRED = 'device_unpaired';

const unpaired = (): IpcFailure => ({ code: DEVICE_UNPAIRED, message: 'this screen is not paired (or was revoked): pair it again from the counter' });

function statusOf(failure: IpcFailure): number {
  const statuses: Record<string, number> = { ...ERROR_STATUS, ...KITCHEN_ERROR_STATUS };
  return statuses[failure.code] ?? 500;
}

export async function registerKitchenDoor(app: ApiServer, context: HttpContext, options: KitchenDoorOptions): Promise<void> {
  const { engine, commands } = context;
  const rendererDir = options.rendererDir ?? null;
  const limiter = new TokenBucketLimiter(options.pairingLimits ?? DEFAULT_PAIRING_LIMITS, engine.clock);
  const handlersByRestaurant = new Map<string, KitchenHandlers>();
  const handlersFor = (restaurantId: string): KitchenHandlers => {
    let handlers = handlersByRestaurant.get(restaurantId);
    if (!handlers) {
      handlers = createKitchenHandlers({ engine, commands, restaurantId });
      handlersByRestaurant.set(restaurantId, handlers);
    }
    return handlers;
  };
  const streams = liveStreams({
    engine,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    connectionStatus: options.connectionStatus ?? (() => STANDALONE_STATUS),
  });
  app.addHook('preClose', (done) => {
    streams.closeAll();
    done();
  });

  const deviceOf = (request: FastifyRequest): DeviceIdentity | null => {
    const token = deviceTokenOf(request);
    return token === null ? null : authenticateDevice(engine, token);
  };
  const answer = (reply: FastifyReply, result: IpcResult<unknown>) =>
    securityHeaders(reply).header('Cache-Control', 'no-store').code(result.ok ? 200 : statusOf(result.error)).send(result);

  /** Spends a pairing code for this browser; the refusal says why without saying which codes exist. */
  const pair = (request: FastifyRequest, reply: FastifyReply, code: unknown): IpcResult<{ device_id: string; name: string }> => {
    const decision = limiter.take(`pair:${request.ip}`);
    if (!decision.allowed) {
      reply.header('Retry-After', decision.retryAfterSeconds);
      return { ok: false, error: { code: 'rate_limited', message: `too many pairing attempts from this address; retry after ${decision.retryAfterSeconds} s` } };
    }
    try {
      const paired = pairWithCode(engine, typeof code === 'string' ? code.trim() : '');
      setDeviceCookie(reply, paired.token);
      return { ok: true, value: { device_id: paired.device.id, name: paired.device.name } };
    } catch (error) {
      return { ok: false, error: error instanceof ApiError ? toFailure(error) : toFailure(error, (e) => request.log.error({ err: e }, 'pairing failed')) };
    }
  };

  const routeOptions = { config: { public: true }, schema: { hide: true } } as const;
  const withBody = { config: { public: true }, schema: { hide: true, body: {} } } as const;

  await app.register(
    async (kitchen) => {
      const door = kitchen as unknown as ApiServer;
      // The QR code's URL: pairs this browser and lands on the board (or on the pairing page, saying why not).
      door.get('/pair', routeOptions, (request, reply) => {
        const result = pair(request, reply, (request.query as Record<string, unknown>).code);
        const where = result.ok ? './' : `./?pairing=${result.error.code === 'rate_limited' ? 'rate_limited' : 'refused'}`;
        return securityHeaders(reply).header('Cache-Control', 'no-store').redirect(where, 303);
      });
      // The pairing page's form (the six digits typed by hand).
      door.post('/pair', withBody, (request, reply) => {
        const body = request.body as Record<string, unknown> | undefined;
        return answer(reply, pair(request, reply, body?.code));
      });
      // Whether this browser is paired: the page asks before it draws anything.
      door.get('/session', routeOptions, (request, reply) => {
        const device = deviceOf(request);
        return answer(reply, device ? { ok: true, value: { paired: true } } : { ok: false, error: unpaired() });
      });
      door.post('/api/:channel', withBody, async (request, reply) => {
        const { channel } = request.params as { channel: string };
        if (!isKitchenChannel(channel)) {
          return answer(reply, { ok: false, error: { code: 'not_found', message: `no such kitchen channel: ${channel.slice(0, 60)} (kitchen screens may use ${KITCHEN_CHANNELS.join(', ')})` } });
        }
        const device = deviceOf(request);
        if (!device) return answer(reply, { ok: false, error: unpaired() });
        const log = (error: unknown) => request.log.error({ err: error }, 'kitchen handler failed');
        return answer(reply, await dispatchChannel(handlersFor(device.restaurantId), channel, request.body, log));
      });
      door.get('/live', routeOptions, (request, reply) => {
        const device = deviceOf(request);
        if (!device) return answer(reply, { ok: false, error: unpaired() });
        streams.open(request, reply, device);
        return reply;
      });
      // The page and its files. /kitchen without the slash would break the page's relative paths.
      door.get('/', routeOptions, (request, reply) => {
        if (!request.url.split('?')[0]!.endsWith('/')) return reply.redirect('/kitchen/', 308);
        return sendKitchenFile(reply, rendererDir, 'index.html');
      });
      door.get('/*', routeOptions, (request, reply) => sendKitchenFile(reply, rendererDir, (request.params as { '*': string })['*']));
    },
    { prefix: '/kitchen' },
  );
}
