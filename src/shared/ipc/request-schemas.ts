// The shape of every request of the contract (contract.ts), checked before a handler runs on either
// transport: the window and a tablet are treated like any other client, never trusted to send what
// their types say.
import Type, { type TSchema } from 'typebox';
import { PATCH_TARGETS } from '../order-states.ts';
import type { IpcChannel } from './contract.ts';
import { Uuid } from '../schemas/common.ts';
import { LANGUAGES } from '../locale.ts';

const Empty = Type.Object({});
const WorldField = Type.Enum(['live', 'test']);
/** A screen's key for one change (pending-slice.ts makes 32 hex digits): applied once. */
const ChangeId = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' });

export const REQUEST_SCHEMAS: { [C in IpcChannel]: TSchema } = {
  'app:info': Empty,
  'sync:status': Empty,
  'app:backup': Empty,
  'app:restart': Empty,
  'board:snapshot': Empty,
  'orders:transition': Type.Object({ order_id: Uuid(), target: Type.Enum([...PATCH_TARGETS]), change_id: Type.Optional(ChangeId) }),
  'items:set-done': Type.Object({
    order_id: Uuid(),
    item_index: Type.Integer({ minimum: 0, maximum: 999 }),
    done: Type.Boolean(),
    change_id: Type.Optional(ChangeId),
  }),
  'orders:recall': Type.Object({ order_id: Uuid() }),
  'stock:read': Type.Object({ location_id: Uuid(), world: WorldField }),
  'stock:set': Type.Object({
    location_id: Uuid(),
    world: WorldField,
    items: Type.Array(
      Type.Object({ product_id: Uuid(), quantity: Type.Integer({ minimum: 0, maximum: 1_000_000 }) }),
      { minItems: 1, maxItems: 500 },
    ),
  }),
  'locations:list': Type.Object({ world: WorldField }),
  'locations:set-open': Type.Object({ location_id: Uuid(), world: WorldField, open: Type.Boolean() }),
  'keys:list': Empty,
  'keys:create': Type.Object({
    mode: WorldField,
    write: Type.Boolean(),
    label: Type.Union([Type.String({ maxLength: 100 }), Type.Null()]),
  }),
  'keys:revoke': Type.Object({ key_id: Type.String({ minLength: 1, maxLength: 64 }) }),
  'settings:get': Empty,
  'settings:update': Type.Object({
    language: Type.Optional(Type.Enum([...LANGUAGES])),
    theme: Type.Optional(Type.Enum(['dark', 'light'])),
    sound: Type.Optional(Type.Boolean()),
    thresholds: Type.Optional(
      Type.Object({
        warn_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 240 })),
        late_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 240 })),
      }),
    ),
    http: Type.Optional(
      Type.Object({
        port: Type.Optional(Type.Integer({ minimum: 1024, maximum: 65535 })),
        lan: Type.Optional(Type.Boolean()),
      }),
    ),
    restaurant_id: Type.Optional(Type.Union([Uuid(), Type.Null()])),
    connection: Type.Optional(
      Type.Object({
        mode: Type.Optional(Type.Enum(['standalone', 'connected'])),
        platform_url: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 500 }), Type.Null()])),
      }),
    ),
  }),
  'platform:set-key': Type.Object({
    key: Type.String({ minLength: 1, maxLength: 200 }),
    label: Type.Union([Type.String({ maxLength: 100 }), Type.Null()]),
  }),
  'platform:clear-key': Empty,
  'mail:set-smtp': Type.Object({ url: Type.String({ minLength: 1, maxLength: 2000 }), from: Type.Union([Type.String({ maxLength: 254 }), Type.Null()]) }),
  'mail:clear-smtp': Empty,
  'devices:list': Empty,
  'devices:pair': Type.Object({ name: Type.Union([Type.String({ maxLength: 60 }), Type.Null()]) }),
  'devices:revoke': Type.Object({ device_id: Uuid() }),
  'devices:pairing-lockout': Empty,
};
