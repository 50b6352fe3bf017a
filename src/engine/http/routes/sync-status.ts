import Type from 'typebox';
import { WORLDS } from '../../../shared/world.ts';
import { ErrorBody } from '../../../shared/schemas/errors.ts';
import { actorOf } from '../authentication.ts';
import type { ApiServer, ReplicaDoor } from '../http-context.ts';
import type { Engine } from '../../engine.ts';
import { readFreeSpace } from '../../services/storage/free-space.ts';

const SyncStatus = Type.Object({
  online: Type.Boolean(),
  last_pull_at: Type.Union([Type.String(), Type.Null()]),
  lag_ms: Type.Union([Type.Integer(), Type.Null()]),
  outbox_pending: Type.Integer(),
  conflicts: Type.Array(Type.Unknown()),
  last_error: Type.Union([Type.String(), Type.Null()]),
  last_check_at: Type.Union([Type.String(), Type.Null()]),
  conflicts_unresolved: Type.Integer(),
  last_check: Type.Union([Type.Object({ compared: Type.Integer(), diverged: Type.Integer(), healed: Type.Integer() }), Type.Null()]),
  upstream: Type.String(),
  mode: Type.Enum([...WORLDS]),
  disk: Type.Object(
    {
      free_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'Free bytes beside the database; null when it cannot be told.' }),
      low: Type.Boolean({ description: 'True below 256 MB free: writes stop when the disk is full, and a start needs 64 MB.' }),
    },
    { description: 'Engine addition: the free disk beside the replica\'s database.' },
  ),
});

/** GET /sync/status: only a replica has one. */
export function registerSyncStatusRoute(app: ApiServer, replica: ReplicaDoor, engine: Engine): void {
  app.get(
    '/sync/status',
    { schema: { tags: ['sync'], summary: 'The replica\'s sync status', response: { 200: SyncStatus, '4xx': ErrorBody } } },
    async (request) => {
      actorOf(request);
      return { ...((await replica.status()) as object), disk: readFreeSpace(engine) } as Type.Static<typeof SyncStatus>;
    },
  );
}
