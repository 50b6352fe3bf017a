// The kitchen screen for browser tablets, on the engine's HTTP port apart from the public /v1 API:
// the built page at /kitchen/, pairing at /kitchen/pair, one endpoint per kitchen channel of the
// contract at /kitchen/api/<channel>, and the live stream at /kitchen/live. Every call and every
// live message checks the device token (cookie); desktop-only channels do not exist for a tablet.
// Every kitchen request must name this machine in its Host, and every call a page's script makes
// must come from the engine's own origin (request-origin.ts); a paired screen's writes are limited
// per device. Every answer, refusals, body-parse errors and 404s included, is `{ ok: false, error }`
// with the security headers.
// Where the host opens the manager's screens to a browser (`npm start` without Electron: options
// `admin`), a browser holding an admin session (admin-session.ts) gets every channel of the
// contract through the same dispatch and handlers the window's IPC uses, from loopback only.
import { PICKUP_CHANNELS } from '../../../shared/screen-contract/pickup.ts';
import { createHash } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ScreenFailure, ScreenResult } from '../../../shared/screen-contract/contract.ts';
import { dispatch, type ScreenHandlers } from '../../screen/dispatch.ts';
import { DEVICE_UNPAIRED, ERROR_STATUS, KITCHEN_ERROR_STATUS } from '../../../shared/error-codes.ts';
import type { ConnectionStatus } from '../../../shared/screen-contract/kitchen.ts';
import { ApiError, KitchenError } from '../../domain/errors.ts';
import { toFailure } from '../../screen/screen-errors.ts';
import { createKitchenHandlers, type KitchenHandlers } from '../../screen/kitchen-handlers.ts';
import { DEFAULT_HEARTBEAT_MS, STANDALONE_STATUS } from '../../screen/live-hub.ts';
import { screenStations } from '../../services/kitchen/screen-stations.ts';
import { addressKey } from '../../domain/token-bucket.ts';
import {
  DEFAULT_PAIRING_LIMITS,
  authenticateDevice,
  deviceStillPaired,
  pairWithCode,
  pairWithSecret,
  takePairingAttempt,
  type DeviceIdentity,
} from '../../services/kitchen/kitchen-devices.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { TokenBucketLimiter, type RateLimitSettings } from '../rate-limiter.ts';
import { adminRefusalOf, adminSessionOf, setAdminCookie, type AdminSessions } from './admin-session.ts';
import { deviceTokenOf, setDeviceCookie } from './device-cookie.ts';
import { liveStreams, type LiveStreamLimits, type LiveStreamStats } from './live-stream.ts';
import { allowedHosts, kitchenRequestRefusal, requestOriginOf } from './request-origin.ts';
import { notFound, securityHeaders, sendKitchenFile } from './static-files.ts';

export interface KitchenDoorOptions {
  /** The built kitchen screen (out/renderer); null or absent: /kitchen/ says to build it. */
  rendererDir?: string | null;
  /** How often the live stream's heartbeat goes out (the screen calls itself stale after three missed). */
  heartbeatMs?: number;
  /** What the heartbeat reports about this engine's connection (the desktop app's, in connected mode). */
  connectionStatus?: () => ConnectionStatus | Promise<ConnectionStatus>;
  /** Pairing attempts per client address (an IPv6 client by its /64), kept in SQLite. */
  pairingLimits?: RateLimitSettings;
  /** Writes (calls to /kitchen/api/…) per paired screen. */
  deviceWriteLimits?: RateLimitSettings;
  /** Names this machine answers to besides loopback and its own addresses (e.g. cocina.local). */
  hostNames?: readonly string[];
  /** Live streams per screen and in all. */
  liveLimits?: Partial<LiveStreamLimits>;
  /** Handed the live streams' counters once they exist (tests and the bench read them). */
  observeLive?(stats: () => LiveStreamStats): void;
  /** The manager's screens for a browser on this machine (`npm start` without Electron); absent: tablets only. */
  admin?: AdminAccess;
}

/** What the manager's browser reaches: every channel, through the handlers the window's IPC uses. */
export interface AdminAccess {
  sessions: AdminSessions;
  /** The app's handlers and restaurant, once the host has made them (null before: 503). */
  current(): { handlers: ScreenHandlers; restaurantId: string } | null;
  /** Told when a one-time link was spent (the host may print another one). */
  onRedeemed?(): void;
}

/** A burst no cook reaches (twenty taps at once), then ten a second, per paired screen. */
const DEFAULT_DEVICE_WRITE_LIMITS: RateLimitSettings = { capacity: 20, refillPerSecond: 10 };

const adminRefused = (why: string): ScreenFailure => ({
  code: 'forbidden',
  message: `the manager's screens answer only a browser on this machine, on the app's own page (${why})`,
});

/** The refusal a screen gets without a valid device token: it shows its pairing page. */
const UNPAIRED_MESSAGE = 'this screen is not paired (or was revoked): pair it again from the counter';
const unpaired = (): ScreenFailure => ({ code: DEVICE_UNPAIRED, message: UNPAIRED_MESSAGE });

const ADMIN_LINK_PAGE = (why: string) => `<!doctype html><html lang="es"><meta charset="utf-8"><title>Comanda</title>
<body style="font-family:sans-serif;padding:2em"><h1>Este enlace no sirve</h1>
<p>Los enlaces que muestra <code>npm start</code> sirven una sola vez, durante 10 minutos, y solo en este equipo.
Usa el más reciente de la terminal (Enter allí muestra uno nuevo).</p>
<p lang="en">${why}. Use the latest link in the terminal running <code>npm start</code> (press Enter there for a new one).</p></body></html>`;

function statusOf(failure: ScreenFailure): number {
  const statuses: Record<string, number> = { ...ERROR_STATUS, ...KITCHEN_ERROR_STATUS };
  return statuses[failure.code] ?? 500;
}

export async function registerKitchenDoor(app: ApiServer, context: HttpContext, options: KitchenDoorOptions): Promise<void> {
  const { engine, commands } = context;
  const rendererDir = options.rendererDir ?? null;
  const pairingLimits = options.pairingLimits ?? DEFAULT_PAIRING_LIMITS;
  const writeLimiter = new TokenBucketLimiter(options.deviceWriteLimits ?? DEFAULT_DEVICE_WRITE_LIMITS, engine.clock);
  const hostAllowed = allowedHosts(options.hostNames ?? []);
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
    ...(options.liveLimits ? { limits: options.liveLimits } : {}),
  });
  options.observeLive?.(() => streams.stats());
  app.addHook('preClose', (done) => {
    streams.closeAll();
    done();
  });

  const deviceOf = async (request: FastifyRequest): Promise<DeviceIdentity | null> => {
    const token = deviceTokenOf(request);
    return token === null ? null : await authenticateDevice(engine, token);
  };
  /** The admin session this request presents, when the host serves the manager's screens: valid, refused (why) or none. */
  const adminOf = (request: FastifyRequest, requireOrigin: boolean): { ok: true } | { ok: false; why: string } | null => {
    const admin = options.admin;
    const session = admin ? adminSessionOf(request) : null;
    if (!admin || session === null || !admin.sessions.isSession(session)) return null;
    const refusal = adminRefusalOf(request, { requireOrigin });
    return refusal === null ? { ok: true } : { ok: false, why: refusal.replace('_', ' ') };
  };
  /** The stations a kitchen screen says its stream's board shows (`?stations=a,b`; none said: every station). */
  const stationsOf = async (request: FastifyRequest, restaurantId: string): Promise<ScreenResult<string[] | null>> => {
    try {
      return { ok: true, value: await screenStations(engine, restaurantId, (request.query as Record<string, unknown> | undefined)?.stations) };
    } catch (error) {
      return { ok: false, error: toFailure(error, (e) => request.log.error({ err: e }, 'reading a screen\'s stations failed')) };
    }
  };
  const answer = (reply: FastifyReply, result: ScreenResult<unknown>) =>
    securityHeaders(reply).header('Cache-Control', 'no-store').code(result.ok ? 200 : statusOf(result.error)).send(result);

  /**
   * Spends a pairing URL's secret or six digits typed for this browser; the refusal says why without
   * saying which exist. Only six digits typed spend the address's pairing attempts: they could be
   * guessed. A URL's secret (256 random bits) cannot, so it spends none, and no flood of requests
   * from other addresses (which drains the shared bucket past the buckets kept) can keep a QR code
   * from pairing; a URL without a well-formed secret pairs nothing and spends nothing either.
   */
  const pair = async (request: FastifyRequest, reply: FastifyReply, offered: { secret: unknown } | { code: unknown }): Promise<ScreenResult<{ device_id: string; name: string }>> => {
    try {
      const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
      if ('secret' in offered) {
        const paired = await pairWithSecret(engine, text(offered.secret));
        setDeviceCookie(reply, paired.token);
        return { ok: true, value: { device_id: paired.device.id, name: paired.device.name } };
      }
      const decision = await takePairingAttempt(engine, addressKey(request.socket.remoteAddress), pairingLimits);
      if (!decision.allowed) {
        reply.header('Retry-After', decision.retryAfterSeconds);
        return { ok: false, error: { code: 'rate_limited', message: `too many pairing attempts from this address; retry after ${decision.retryAfterSeconds} s` } };
      }
      const paired = await pairWithCode(engine, text(offered.code));
      setDeviceCookie(reply, paired.token);
      return { ok: true, value: { device_id: paired.device.id, name: paired.device.name } };
    } catch (error) {
      return { ok: false, error: error instanceof ApiError ? toFailure(error) : toFailure(error, (e) => request.log.error({ err: e }, 'pairing failed')) };
    }
  };

  /** A page's navigation (a link, the QR code's URL, an address typed): no Origin to check, only the Host. */
  const navigation = { config: { public: true, navigation: true }, schema: { hide: true } } as const;
  const routeOptions = { config: { public: true }, schema: { hide: true } } as const;
  const withBody = { config: { public: true }, schema: { hide: true, body: {} } } as const;

  await app.register(
    async (kitchen) => {
      const door = kitchen as unknown as ApiServer;
      kitchen.addHook('onRequest', async (request, reply) => {
        const isNavigation = (request.routeOptions.config as { navigation?: boolean } | undefined)?.navigation === true;
        const refusal = kitchenRequestRefusal(requestOriginOf(request), hostAllowed, { navigation: isNavigation });
        if (refusal === null) return;
        const message =
          refusal === 'foreign_host'
            ? 'the kitchen answers only requests addressed to this machine (loopback, its own address or a configured name)'
            : "the kitchen answers a page's calls only from its own origin";
        return answer(reply, { ok: false, error: { code: 'forbidden', message } });
      });
      // Body-parse errors, oversized bodies and the like: the kitchen's shape, not the /v1 one.
      kitchen.setErrorHandler((error: FastifyError, request, reply) => {
        const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
        if (status === 500) request.log.error({ err: error }, 'kitchen request failed');
        const code = status === 500 ? 'internal_error' : status === 413 ? 'payload_too_large' : 'invalid_request';
        const message = status === 500 ? 'internal error; the request was not completed' : `the request could not be read (${error.code ?? 'bad request'})`;
        return securityHeaders(reply).header('Cache-Control', 'no-store').code(status).send({ ok: false, error: { code, message } });
      });
      kitchen.setNotFoundHandler((_request, reply) => notFound(reply));
      // The QR code's URL: pairs this browser and lands on the board (or on the pairing page, saying why not).
      door.get('/pair', navigation, async (request, reply) => {
        // A HEAD (a link preview, a prefetch, a scanner checking the URL) spends nothing: only a GET pairs.
        if (request.method === 'HEAD') return securityHeaders(reply).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send();
        const result = await pair(request, reply, { secret: (request.query as Record<string, unknown>).secret });
        const where = result.ok ? './' : `./?pairing=${result.error.code === 'rate_limited' ? 'rate_limited' : 'refused'}`;
        return securityHeaders(reply).header('Cache-Control', 'no-store').redirect(where, 303);
      });
      // The pairing page's form (the six digits typed by hand).
      door.post('/pair', withBody, async (request, reply) => {
        const body = request.body as Record<string, unknown> | undefined;
        return answer(reply, await pair(request, reply, { code: body?.code }));
      });
      // The one-time link printed by `npm start` without Electron: spent for an admin session cookie.
      door.get('/admin', navigation, (request, reply) => {
        securityHeaders(reply).header('Cache-Control', 'no-store');
        const admin = options.admin;
        if (!admin) return notFound(reply);
        // A HEAD (a link preview, a prefetch) never spends the one-time link: the browser's GET must find it unused.
        if (request.method === 'HEAD') return reply.type('text/html; charset=utf-8').send();
        // No Origin on a navigation; the address and the Host are checked all the same.
        const refusal = adminRefusalOf(request, { requireOrigin: false });
        if (refusal !== null) return reply.code(403).type('text/html; charset=utf-8').send(ADMIN_LINK_PAGE(`this link works only in a browser on the machine that runs Comanda (${refusal.replace('_', ' ')})`));
        const session = admin.sessions.redeem(String((request.query as Record<string, unknown>).token ?? ''));
        if (session === null) return reply.code(403).type('text/html; charset=utf-8').send(ADMIN_LINK_PAGE('this link was already used or has expired'));
        admin.onRedeemed?.();
        setAdminCookie(reply, session);
        return reply.redirect('./', 303);
      });
      // Whether this browser is paired (or the manager's): the page asks before it draws anything.
      door.get('/session', routeOptions, async (request, reply) => {
        const admin = adminOf(request, false);
        if (admin?.ok) return answer(reply, { ok: true, value: { paired: true, admin: true } });
        const device = await deviceOf(request);
        return answer(reply, device ? { ok: true, value: { paired: true, admin: false, role: device.role } } : { ok: false, error: unpaired() });
      });
      door.post('/api/:channel', withBody, async (request, reply) => {
        const { channel } = request.params as { channel: string };
        const admin = adminOf(request, true);
        if (admin !== null) {
          if (!admin.ok) return answer(reply, { ok: false, error: adminRefused(admin.why) });
          const handlers = () => {
            const current = options.admin!.current();
            if (!current) throw new KitchenError('engine_unreachable', 'the app is still starting');
            return current.handlers;
          };
          const log = (error: unknown) => request.log.error({ err: error }, 'admin handler failed');
          return answer(reply, await dispatch({ reach: 'all', handlers, log }, channel, request.body));
        }
        // The channel first (a desktop one does not exist here), then the device, its role and its write budget.
        const handlers = async (known: string) => {
          const device = await deviceOf(request);
          if (!device) throw new KitchenError(DEVICE_UNPAIRED, UNPAIRED_MESSAGE);
          // The pickup screen reads its numbers and nothing else: every other channel is refused.
          if (device.role === 'pickup' && !(PICKUP_CHANNELS as readonly string[]).includes(known)) {
            throw new ApiError('forbidden', `a pickup screen may only use ${PICKUP_CHANNELS.join(', ')}`);
          }
          const decision = writeLimiter.take(device.deviceId);
          if (!decision.allowed) {
            reply.header('Retry-After', decision.retryAfterSeconds);
            throw new ApiError('rate_limited', `too many changes from this screen; retry after ${decision.retryAfterSeconds} s`);
          }
          return handlersFor(device.restaurantId);
        };
        const log = (error: unknown) => request.log.error({ err: error }, 'kitchen handler failed');
        return answer(reply, await dispatch({ reach: 'kitchen', handlers, log }, channel, request.body));
      });
      door.get('/live', routeOptions, async (request, reply) => {
        const admin = adminOf(request, false);
        if (admin !== null) {
          if (!admin.ok) return answer(reply, { ok: false, error: adminRefused(admin.why) });
          const current = options.admin!.current();
          if (!current) return answer(reply, { ok: false, error: { code: 'engine_unreachable', message: 'the app is still starting' } });
          const session = adminSessionOf(request)!;
          // Each admin session is its own viewer (its streams capped and checked apart); the key is a digest, never the secret.
        const owner = `admin:${createHash('sha256').update(session).digest('base64url').slice(0, 16)}`;
          const shown = await stationsOf(request, current.restaurantId);
          if (!shown.ok) return answer(reply, shown);
          await streams.open(request, reply, {
            restaurantId: current.restaurantId,
            owner,
            stillAllowed: () => options.admin!.sessions.isSession(session),
            stations: shown.value,
          });
          return reply;
        }
        const device = await deviceOf(request);
        if (!device) return answer(reply, { ok: false, error: unpaired() });
        const shown = await stationsOf(request, device.restaurantId);
        if (!shown.ok) return answer(reply, shown);
        await streams.open(request, reply, {
          restaurantId: device.restaurantId,
          owner: device.deviceId,
          stillAllowed: async () => await deviceStillPaired(engine, device.deviceId),
          pickup: device.role === 'pickup',
          stations: shown.value,
        });
        return reply;
      });
      // The page and its files. /kitchen without the slash would break the page's relative paths.
      door.get('/', navigation, (request, reply) => {
        if (!request.url.split('?')[0]!.endsWith('/')) return reply.redirect('/kitchen/', 308);
        return sendKitchenFile(reply, rendererDir, 'index.html');
      });
      door.get('/*', navigation, (request, reply) => sendKitchenFile(reply, rendererDir, (request.params as { '*': string })['*']));
    },
    { prefix: '/kitchen' },
  );
}
