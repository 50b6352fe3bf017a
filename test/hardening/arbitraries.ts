// fast-check arbitraries for the hardening suites: hostile values, valid requests built from the
// demo catalogue, and mutations that break a valid request in one place.
import fc from 'fast-check';
import { ORDER_STATUSES, PATCH_TARGETS } from '../../src/shared/order-states.ts';
import { R1, UNKNOWN_UUID } from '../support/demo-ids.ts';

const R2_LOCATIONS = ['21000000-0000-4000-8000-000000000001', '21000000-0000-4000-8000-000000000002'] as const;

/** Text that has broken other servers: injection, traversal, markup, odd unicode, control characters. */
const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '\u0007\u0008\u001b[31m',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u2066evil',
  '\ufeff',
  'Ñuñoa 🍣🍜 ｆｕｌｌｗｉｄｔｈ',
  '𝕮𝖔𝖒𝖆𝖓𝖉𝖆',
  "'; DROP TABLE orders; --",
  "' OR '1'='1",
  '1; DELETE FROM stock',
  "\" OR 1=1 --",
  "x'); UPDATE stock SET quantity = -1; --",
  'SELECT * FROM api_keys',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  '%',
  '%zz',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '0x1F',
  '١٢٣',
  'true',
  '[]',
  '{}',
  'ev_1',
  'ev_-1',
  'ev_99999999999999999999',
  'eyJ4IjoxfQ',
  'WzEsMl0',
  'WzEsIngiXQ',
  UNKNOWN_UUID,
  UNKNOWN_UUID.toUpperCase(),
  '2026-11-21T20:00:00-03:00',
  '2026-02-30T25:61:00',
  '9999-12-31T23:59:59Z',
  '0000-01-01T00:00',
  '2026-11-21T20:00:00+99:00',
  'https://x.example/',
  'http://127.0.0.1/',
  'Bearer cm_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  'x'.repeat(300),
  '🍣'.repeat(600),
];

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 3000 }) },
);

/** A JSON token JSON.stringify cannot write: replaced in the text after stringifying. */
export interface RawToken {
  __raw: string;
}
const raw = (text: string): RawToken => ({ __raw: text });

const nastyNumber: fc.Arbitrary<number | RawToken> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 0.1, -0.5, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 999, 1000, 1_000_000, 1_000_001, 1e9 + 1),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '1.0', '1E2', '-0.0', '0.0000000000000000000001').map(raw),
);

/** Any value of any type where a value is expected. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.oneof(nastyString, fc.integer()), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'status', 'quantity'), fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** JSON with the raw tokens put back. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/\{"__raw":"([^"]*)"\}/g, '$1');
}

/** Ids where ids go: real ones of several kinds, unknown, malformed, hostile. */
export const R1_LOCATIONS = [R1.openLocation, R1.closedLocation, R1.inactiveLocation] as const;
const R1_PRODUCT_IDS = Object.values(R1.products);
const R1_OPTION_IDS = Object.values(R1.options);

const PAN = [R1.options.marraqueta, R1.options.frica, R1.options.panAmasado];
const AGREGADOS = [R1.options.paltaExtra, R1.options.tomateExtra, R1.options.chucrut, R1.options.ajiVerde];

/** Products of restaurant 1 that can be ordered, each with a valid choice of options. */
const orderableItem: fc.Arbitrary<{ product_id: string; quantity: number; notes?: string | null; modifier_option_ids?: string[] }> = fc
  .record({
    product: fc.oneof(
      { weight: 1, arbitrary: fc.constantFrom<string>(R1.products.empanadaPino, R1.products.empanadaQueso, R1.products.pastelDeChoclo) },
      {
        weight: 3,
        arbitrary: fc.constantFrom<string>(
          R1.products.empanadaCamaronQueso,
          R1.products.churrasco,
          R1.products.barrosLuco,
          R1.products.completo,
          R1.products.cazuela,
          R1.products.bebidaLata,
        ),
      },
    ),
    quantity: fc.oneof({ weight: 10, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 999 }) }),
    notes: fc.option(fc.string({ unit: 'grapheme', maxLength: 40 }), { nil: undefined }),
    pan: fc.constantFrom(...PAN),
    agregados: fc.subarray(AGREGADOS, { maxLength: 3 }),
    upper: fc.boolean(),
  })
  .map(({ product, quantity, notes, pan, agregados, upper }) => {
    const options = product === R1.products.churrasco ? [pan] : product === R1.products.completo ? agregados : [];
    return {
      product_id: upper ? product.toUpperCase() : product,
      quantity,
      ...(notes !== undefined ? { notes } : {}),
      ...(options.length > 0 || product === R1.products.completo ? { modifier_option_ids: options } : {}),
    };
  });

/** A customer name the API must accept: any text with something that is not a space. */
const customerName = fc
  .tuple(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.constantFrom('Ana', 'José Ñuñez', '李', "O'Brien", '🍣', 'Robert\'); DROP TABLE orders;--'))
  .map(([text, core]) => `${text}${core}`.slice(0, 200));

export interface OrderBodyOptions {
  /** Epoch ms of the engine's clock, for scheduled_for. */
  now: number;
}

/** A POST /orders body valid for restaurant 1 (the outcome may still be 409: stock, closed, inactive). */
export function validOrderBody(options: OrderBodyOptions): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record({
      location_id: fc.oneof({ weight: 6, arbitrary: fc.constant<string>(R1.openLocation) }, { weight: 1, arbitrary: fc.constantFrom<string>(...R1_LOCATIONS) }),
      type: fc.constantFrom('retiro', 'delivery'),
      name: customerName,
      phone: fc.option(fc.string({ maxLength: 50 }), { nil: undefined }),
      email: fc.option(fc.constantFrom('ana@example.com', 'jose.nunez+pedido@correo.cl', null), { nil: undefined }),
      items: fc.array(orderableItem, { minLength: 1, maxLength: 4 }),
      address: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }).map((a) => `Av. ${a}`),
      notes: fc.option(fc.string({ unit: 'grapheme', maxLength: 80 }), { nil: undefined }),
      shipping_fee: fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: undefined }),
      online: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      method: fc.option(fc.constantFrom('tarjeta', 'transferencia'), { nil: undefined }),
      scheduledInMinutes: fc.option(fc.integer({ min: 45, max: 7 * 24 * 60 - 60 }), { nil: undefined, freq: 6 }),
    })
    .map((b) => ({
      location_id: b.location_id,
      type: b.type,
      customer: { name: b.name, ...(b.phone !== undefined ? { phone: b.phone } : {}), ...(b.email !== undefined ? { email: b.email } : {}) },
      items: b.items,
      ...(b.type === 'delivery' ? { address: b.address } : {}),
      ...(b.notes !== undefined ? { notes: b.notes } : {}),
      ...(b.shipping_fee !== undefined ? { shipping_fee: b.shipping_fee } : {}),
      ...(b.online
        ? { payment: 'online', return_url: 'https://tienda.example/volver?x=1', ...(b.method ? { payment_method: b.method } : {}) }
        : {}),
      ...(b.scheduledInMinutes !== undefined ? { scheduled_for: new Date(options.now + b.scheduledInMinutes * 60_000).toISOString() } : {}),
    }));
}

const anyLocationId = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<string>(...R1_LOCATIONS, ...R2_LOCATIONS) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: nastyString },
);

const anyProductId = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<string>(...R1_PRODUCT_IDS) },
  { weight: 1, arbitrary: fc.constantFrom<string>(...R1_OPTION_IDS, UNKNOWN_UUID) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: nastyString },
);

/** A PUT /stock body, mostly valid for restaurant 1. */
export const stockBody: fc.Arbitrary<Record<string, unknown>> = fc.record({
  location_id: fc.oneof({ weight: 5, arbitrary: fc.constantFrom<string>(...R1_LOCATIONS) }, { weight: 1, arbitrary: anyLocationId }),
  items: fc.array(
    fc.record({
      product_id: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom<string>(R1.products.empanadaPino, R1.products.empanadaQueso, R1.products.pastelDeChoclo, R1.products.humitas) },
        { weight: 1, arbitrary: anyProductId },
      ),
      quantity: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 60 }) }, { weight: 1, arbitrary: nastyNumber }),
    }),
    { minLength: 0, maxLength: 5 },
  ),
});

/** A POST /delivery/quote body. */
export const quoteBody: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    location_id: anyLocationId,
    dropoff: fc.record(
      {
        address: fc.option(nastyString),
        latitude: fc.oneof(fc.double({ min: -34, max: -33, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true }), nastyNumber),
        longitude: fc.oneof(fc.double({ min: -71, max: -70, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), nastyNumber),
        city: fc.option(nastyString),
        street: fc.option(nastyString),
        state: fc.option(nastyString),
        zip: fc.option(fc.string({ maxLength: 25 })),
      },
      { requiredKeys: [] },
    ),
    subtotal: fc.oneof(fc.integer({ min: 0, max: 200_000 }), nastyNumber),
  },
  { requiredKeys: ['location_id', 'dropoff', 'subtotal'] },
);

export const patchTarget: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom<string>(...PATCH_TARGETS) },
  { weight: 2, arbitrary: fc.constantFrom<string>(...ORDER_STATUSES) },
  { weight: 1, arbitrary: fc.constantFrom('LISTO', 'cancelado ', 'en_reparto\u0000') },
  { weight: 1, arbitrary: nastyValue },
);

export type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'delete'; at: number }
  | { kind: 'unknown-field'; at: number; name: string; value: unknown }
  | { kind: 'wrap'; at: number };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: nastyValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('unknown-field' as const),
      at: fc.nat(),
      name: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'price', 'unit_price', 'total', 'status', 'test', 'id'), fc.string({ maxLength: 10 })),
      value: nastyValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wrap' as const), at: fc.nat() }) },
);

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [prefix];
  const children = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...children.flatMap((k) => pathsOf((value as Record<string | number, unknown>)[k], [...prefix, k]))];
}

/** Applies mutations to a deep copy; returns the copy. */
export function applyMutations(body: Record<string, unknown>, mutations: readonly Mutation[]): unknown {
  let copy: unknown = structuredClone(body);
  for (const m of mutations) {
    const paths = pathsOf(copy);
    const path = paths[m.at % paths.length]!;
    if (path.length === 0) {
      if (m.kind === 'replace') copy = m.value;
      else if (m.kind === 'wrap') copy = [copy];
      else if (m.kind === 'unknown-field' && copy !== null && typeof copy === 'object' && !Array.isArray(copy)) {
        Object.defineProperty(copy, m.name, { value: m.value, enumerable: true, configurable: true, writable: true });
      }
      continue;
    }
    const parent = path.slice(0, -1).reduce<any>((node, k) => node[k], copy);
    const last = path[path.length - 1]!;
    if (m.kind === 'replace') parent[last] = m.value;
    else if (m.kind === 'delete') {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else if (m.kind === 'wrap') parent[last] = [parent[last]];
    else {
      const target = parent[last];
      if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
        Object.defineProperty(target, m.name, { value: m.value, enumerable: true, configurable: true, writable: true });
      } else parent[last] = { [m.name]: m.value };
    }
  }
  return copy;
}

/** How a body travels: as JSON, or broken on the wire. */
export type Encoding =
  | { kind: 'json' }
  | { kind: 'duplicate-key'; value: unknown; first: boolean }
  | { kind: 'truncated'; cut: number }
  | { kind: 'content-type'; contentType: string }
  | { kind: 'deep-nesting'; depth: number }
  | { kind: 'oversize' }
  | { kind: 'empty' };

export const encoding: fc.Arbitrary<Encoding> = fc.oneof(
  { weight: 20, arbitrary: fc.constant({ kind: 'json' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicate-key' as const), value: nastyValue, first: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncated' as const), cut: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('content-type' as const),
      contentType: fc.oneof(
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
          'application/json; charset=latin1',
          'APPLICATION/JSON',
          'application/json;;',
          'application/jsonx',
          'application/vnd.api+json',
          '*/*',
          ' ',
        ),
        fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deep-nesting' as const), depth: fc.constantFrom(100, 5_000, 100_000, 400_000) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'oversize' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
);

export const BODY_LIMIT = 1024 * 1024;

/** The body's text and content type as the encoding sends them. */
export function encode(body: unknown, how: Encoding): { text: string; contentType: string | null } {
  const json = toJsonText(body);
  switch (how.kind) {
    case 'json':
      return { text: json, contentType: 'application/json' };
    case 'duplicate-key': {
      if (!json.startsWith('{') || json === '{}') return { text: json, contentType: 'application/json' };
      const firstKey = /^\{("(?:[^"\\]|\\.)*")/.exec(json)?.[1] ?? '"x"';
      const extra = `${firstKey}:${toJsonText(how.value)}`;
      return { text: how.first ? `{${extra},${json.slice(1)}` : `${json.slice(0, -1)},${extra}}`, contentType: 'application/json' };
    }
    case 'truncated':
      return { text: json.slice(0, json.length === 0 ? 0 : how.cut % json.length), contentType: 'application/json' };
    case 'content-type':
      return { text: json, contentType: how.contentType };
    case 'deep-nesting': {
      const nested = `${'['.repeat(how.depth)}${']'.repeat(how.depth)}`;
      const text = json.startsWith('{') && json !== '{}' ? `{"deep":${nested},${json.slice(1)}` : nested;
      return { text, contentType: 'application/json' };
    }
    case 'oversize':
      return { text: json.startsWith('{') ? `{"padding":"${'x'.repeat(BODY_LIMIT)}",${json.slice(1)}` : `"${'x'.repeat(BODY_LIMIT)}"`, contentType: 'application/json' };
    case 'empty':
      return { text: '', contentType: 'application/json' };
  }
}

/** Percent-encodes any string, lone surrogates included (as the U+FFFD their UTF-8 becomes). */
export function encodeAny(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

/** The string with lone surrogates replaced by U+FFFD, as UTF-8 storage would return it. */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
