import Type from 'typebox';
import { ErrorBody, Uuid } from '../../../shared/schemas/common.ts';
import { ApiError, KitchenError } from '../../domain/errors.ts';
import { pollItemFeed, readOrderItemStates } from '../../services/kitchen/kitchen-item-sync.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, HttpContext } from '../http-context.ts';
import { respondToWrite } from '../idempotency.ts';

// The sync door for the kitchen's own data (item bumps): what a replica pushes and pulls with its
// platform key. Not part of the public API: hidden from the OpenAPI document, and the API's feed
// never shows these changes.

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };
const hidden = { hide: true } as const;
const ItemParams = Type.Object({ order_id: Uuid(), item_index: Type.Integer({ minimum: 0, maximum: 999 }) });
const ItemStates = Type.Object({
  order_id: Type.String(),
  data: Type.Array(Type.Object({ item_index: Type.Integer(), done: Type.Boolean() })),
});
const FeedQuery = Type.Object({
  after: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 30 })),
});

const KITCHEN_SYNC_PREFIX = '/sync/kitchen';

export function registerKitchenSyncRoutes(app: ApiServer, context: HttpContext): void {
  const { engine } = context;

  app.get(
    `${KITCHEN_SYNC_PREFIX}/orders/:order_id/items`,
    { schema: { ...hidden, params: Type.Object({ order_id: Uuid() }), response: { 200: ItemStates, ...errors } } },
    async (request) => await readOrderItemStates(engine, actorOf(request), request.params.order_id),
  );

  app.put(
    `${KITCHEN_SYNC_PREFIX}/orders/:order_id/items/:item_index`,
    { schema: { ...hidden, params: ItemParams, body: Type.Object({ done: Type.Boolean() }), response: { 200: ItemStates, ...errors } } },
    async (request, reply) =>
      await respondToWrite(engine, request, reply, 200, async (tx) => {
        const actor = actorOf(request);
        try {
          await context.commands.setItemDone(actor, request.params.order_id, request.params.item_index, request.body.done, tx);
        } catch (error) {
          // The replica records a refusal as a conflict and takes this side's state.
          if (error instanceof KitchenError) throw new ApiError('state_conflict', error.message);
          throw error;
        }
        return await readOrderItemStates(engine, actor, request.params.order_id, tx);
      }),
  );

  app.post(
    `${KITCHEN_SYNC_PREFIX}/orders/:order_id/recall`,
    {
      schema: {
        ...hidden,
        params: Type.Object({ order_id: Uuid() }),
        body: Type.Object({ recalled_until: Type.Integer({ minimum: 0 }) }),
        response: { 200: Type.Object({ order_id: Type.String(), recalled_until: Type.Integer() }), ...errors },
      },
    },
    async (request, reply) =>
      await respondToWrite(engine, request, reply, 200, async (tx) => {
        try {
          const result = await context.commands.recallOrder(actorOf(request), request.params.order_id, request.body.recalled_until, tx);
          return { order_id: result.order.id, recalled_until: result.recalled_until };
        } catch (error) {
          // The replica records a refusal as a conflict.
          if (error instanceof KitchenError) throw new ApiError('state_conflict', error.message);
          throw error;
        }
      }),
  );

  app.get(
    `${KITCHEN_SYNC_PREFIX}/items`,
    { schema: { ...hidden, querystring: FeedQuery, response: { 200: Type.Unknown(), ...errors } } },
    async (request, reply) => {
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const { after, limit, wait } = request.query;
      return await pollItemFeed(engine, actorOf(request), after ?? 0, limit ?? 200, (wait ?? 0) * 1000, gone.signal);
    },
  );
}
