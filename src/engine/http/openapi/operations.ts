// What the OpenAPI document says about each operation beyond its schemas: id, words, the key
// permission it needs and the errors it can answer. Routes spread `operation(id, responses)` into
// their schema, so the document is still generated from the routes that validate requests.
import type Type from 'typebox';
import type { ErrorCode } from '../../../shared/error-codes.ts';
import { codesWithStatus, errorBody } from '../../../shared/schemas/errors.ts';

export type Permission = 'read' | 'write';

interface OperationDoc {
  tag: string;
  summary: string;
  description: string;
  permission: Permission;
  /** A write: takes `Idempotency-Key`, and its answers may be replays. */
  idempotent?: boolean;
  /** The 409 codes it can answer (state_conflict comes with `idempotent`). */
  conflicts?: ErrorCode[];
  notFound?: boolean;
  /** Replicas forward online orders and quotes: a key of another restaurant or world is 403. */
  forbiddenForOtherWorlds?: boolean;
  /** Codes of 503 besides the ones every write can answer (payment_unavailable). */
  unavailable?: ErrorCode[];
}

const WRITE_NEEDS = 'Needs a key with the write permission (`x-required-permission: write`); a read key gets 403 `forbidden`.';

const OPERATIONS = {
  listOrders: {
    tag: 'orders',
    summary: 'List orders, newest first',
    description:
      'Keyset-paginated by `created_at` then `id`, both descending. While `has_more` is true, call again with `cursor=<next_cursor>` and the same filters. A key sees only its own world: sandbox keys list test orders only.',
    permission: 'read',
  },
  getOrder: {
    tag: 'orders',
    summary: 'Read an order',
    description:
      'The order as it is now. After the customer comes back to `return_url`, this is how to confirm a payment: `payment.paid` is true and `status` is `recibido` (or `programado`). An order of another restaurant or world is 404.',
    permission: 'read',
    notFound: true,
  },
  createOrder: {
    tag: 'orders',
    summary: 'Create an order',
    description: `Prices come from the catalogue; stock is checked and (production keys) taken atomically. \`payment: external\` goes straight to the kitchen (\`recibido\`, or \`programado\` when scheduled). \`payment: online\` is \`pendiente_pago\` and the answer carries \`payment_link\`: send the customer to \`payment_url\`; they come back to \`return_url?order_id=<id>&payment=success|failed|cancelled\`. Every 400 is decided before any 409, and 503 \`payment_unavailable\` comes last. ${WRITE_NEEDS}`,
    permission: 'write',
    idempotent: true,
    conflicts: ['location_inactive', 'location_closed', 'insufficient_stock'],
    forbiddenForOtherWorlds: true,
    unavailable: ['payment_unavailable'],
  },
  transitionOrder: {
    tag: 'orders',
    summary: 'Move an order to another state',
    description: `The same moves as the kitchen screen. A target equal to the current state is a no-op answered 200. Reaching \`listo\` queues the customer's mail and dispatches a courier delivery; cancelling restores stock. ${WRITE_NEEDS}`,
    permission: 'write',
    idempotent: true,
    conflicts: ['managed_by_integrator', 'illegal_transition'],
    notFound: true,
  },
  getMenu: {
    tag: 'menu',
    summary: 'The menu with stock-based availability',
    description: 'Active categories and products in menu order, with modifier groups and options. `available` reflects inventory and the sold-out switch (PUT /sold-out) at `location_id`, or at any active location without it.',
    permission: 'read',
  },
  getStock: {
    tag: 'stock',
    summary: 'Stock of tracked products at a location',
    description: 'Every product with `track_stock`, by name; a tracked product without a stock record at the location is 0.',
    permission: 'read',
  },
  getSoldOut: {
    tag: 'stock',
    summary: 'What is sold out ("agotado") at a location',
    description:
      'The products and options switched sold out at the location and not yet back: by PUT /sold-out, the Stock screen or a kitchen screen, stock-tracked or not. Each says until when (the end of the kitchen\'s day, the restaurant\'s `sold_out_resets_at`; null: until switched back). Engine addition.',
    permission: 'read',
  },
  setSoldOut: {
    tag: 'stock',
    summary: 'Switch dishes sold out ("agotado", 86) or back at a location',
    description: `Any product or modifier option, stock-tracked or not, all or nothing; unknown or repeated ids are 400. While sold out, GET /menu answers \`available: false\` for it at that location and POST /orders refuses it with 409 \`insufficient_stock\` saying it is sold out. It ends when switched back, or by itself at the end of the kitchen's day when the restaurant says so. With a sandbox key nothing changes and \`simulated\` is true. Engine addition. ${WRITE_NEEDS}`,
    permission: 'write',
    idempotent: true,
  },
  setStock: {
    tag: 'stock',
    summary: 'Set absolute stock quantities',
    description: `Absolute quantities (not deltas), all or nothing; products without \`track_stock\`, unknown or repeated are 400, listed. With a sandbox key nothing changes and \`simulated\` is true. ${WRITE_NEEDS}`,
    permission: 'write',
    idempotent: true,
  },
  quoteReadyTime: {
    tag: 'orders',
    summary: 'When a cart would be ready',
    description:
      'The kitchen\'s promise for a cart ordered now, without creating anything: its lines scheduled behind the lines every channel has open at their stations, with the cooks on shift and the prep times the engine learned (see `promise` of POST /orders, which answers the same for the order it creates). Unknown products and invalid modifier choices are 400, as in POST /orders; stock is not checked. Any key.',
    permission: 'read',
  },
  getKitchenReport: {
    tag: 'reports',
    summary: 'How the kitchen did at a location over a day or a range',
    description:
      'The figures of the hub\'s Informes screen (issue 33), for the days `from` to `to` (local to the restaurant, at most 92): the rush strip (tickets finished per slot, their median and p90 time, orders in progress), the p90 ticket time by station and hour, each item\'s median and p90 cook time beside the typed and learned ones, how the promises held (by channel, hour and station), busy mode\'s pauses, recalls, cancellations, and the bumps left out as implausible (mass bumps, bumps far before the learned time, tickets left open), counted and listed. A ticket\'s time runs from its firing to its last line done. A key sees its own world only: a sandbox key\'s report counts test orders. Engine addition. Any key.',
    permission: 'read',
    notFound: true,
  },
  getKitchenReportTable: {
    tag: 'reports',
    summary: 'One table of the kitchen report, as CSV or JSON',
    description:
      'For a spreadsheet or BI tool: `table` is one figure of GET /reports/kitchen (`rush`, `heatmap`, `items`, `promise_shares`, `histogram`, `busy`, `recalls`, `cancellations`, `excluded`) or the rows the figures are computed from: `tickets` (one per ticket fired in the period, with epoch milliseconds), `promises` (one per order given a promise) and `item_timings` (the item timing log as kept, at most 31 days per request). `format=csv` (the default) answers `text/csv` (RFC 4180, a header row; a text cell starting with `=`, `+`, `-` or `@` is prefixed with an apostrophe so a spreadsheet never runs it); `format=json` answers the same rows as objects. Engine addition. Any key.',
    permission: 'read',
    notFound: true,
  },
  quoteDelivery: {
    tag: 'delivery',
    summary: 'Quote delivery to an address',
    description:
      'Own delivery when the location has it and covers the address (coordinates needed), else the location\'s couriers in order of preference, with the restaurant\'s shipping subsidies applied. `available: false` (with `message`) means offer pickup. Any key can quote; nothing is stored.',
    permission: 'read',
    forbiddenForOtherWorlds: true,
  },
  listLocations: {
    tag: 'locations',
    summary: 'Locations with live open/closed status',
    description: 'Every location of the restaurant, evaluated at `checked_at`. Any key (`x-required-permission: read`).',
    permission: 'read',
  },
  openLocation: {
    tag: 'locations',
    summary: 'Open a location now',
    description: `Manual mode opens the day's cash register; schedule mode removes today's exceptions, so the weekly schedule rules again (and may say closed). No body. With a sandbox key nothing changes and \`simulated\` is true. ${WRITE_NEEDS}`,
    permission: 'write',
    idempotent: true,
    notFound: true,
  },
  closeLocation: {
    tag: 'locations',
    summary: 'Close a location now',
    description: `Manual mode closes the cash register; schedule mode records a closed exception for today. No body. With a sandbox key nothing changes and \`simulated\` is true. ${WRITE_NEEDS}`,
    permission: 'write',
    idempotent: true,
    notFound: true,
  },
  listEvents: {
    tag: 'events',
    summary: 'The change feed, oldest first, with long-poll',
    description:
      'Events in commit order, each written in the same transaction as its change. Without `after` the feed starts from now. With `wait`, a request with nothing new is held up to that many seconds and answered as soon as an event commits.',
    permission: 'read',
  },
} as const satisfies Record<string, OperationDoc>;

export type OperationId = keyof typeof OPERATIONS;

export const TAGS = [
  { name: 'orders', description: 'Create, read, list and move orders.' },
  { name: 'menu', description: 'The catalogue with availability.' },
  { name: 'stock', description: 'Stock per location.' },
  { name: 'delivery', description: 'Delivery quotes.' },
  { name: 'locations', description: 'Locations, open and closed.' },
  { name: 'events', description: 'The change feed.' },
  { name: 'reports', description: 'How the kitchen did: the Informes figures and their exports.' },
  { name: 'health', description: 'Which engine node answers and whether it can write (no key).' },
];

const integer = (description: string, required: boolean) => ({ type: 'integer', minimum: 0, description, 'x-required': required });

/** The headers of every answer to an authenticated request. */
const rateLimitHeaders = (required: boolean) => ({
  'RateLimit-Limit': integer('The key\'s bucket size.', required),
  'RateLimit-Remaining': integer('Whole requests left after this one.', required),
  'RateLimit-Reset': integer('Seconds until the bucket is full again.', required),
});

const replayedHeader = {
  'Idempotent-Replayed': {
    type: 'string',
    const: 'true',
    description: 'Present when this is the stored answer to an earlier request with the same Idempotency-Key and body.',
    'x-required': false,
  },
};

interface ResponseSpec {
  schema: Type.TSchema;
  description: string;
  /** Other media types the answer may come in, with their schemas (a report table's `text/csv`). */
  alternatives?: Record<string, Type.TSchema>;
}

function response(description: string, schema: Type.TSchema, headers: Record<string, object>, alternatives: Record<string, Type.TSchema> = {}) {
  const content: Record<string, { schema: Type.TSchema }> = { 'application/json': { schema } };
  for (const [media, other] of Object.entries(alternatives)) content[media] = { schema: other };
  return { description, headers, content };
}

const PascalCase = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/**
 * The route schema's documentation and responses: the success answers given, plus every error
 * status the operation can answer, each with the codes it can carry (from src/shared/error-codes.ts).
 */
export function operation(id: OperationId, success: Record<number, ResponseSpec>) {
  const doc: OperationDoc = OPERATIONS[id];
  const replayable = doc.idempotent ? replayedHeader : {};
  const answered = { ...rateLimitHeaders(true), ...replayable };
  // A request refused before routing (a path parameter over 200 characters, a URL that does not
  // decode) gets its 400 before the key is checked, so without RateLimit-* headers.
  const maybeAnswered = { ...rateLimitHeaders(false), ...replayable };
  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(success)) responses[status] = response(spec.description, spec.schema, answered, spec.alternatives);

  responses[400] = response(
    'A malformed or missing parameter, a body that is not JSON, or an id the restaurant does not have; `message` names the field.',
    errorBody('BadRequestError', codesWithStatus(400), 'Bad request.'),
    maybeAnswered,
  );
  responses[401] = response(
    'The key is missing, malformed, unknown or revoked.',
    errorBody('UnauthorizedError', codesWithStatus(401), 'No valid API key.'),
    { 'WWW-Authenticate': { type: 'string', const: 'Bearer', description: 'The scheme to use.', 'x-required': true } },
  );
  if (doc.permission === 'write' || doc.forbiddenForOtherWorlds) {
    responses[403] = response(
      doc.permission === 'write'
        ? 'The key is read-only' + (doc.forbiddenForOtherWorlds ? ', or (on a replica) belongs to another restaurant or world than the replica\'s.' : '.')
        : 'On a replica: the key belongs to another restaurant or world than the replica\'s.',
      errorBody('ForbiddenError', codesWithStatus(403), 'Not allowed with this key.'),
      answered,
    );
  }
  if (doc.notFound) {
    responses[404] = response(
      'No such id for this key: absent, of another restaurant, or of the other world.',
      errorBody('NotFoundError', codesWithStatus(404), 'Not found.'),
      answered,
    );
  }
  const conflicts: ErrorCode[] = [...(doc.conflicts ?? []), ...(doc.idempotent ? (['state_conflict'] as const) : [])];
  if (conflicts.length > 0) {
    responses[409] = response(
      'The request is well formed but the state does not allow it; `state_conflict` is an Idempotency-Key reused with another request, or a lost race.',
      errorBody(`${PascalCase(id)}Conflict`, conflicts, 'A conflict with the current state.'),
      answered,
    );
  }
  responses[429] = response(
    'Over the rate limit; retry after `Retry-After` seconds. Without a valid key the limit is per address and carries no `RateLimit-*` headers.',
    errorBody('RateLimitedError', codesWithStatus(429), 'Too many requests.'),
    { ...rateLimitHeaders(false), 'Retry-After': { ...integer('Whole seconds (at least 1) until a request is allowed again.', true), minimum: 1 } },
  );
  responses[500] = response(
    'Unexpected; logged in full on the server, never detailed here.',
    errorBody('InternalError', codesWithStatus(500), 'Internal error.'),
    rateLimitHeaders(false),
  );
  // Every 503 code of error-codes.ts except payment_unavailable applies to any operation that
  // writes; payment_unavailable only where the operation names it; storage_unavailable (the
  // database out of reach, a failover) to every operation, reads too.
  const unavailable = codesWithStatus(503).filter(
    (code) =>
      (doc.unavailable as readonly ErrorCode[] | undefined)?.includes(code) ||
      code === 'storage_unavailable' ||
      (code !== 'payment_unavailable' && doc.permission === 'write'),
  );
  if (unavailable.length > 0) {
    responses[503] = response(
      'The engine cannot complete the request now; nothing was created or changed, but for `storage_unavailable` on a write sent without `Idempotency-Key`, which may have been saved (its commit\'s answer was lost with the database connection): send writes with a key, and the same key again.',
      errorBody(`${PascalCase(id)}Unavailable`, unavailable, 'Unavailable now.'),
      {
        ...rateLimitHeaders(false),
        'Retry-After': { ...integer('With `storage_full`, `storage_unavailable` and `kitchen_busy`: whole seconds before trying again.', false), minimum: 1 },
      },
    );
  }
  return {
    operationId: id,
    summary: doc.summary,
    description: doc.description,
    tags: [doc.tag],
    security: [{ bearer: [] }],
    'x-required-permission': doc.permission,
    response: responses,
  };
}
