import Type from 'typebox';
import { DateTimeOut } from './common.ts';

export const EVENT_TYPES = ['order.created', 'order.updated', 'stock.updated', 'location.updated'] as const;

export const EventsQuery = Type.Object({
  after: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A next_cursor (or event id); none means from now.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 30, default: 0, description: 'Seconds to hold the request while nothing is new.' })),
});

export const EventPage = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.Enum([...EVENT_TYPES]),
      created_at: DateTimeOut(),
      data: Type.Unknown(),
    }),
  ),
  next_cursor: Type.String(),
  has_more: Type.Boolean(),
});
