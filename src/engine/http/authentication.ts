import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.ts';
import type { Engine } from '../engine.ts';
import type { Actor } from '../domain/actor.ts';
import { authenticate, knownActor } from '../services/keys/api-keys.ts';
import { sendApiError } from './error-replies.ts';
import type { RateLimitDecision, TokenBucketLimiter } from './rate-limiter.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /** Routes that need no API key (the OpenAPI document, the sandbox payment page). */
    public?: boolean;
  }
}

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

function setRateLimitHeaders(reply: FastifyReply, decision: RateLimitDecision): void {
  reply.header('RateLimit-Limit', decision.limit);
  reply.header('RateLimit-Remaining', decision.remaining);
  reply.header('RateLimit-Reset', decision.resetSeconds);
}

function refuseForRate(reply: FastifyReply, decision: RateLimitDecision, who: string): FastifyReply {
  reply.header('Retry-After', decision.retryAfterSeconds);
  return sendApiError(
    reply,
    new ApiError('rate_limited', `too many requests ${who}; retry after ${decision.retryAfterSeconds} s`),
  );
}

/**
 * Every non-public route: the bearer key must be valid, then the key's bucket must have a token.
 * Failed authentications spend the client address's bucket; an address whose bucket is empty is
 * refused before any key is checked, so guessing keys is slow.
 */
export function installAuthentication(
  app: FastifyInstance,
  engine: Engine,
  limiters: { perKey: TokenBucketLimiter; perHubKey: TokenBucketLimiter; unauthenticated: TokenBucketLimiter },
): void {
  app.decorateRequest('actor', null);
  // A callback hook, not an async one: a refusal is sent and `done` is not called. The key is looked
  // up through the async stores (one awaited read); a request without one goes on in the same task.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (request.routeOptions.config?.public) return done();
    // Unknown routes answer 404 whatever the key: the route table is no secret.
    if (request.is404) return done();
    const header = request.headers.authorization;
    const presented = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    if (presented === undefined) return admit(request, reply, null, presented, done);
    const known = knownActor(engine, presented);
    if (known) return admit(request, reply, known, presented, done);
    authenticate(engine, presented).then(
      (actor) => admit(request, reply, actor, presented, done),
      (error: unknown) => done(error as Error),
    );
  });

  // The address limit applies to unauthenticated requests only (api-v1-decisions.md): a store
  // front sharing an address (a NAT, a kitchen LAN) with a misconfigured client keeps working.
  // Guessing stays hopeless: keys carry 190 bits, and 30 wrong ones a minute is all it gets.
  function admit(request: FastifyRequest, reply: FastifyReply, actor: Actor | null, presented: string | undefined, done: (error?: Error) => void): void {
    if (!actor) {
      const decision = limiters.unauthenticated.take(`ip:${request.ip}`);
      if (!decision.allowed) return void refuseForRate(reply, decision, 'without a valid API key from this address');
      reply.header('WWW-Authenticate', 'Bearer');
      return void sendApiError(
        reply,
        new ApiError(
          'unauthorized',
          presented === undefined
            ? 'missing API key: send Authorization: Bearer <key>'
            : 'invalid API key (unknown, malformed or revoked)',
        ),
      );
    }
    // A hub's key spends its own budget (issue 35): a backlog pushed after an outage is never
    // refused by the store fronts' limits, and a store front never borrows a hub's.
    const decision = (actor.hub ? limiters.perHubKey : limiters.perKey).take(`key:${actor.keyId}`);
    setRateLimitHeaders(reply, decision);
    if (!decision.allowed) return void refuseForRate(reply, decision, 'for this API key');
    request.actor = actor;
    done();
  }
}

/** The authenticated actor of a non-public route. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new ApiError('unauthorized', 'missing API key: send Authorization: Bearer <key>');
  return request.actor;
}
