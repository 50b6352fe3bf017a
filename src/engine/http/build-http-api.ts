import Fastify, { errorCodes, type FastifyBaseLogger, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv, type Options as AjvOptions } from 'ajv';
import addFormats from 'ajv-formats';
import type { Clock } from '../clock.ts';
import { installAuthentication } from './authentication.ts';
import { BODY_LIMIT_BYTES, installErrorReplies } from './error-replies.ts';
import type { ApiServer, HttpContext } from './http-context.ts';
import { installIdempotencyFingerprint } from './idempotency.ts';
import { TokenBucketLimiter, type RateLimitSettings } from './rate-limiter.ts';
import { registerCatalogueRoutes } from './routes/catalogue.ts';
import { registerEventRoutes } from './routes/events.ts';
import { registerLocationRoutes } from './routes/locations.ts';
import { registerOrderRoutes } from './routes/orders.ts';
import { registerSandboxPayRoutes } from './routes/sandbox-pay.ts';
import { registerSyncStatusRoute } from './routes/sync-status.ts';

export interface RateLimits {
  perKey: RateLimitSettings;
  unauthenticated: RateLimitSettings;
}

/** api-v1-decisions.md: 120 requests refilled at 2/s per key; 30 a minute per address without a key. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  perKey: { capacity: 120, refillPerSecond: 2 },
  unauthenticated: { capacity: 30, refillPerSecond: 0.5 },
};

export interface HttpApiOptions extends HttpContext {
  rateLimits?: RateLimits;
  logger?: FastifyBaseLogger | boolean;
}

function ajvFor(options: AjvOptions): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: false, strict: false, ...options });
  addFormats.default(ajv);
  return ajv;
}

/** A route without a body schema (open, close) takes no body: whatever is sent is ignored. */
const takesNoBody = (request: FastifyRequest): boolean => request.routeOptions.schema?.body === undefined;

/**
 * Bodies are JSON. Any other media type (text/plain too, which Fastify would read as a string) is
 * refused as not JSON; an empty JSON body is fine where the route takes no body.
 */
function installBodyParsers(app: ApiServer): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (takesNoBody(request)) return done(null, undefined);
    json(request, body as string, done);
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, _body, done) => {
    if (takesNoBody(request)) return done(null, undefined);
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
  });
}

/**
 * The Restaurant Ordering API v1 over HTTP. Bodies are validated without type coercion (a string
 * is not a number); query strings and paths are text, so they are coerced.
 */
export async function buildHttpApi(options: HttpApiOptions): Promise<ApiServer> {
  const fastifyOptions: FastifyServerOptions = {
    bodyLimit: BODY_LIMIT_BYTES,
    // Slow clients must not hold sockets forever (a long-poll waits at most 30 s).
    requestTimeout: 60_000,
    connectionTimeout: 120_000,
    keepAliveTimeout: 5_000,
    return503OnClosing: true,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  };
  const app = Fastify({
    ...fastifyOptions,
    ...(typeof options.logger === 'object' ? { loggerInstance: options.logger } : { logger: options.logger ?? false }),
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as ApiServer;

  const bodyAjv = ajvFor({ coerceTypes: false });
  const textAjv = ajvFor({ coerceTypes: true });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object),
  );

  installErrorReplies(app);
  installBodyParsers(app);
  const limits = options.rateLimits ?? DEFAULT_RATE_LIMITS;
  const clock: Clock = options.engine.clock;
  installAuthentication(app, options.engine, {
    perKey: new TokenBucketLimiter(limits.perKey, clock),
    unauthenticated: new TokenBucketLimiter(limits.unauthenticated, clock),
  });
  installIdempotencyFingerprint(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Restaurant Ordering API',
        version: '1.0',
        description: 'The Comanda engine. See docs/api-reference.md for every decision on what the specification leaves open.',
      },
      servers: [{ url: '/v1' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });

  await app.register(
    async (v1) => {
      const api = v1 as unknown as ApiServer;
      registerOrderRoutes(api, options);
      registerCatalogueRoutes(api, options);
      registerLocationRoutes(api, options);
      registerEventRoutes(api, options);
      registerSandboxPayRoutes(api, options);
      if (options.replica) registerSyncStatusRoute(api, options.replica);
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, () => app.swagger());
    },
    { prefix: '/v1' },
  );
  return app;
}
