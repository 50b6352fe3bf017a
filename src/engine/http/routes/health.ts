// Issue 35: GET /v1/health, for load balancers and operators: which node answers, on which database,
// and whether it can write now. No key (a load balancer has none) and no rate limit: its cost is
// bounded by the check's cache (node-health.ts). 200 when it can write, 503 with Retry-After when it
// cannot, so a load balancer checking the status alone takes a node that cannot write out of rotation.
import Type from 'typebox';
import type { NodeHealth } from '../../node-health.ts';
import { STORAGE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../storage-unavailable.ts';
import type { ApiServer } from '../http-context.ts';
import { ErrorBody } from '../../../shared/schemas/errors.ts';

const Health = Type.Object(
  {
    node_id: Type.String({ description: 'The engine node that answered (its `--node-id`, or the machine\'s name).' }),
    database: Type.Enum(['sqlite', 'postgres'], { description: 'The database this node runs on.' }),
    writable: Type.Boolean({ description: 'Whether this node can write now (on PostgreSQL: its database is the leader and answered within 1 s).' }),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why it cannot write; null when it can.' }),
  },
  { 'x-component': 'Health' },
);

export function registerHealthRoute(app: ApiServer, health: NodeHealth): void {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        operationId: 'getHealth',
        summary: 'Which node answers and whether it can write',
        description:
          'No key needed. 200 when this node can write; 503 with `Retry-After` when it cannot (its database is out of reach, a standby during a failover, damaged or full). Checked at most once a second: answers within that second share one check.',
        tags: ['health'],
        security: [],
        response: {
          200: { description: 'This node can write.', content: { 'application/json': { schema: Health } } },
          400: { description: 'A request that is not valid HTTP or cannot be routed, as on every path.', content: { 'application/json': { schema: ErrorBody } } },
          503: {
            description: 'This node cannot write now; reads may still work.',
            headers: { 'Retry-After': { type: 'integer', minimum: 1, description: 'Whole seconds before checking again.' } },
            content: { 'application/json': { schema: Health } },
          },
        },
      },
    },
    async (_request, reply) => {
      const check = await health.canWrite();
      const body = { node_id: health.nodeId, database: health.database, writable: check.writable, reason: check.reason };
      if (!check.writable) reply.code(503).header('retry-after', String(STORAGE_UNAVAILABLE_RETRY_AFTER_SECONDS));
      return body;
    },
  );
}
