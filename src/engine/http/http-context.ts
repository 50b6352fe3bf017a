import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Engine } from '../engine.ts';
import type { NodeHealth } from '../node-health.ts';
import type { Providers } from '../providers.ts';
import type { EngineCommands } from '../services/engine-commands.ts';
import type { Actor } from '../domain/actor.ts';
import type { QuoteInput } from '../../shared/schemas/delivery.ts';

export type ApiServer = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What the routes need besides the request: the engine and the outside parties it talks to. */
export interface HttpContext {
  engine: Engine;
  /** The writes, applied locally or (in a replica) also queued for the upstream. */
  commands: EngineCommands;
  /** Payment providers (sessions opened for online orders) and couriers (delivery quotes), assembled where the app starts. */
  providers: Providers;
  /** How long a payment provider may take to open a session before the order is withdrawn (503); default 10 s. */
  paymentTimeoutMs?: number;
  /** Overrides the origin taken from the request's Host for links to this engine (payment pages). */
  publicOrigin?: string;
  /** Present when the engine is a replica of an upstream platform. */
  replica?: ReplicaDoor;
  /** What GET /v1/health reports: this node and whether it can write (default: the SQLite engine's, named by the machine). */
  health?: NodeHealth;
  /** false answers order reads without the kept response bytes (to compare with them); default true. */
  keepOrderResponses?: boolean;
}

/** What only the upstream can do, reached through the replica, and the replica's sync status. */
export interface ReplicaDoor {
  forwardOnlineOrder(actor: Actor, body: unknown, idempotencyKey: string | undefined): Promise<{ status: number; body: unknown }>;
  quoteDelivery(actor: Actor, input: QuoteInput): Promise<{ status: number; body: unknown }>;
  status(): Promise<unknown>;
}
