import Type from 'typebox';
import { DateTimeOut, named, UuidOut } from './common.ts';
import { LocationStatus } from './locations.ts';
import { Order } from './orders.ts';

export const EVENT_TYPES = ['order.created', 'order.updated', 'stock.updated', 'location.updated', 'prep_time.updated'] as const;

/** An event id, which is also a cursor: `ev_<n>`. */
const EVENT_CURSOR_PATTERN = '^ev_(0|[1-9][0-9]{0,15})$';

const FEED_CURSOR_MESSAGE = 'after is not a cursor this API gave out (use next_cursor as it came)';

export const EventsQuery = Type.Object({
  after: Type.Optional(
    Type.String({
      maxLength: 64,
      pattern: EVENT_CURSOR_PATTERN,
      description: 'A `next_cursor` (or an event id), `ev_<n>`; without it the feed starts from now.',
      examples: ['ev_42'],
      'x-message': FEED_CURSOR_MESSAGE,
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 30, default: 0, description: 'Seconds to hold the request while nothing is new (long-poll).' })),
});

const eventFields = {
  id: Type.String({ pattern: EVENT_CURSOR_PATTERN, description: 'Also a cursor: `after=<id>` resumes after this event.' }),
  created_at: DateTimeOut(),
};

const StockChange = Type.Object({
  location_id: UuidOut(),
  items: Type.Array(Type.Object({ product_id: UuidOut(), quantity: Type.Integer({ description: 'The new absolute quantity.' }) })),
});

/** What `prep_time.updated` carries (the service builds it with this type). */
export const PrepTimeChange = Type.Object({
  product_id: UuidOut(),
  station_id: Type.String({ description: 'The station whose learned time was accepted.' }),
  prep_seconds: Type.Integer({ description: 'The product\'s prep time from now on (seconds of one unit): the learned median.' }),
  previous_seconds: Type.Integer({ description: 'The prep time it replaces.' }),
  samples: Type.Integer({ description: 'Bumps the learned time comes from.' }),
  accepted_at: DateTimeOut(),
});

const OrderCreatedEvent = named(
  'OrderCreatedEvent',
  Type.Object({ ...eventFields, type: Type.Literal('order.created'), data: Order }, { description: 'A new order (never with `payment_link`).' }),
);
const OrderUpdatedEvent = named(
  'OrderUpdatedEvent',
  Type.Object({ ...eventFields, type: Type.Literal('order.updated'), data: Order }, { description: 'Any change to an order: PATCH, payment, a refund (`payment.refunded`), expiry, scheduled release, courier progress.' }),
);
const StockUpdatedEvent = named(
  'StockUpdatedEvent',
  Type.Object({ ...eventFields, type: Type.Literal('stock.updated'), data: StockChange }, { description: 'Production stock changed (orders, cancellations, PUT /stock).' }),
);
const LocationUpdatedEvent = named(
  'LocationUpdatedEvent',
  Type.Object({ ...eventFields, type: Type.Literal('location.updated'), data: LocationStatus }, { description: 'A location was opened or closed.' }),
);

const PrepTimeUpdatedEvent = named(
  'PrepTimeUpdatedEvent',
  Type.Object({ ...eventFields, type: Type.Literal('prep_time.updated'), data: PrepTimeChange }, { description: 'A manager accepted the prep time the kitchen learned for a product (issue 32): promises use it from then on.' }),
);

const Event = named(
  'Event',
  Type.Union([OrderCreatedEvent, OrderUpdatedEvent, StockUpdatedEvent, LocationUpdatedEvent, PrepTimeUpdatedEvent], {
    description: 'One change of the restaurant\'s feed, typed by `type`.',
    discriminator: { propertyName: 'type' },
  }),
);

export const EventPage = named(
  'EventPage',
  Type.Object({
    data: Type.Array(Event, { description: 'Oldest first, in commit order.' }),
    next_cursor: Type.String({ pattern: EVENT_CURSOR_PATTERN, description: 'Pass it as `after` for the next page.' }),
    has_more: Type.Boolean(),
  }),
);

export type PrepTimeChange = Type.Static<typeof PrepTimeChange>;
