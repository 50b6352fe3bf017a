import Fastify, { errorCodes, type FastifyBaseLogger, type FastifyHttpOptions, type FastifyRequest } from 'fastify';
import type { Server } from 'node:http';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv, type Options as AjvOptions } from 'ajv';
import addFormats from 'ajv-formats';
import type { Clock } from '../clock.ts';
import { invalidRequest } from '../domain/errors.ts';
import { installAuthentication } from './authentication.ts';
import { BODY_LIMIT_BYTES, clientErrorReply, frameworkErrorReply, installErrorReplies } from './error-replies.ts';
import type { ApiServer, HttpContext } from './http-context.ts';
import { answerRefusalOnce, installIdempotencyFingerprint } from './idempotency.ts';
import { SWAGGER_OPTIONS } from './openapi/document.ts';
import { apiLogger } from './request-log.ts';
import { buildSerializerOnFirstUse, validateOnFirstUse } from './compile-on-first-use.ts';
import { illFormedTextIn } from './unicode-text.ts';
import { TokenBucketLimiter, type RateLimitSettings } from './rate-limiter.ts';
import { registerCatalogueRoutes } from './routes/catalogue.ts';
import { registerEventRoutes } from './routes/events.ts';
import { registerLocationRoutes } from './routes/locations.ts';
import { registerReportRoutes } from './routes/reports.ts';
import { registerOrderRoutes } from './routes/orders.ts';
import { registerReadyTimeRoutes } from './routes/ready-time.ts';
import { registerSandboxPayRoutes } from './routes/sandbox-pay.ts';
import { registerPaymentNotificationRoutes } from './routes/payment-notifications.ts';
import { registerSyncStatusRoute } from './routes/sync-status.ts';
import { registerHealthRoute } from './routes/health.ts';
import { sqliteNodeHealth } from '../node-health.ts';
import { registerKitchenSyncRoutes } from './routes/sync-kitchen.ts';
import { registerKitchenDoor, type KitchenDoorOptions } from './kitchen/kitchen-door.ts';

export interface RateLimits {
  perKey: RateLimitSettings;
  unauthenticated: RateLimitSettings;
  /** Issue 35: per hub key (a replica pushing upstream); DEFAULT_RATE_LIMITS.perHubKey when left out. */
  perHubKey?: RateLimitSettings;
}

/**
 * api-v1-decisions.md: 120 requests refilled at 2/s per key; 30 a minute per address without a key.
 * A hub's key (issue 35) comes back from an outage or a failover with its outbox's backlog, one push
 * a change, besides its pulls and divergence checks: 2,000 at once covers a long service's changes
 * offline (300 orders, each created and moved three times, is 1,200), and 20/s is ten store fronts'
 * pace for what follows. Still a bucket per key: bounded, O(1) a request.
 */
export const DEFAULT_RATE_LIMITS: Required<RateLimits> = {
  perKey: { capacity: 120, refillPerSecond: 2 },
  unauthenticated: { capacity: 30, refillPerSecond: 0.5 },
  perHubKey: { capacity: 2_000, refillPerSecond: 20 },
};

/** How long a client may take to send its request, and how often that is checked. */
export interface HttpTimeouts {
  /** The whole request, headers and body (a long-poll's wait is not part of it). */
  requestMs: number;
  /** The request line and headers. */
  headersMs: number;
  /** How often Node looks for requests over these limits. */
  checkEveryMs: number;
}

/** api-reference.md: a client too slow to send its request within 60 s gets 400 and is disconnected. */
export const DEFAULT_TIMEOUTS: HttpTimeouts = { requestMs: 60_000, headersMs: 30_000, checkEveryMs: 1_000 };

/** Request line and headers together, as Node's default. */
export const HEADER_LIMIT_BYTES = 16 * 1024;

export interface HttpApiOptions extends HttpContext {
  rateLimits?: RateLimits;
  logger?: FastifyBaseLogger | boolean;
  timeouts?: HttpTimeouts;
  /** The kitchen screen for paired browser tablets at /kitchen/ (always served; the page needs a built renderer). */
  kitchen?: KitchenDoorOptions;
}

function ajvFor(options: AjvOptions): Ajv {
  // verbose: a refusal's message may come from the schema that refused (`x-message`).
  // discriminator: OpenAPI's, which picks the one branch of a `oneOf` to check by a property's value.
  const ajv = new Ajv({
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    strict: false,
    verbose: true,
    discriminator: true,
    ...options,
  });
  addFormats.default(ajv);
  return ajv;
}

/**
 * A route without a body schema (open, close) takes no body: whatever is sent is ignored. Nor does
 * an unknown route, which is 404 whatever its body.
 */
const takesNoBody = (request: FastifyRequest): boolean => request.is404 || request.routeOptions.schema?.body === undefined;

/**
 * Bodies are JSON. Any other media type (text/plain too, which Fastify would read as a string) is
 * refused as not JSON; an empty JSON body is fine where the route takes no body.
 */
function installBodyParsers(app: ApiServer): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (takesNoBody(request)) return done(null, undefined);
    request.bodyText = body as string;
    void json(request, body as string, (error, parsed) => {
      if (error) return done(error, undefined);
      const illFormed = illFormedTextIn(body as string, parsed);
      if (illFormed !== null) return done(invalidRequest(`${illFormed} holds text that is not valid Unicode (a lone surrogate)`), undefined);
      done(null, parsed);
    });
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    if (takesNoBody(request)) return done(null, undefined);
    request.bodyText = body as string;
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
  });
}

/**
 * The Restaurant Ordering API v1 over HTTP. Bodies are validated without type coercion (a string
 * is not a number); query strings and paths are text, so they are coerced.
 */
export async function buildHttpApi(options: HttpApiOptions): Promise<ApiServer> {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const fastifyOptions: FastifyHttpOptions<Server> = {
    bodyLimit: BODY_LIMIT_BYTES,
    // Slow clients must not hold sockets forever (a long-poll waits at most 30 s, and that wait is
    // not part of receiving the request). Node checks only every connectionsCheckingInterval, 30 s
    // by default, which would let a client trickling its headers keep a socket for 90 s.
    requestTimeout: timeouts.requestMs,
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: timeouts.checkEveryMs, maxHeaderSize: HEADER_LIMIT_BYTES },
    connectionTimeout: 120_000,
    keepAliveTimeout: 5_000,
    // While closing, in-flight keep-alive requests are still answered normally (the engine closes last).
    return503OnClosing: false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // What Fastify and Node refuse before a route runs is answered in the API's error shape too.
    frameworkErrors: frameworkErrorReply,
    clientErrorHandler: clientErrorReply,
    schemaController: { compilersFactory: { buildSerializer: buildSerializerOnFirstUse } },
  };
  const app = Fastify({
    ...fastifyOptions,
    ...apiLogger(options.logger),
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as ApiServer;

  const bodyAjv = ajvFor({ coerceTypes: false });
  const textAjv = ajvFor({ coerceTypes: true });
  // Compiled on first use (compile-on-first-use.ts): an engine carries only the routes it serves.
  app.setValidatorCompiler(({ schema, httpPart }) =>
    validateOnFirstUse(() => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object)),
  );

  installErrorReplies(app, async (request, reply, refusal) => await answerRefusalOnce(options.engine, request, reply, refusal));
  installBodyParsers(app);
  const limits = options.rateLimits ?? DEFAULT_RATE_LIMITS;
  const clock: Clock = options.engine.clock;
  installAuthentication(app, options.engine, {
    perKey: new TokenBucketLimiter(limits.perKey, clock),
    perHubKey: new TokenBucketLimiter(limits.perHubKey ?? DEFAULT_RATE_LIMITS.perHubKey, clock),
    unauthenticated: new TokenBucketLimiter(limits.unauthenticated, clock),
  });
  installIdempotencyFingerprint(app);

  await app.register(swagger, SWAGGER_OPTIONS);

  await app.register(
    async (v1) => {
      const api = v1 as unknown as ApiServer;
      registerOrderRoutes(api, options);
      registerCatalogueRoutes(api, options);
      registerLocationRoutes(api, options);
      registerReadyTimeRoutes(api, options);
      registerReportRoutes(api, options);
      registerEventRoutes(api, options);
      registerSandboxPayRoutes(api, options);
      registerPaymentNotificationRoutes(api, options);
      if (options.replica) registerSyncStatusRoute(api, options.replica, options.engine);
      registerHealthRoute(api, options.health ?? sqliteNodeHealth(options.engine));
      registerKitchenSyncRoutes(api, options);
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, () => app.swagger());
    },
    { prefix: '/v1' },
  );
  await registerKitchenDoor(app, options, options.kitchen ?? {});
  return app;
}
