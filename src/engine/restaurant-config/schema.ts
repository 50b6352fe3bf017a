// The restaurant configuration file: one restaurant per JSON file, imported with
// `npm run restaurant -- import FILE`. This TypeBox schema is the single source of truth: the
// validator checks files against it, and docs/restaurant-config.schema.json is generated from it
// (the `description`s below are that file's documentation).
//
// Fields that have a `default` are written here as required and the validator fills them in before
// checking, so `RestaurantConfig` is the configuration with defaults applied. The published JSON
// Schema drops such fields from `required` (see `restaurantConfigJsonSchema`): in a file they may be
// left out.
import { Type, type Static } from 'typebox';
import { COURIER_NAME_PATTERN } from '../../shared/schemas/delivery.ts';

export { COURIER_NAME_PATTERN };

import { DEFAULT_TIME_ZONE } from '../../shared/locale.ts';
import { DAY_END_PATTERN } from '../domain/sold-out-day.ts';

/** Lowercase UUID: the ids the API shows are lowercase, so the file uses the same spelling. */
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const SLUG_PATTERN = '^[a-z0-9-]+$';
/** A time of day at which a range opens: 00:00 to 23:59. */
export const OPENS_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
/** A time of day at which a range closes: 00:00 to 23:59, or 24:00 for the end of the day. */
export const CLOSES_PATTERN = '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$';
export const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
export const HTTP_URL_PATTERN = '^https?://[^\\s]+$';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const Id = (what: string) =>
  Type.String({
    pattern: UUID_PATTERN,
    description: `Id of the ${what}: a lowercase UUID. Optional: generated on import when absent. Give it when other systems must know the id in advance; ids are unique across the file and the database.`,
  });

const Name = (what: string) => Type.String({ minLength: 1, maxLength: 200, description: `Name of the ${what}.` });

const Description = (what: string) =>
  Type.String({ maxLength: 2000, description: `Description of the ${what}, shown to customers.` });

const Money = (description: string) => Type.Integer({ minimum: 0, description: `${description} Integer CLP.` });

const TimeRangeSchema = Type.Tuple(
  [
    Type.String({ pattern: OPENS_PATTERN, description: 'Opens, "HH:mm" (00:00 to 23:59).' }),
    Type.String({
      pattern: CLOSES_PATTERN,
      description: 'Closes, "HH:mm" or "24:00". A time at or before the opening time means the next day (the range crosses midnight).',
    }),
  ],
  {
    title: 'Time range',
    description:
      '[opens, closes] in the restaurant\'s time zone, e.g. ["12:00", "23:00"]; ["19:00", "02:00"] crosses midnight and ends at 02:00 of the next day.',
  },
);

const TimeRanges = (description: string) =>
  Type.Array(TimeRangeSchema, { maxItems: 10, description });

const WeeklyScheduleSchema = Type.Object(
  {
    mon: Type.Optional(TimeRanges('Monday\'s opening hours.')),
    tue: Type.Optional(TimeRanges('Tuesday\'s opening hours.')),
    wed: Type.Optional(TimeRanges('Wednesday\'s opening hours.')),
    thu: Type.Optional(TimeRanges('Thursday\'s opening hours.')),
    fri: Type.Optional(TimeRanges('Friday\'s opening hours.')),
    sat: Type.Optional(TimeRanges('Saturday\'s opening hours.')),
    sun: Type.Optional(TimeRanges('Sunday\'s opening hours.')),
  },
  {
    additionalProperties: false,
    default: {},
    description:
      'Opening hours per weekday (mon..sun), each a list of [opens, closes] ranges. A missing day or an empty list means closed all day. Used when register_mode is "schedule".',
  },
);

const ScheduleExceptionSchema = Type.Object(
  {
    date: Type.String({ pattern: DATE_PATTERN, description: 'The local date, "YYYY-MM-DD", in the restaurant\'s time zone.' }),
    closed: Type.Boolean({ description: 'true: closed all that day. false: open only during `hours` that day.' }),
    hours: Type.Array(TimeRangeSchema, {
      maxItems: 10,
      default: [],
      description: 'The hours of that day when `closed` is false (at least one range); empty when `closed` is true.',
    }),
    label: Type.Optional(Type.String({ maxLength: 200, description: 'Why, e.g. "Fiestas Patrias".' })),
  },
  {
    additionalProperties: false,
    title: 'Schedule exception',
    description: 'A day whose hours differ from the weekly schedule: closed, or open at other hours.',
  },
);

const Latitude = Type.Number({ minimum: -90, maximum: 90, description: 'Latitude in decimal degrees (WGS 84).' });
const Longitude = Type.Number({ minimum: -180, maximum: 180, description: 'Longitude in decimal degrees (WGS 84).' });

const RadiusCoverageSchema = Type.Object(
  {
    radius_km: Type.Number({
      exclusiveMinimum: 0,
      description: 'Own delivery reaches addresses within this straight-line distance of the location, in km.',
    }),
  },
  { additionalProperties: false, title: 'Radius coverage ({ "radius_km": number })' },
);

const PolygonCoverageSchema = Type.Object(
  {
    polygon: Type.Array(Type.Tuple([Latitude, Longitude]), {
      minItems: 3,
      maxItems: 500,
      description:
        'Own delivery reaches addresses inside this polygon: its corners as [latitude, longitude] pairs (note the order: latitude first, unlike GeoJSON), at least 3; the polygon closes by itself.',
    }),
  },
  { additionalProperties: false, title: 'Polygon coverage ({ "polygon": [[lat, lng], ...] })' },
);

const FeeBandSchema = Type.Object(
  {
    up_to_km: Type.Number({ exclusiveMinimum: 0, description: 'The band covers distances up to this many km (inclusive) from the location.' }),
    fee: Money('Delivery fee for that band, before shipping subsidies.'),
  },
  { additionalProperties: false, title: 'Fee band' },
);

const OwnDeliverySchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Whether the location delivers with its own riders. Needs the location\'s latitude and longitude.' }),
    coverage: Type.Union([RadiusCoverageSchema, PolygonCoverageSchema], {
      description: 'Where own delivery reaches: { "radius_km": number } or { "polygon": [[lat, lng], ...] }.',
    }),
    fee_bands: Type.Array(FeeBandSchema, {
      minItems: 1,
      maxItems: 20,
      description: 'Fee by straight-line distance, bands in ascending `up_to_km` order: the first band that reaches the distance applies.',
    }),
    duration_minutes: Type.Integer({ minimum: 1, maximum: 1440, description: 'Minutes an own delivery takes, quoted to customers.' }),
  },
  { additionalProperties: false, description: 'The location\'s own delivery (provider "propio").' },
);

const LocationDeliverySchema = Type.Object(
  {
    own: Type.Optional(OwnDeliverySchema),
    couriers: Type.Array(
      Type.String({ pattern: COURIER_NAME_PATTERN, maxLength: 50, description: 'A courier provider\'s name in lowercase, e.g. "simulado".' }),
      {
        uniqueItems: true,
        maxItems: 10,
        default: [],
        description: 'Third-party courier providers in order of preference, used when own delivery is not enabled or does not cover the address.',
      },
    ),
  },
  {
    additionalProperties: false,
    default: {},
    description: 'How the location delivers. Without own delivery and couriers the location offers pickup (retiro) only.',
  },
);

const LocationSchema = Type.Object(
  {
    id: Type.Optional(Id('location')),
    name: Name('location (sucursal)'),
    address: Type.String({ minLength: 1, maxLength: 500, description: 'Street address, shown to customers.' }),
    latitude: Type.Optional(Latitude),
    longitude: Type.Optional(Longitude),
    is_active: Type.Boolean({ default: true, description: 'false: the location is deactivated (never open, takes no orders).' }),
    register_open: Type.Boolean({
      default: false,
      description: 'register_mode "manual": whether the day\'s cash register is open at import time (the location is open).',
    }),
    weekly_schedule: WeeklyScheduleSchema,
    exceptions: Type.Optional(
      Type.Array(ScheduleExceptionSchema, {
        maxItems: 366,
        description: 'Days that differ from the weekly schedule, at most one per date.',
      }),
    ),
    preparation_lead_minutes: Type.Integer({
      minimum: 0,
      maximum: 1440,
      default: 30,
      description: 'Minutes the kitchen needs: a scheduled order must be at least this far ahead, and is released to the kitchen this long before its time.',
    }),
    delivery: LocationDeliverySchema,
    stock: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 0, description: 'Units in stock.' }), {
        description: 'Initial stock at this location: product slug -> quantity. Only products with `track_stock`; a tracked product not listed starts at 0.',
      }),
    ),
  },
  { additionalProperties: false, title: 'Location', description: 'A location (sucursal) of the restaurant.' },
);

const ModifierOptionSchema = Type.Object(
  {
    id: Type.Optional(Id('option')),
    name: Name('option'),
    price: Type.Integer({ minimum: 0, default: 0, description: 'Price added to the product when chosen. Integer CLP.' }),
    allergen: Type.Optional(
      Type.Boolean({
        description: 'true: choosing this option is an allergy matter (e.g. "Sin gluten", "Alergia al maní"); kitchen screens show it in red.',
      }),
    ),
    prep_minutes: Type.Optional(
      Type.Number({
        minimum: -60,
        maximum: 60,
        description: 'Minutes this option adds to the product\'s prep time (negative: takes off), e.g. 2 for "Agregar huevo". Absent: 0.',
      }),
    ),
  },
  { additionalProperties: false, title: 'Modifier option' },
);

const ModifierGroupSchema = Type.Object(
  {
    id: Type.Optional(Id('modifier group')),
    name: Name('modifier group'),
    required: Type.Boolean({ default: false, description: 'A required group needs at least max(min, 1) chosen options.' }),
    min: Type.Integer({ minimum: 0, default: 0, description: 'Fewest options to choose.' }),
    max: Type.Integer({ minimum: 1, description: 'Most options to choose, >= min.' }),
    options: Type.Array(ModifierOptionSchema, { minItems: 1, maxItems: 100, description: 'The choices, in display order.' }),
  },
  { additionalProperties: false, title: 'Modifier group', description: 'Choices for a product, e.g. "Tamaño" or "Agregados".' },
);

const ProductSchema = Type.Object(
  {
    id: Type.Optional(Id('product')),
    slug: Type.String({
      pattern: SLUG_PATTERN,
      maxLength: 100,
      description: 'Short name, lowercase letters, digits and hyphens, unique in the restaurant; `stock` refers to products by it.',
    }),
    name: Name('product'),
    description: Type.Optional(Description('product')),
    price: Money('Price.'),
    offer_price: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, title: 'integer >= 0' }), Type.Null({ title: 'null' })], {
        description: 'Offer price, integer CLP, or null: charged instead of `price` when lower.',
      }),
    ),
    image_url: Type.Optional(Type.String({ pattern: HTTP_URL_PATTERN, maxLength: 2000, description: 'http(s) URL of the product\'s picture.' })),
    active: Type.Boolean({ default: true, description: 'false: hidden from the menu.' }),
    track_stock: Type.Boolean({ default: false, description: 'Whether stock is counted per location for this product.' }),
    modifier_groups: Type.Array(ModifierGroupSchema, { maxItems: 50, default: [], description: 'Modifier groups, in display order.' }),
    prep_minutes: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 240,
        description:
          'Minutes a cook takes to prepare one unit at its station, once started (waiting not included): the prior of the promised ready times, until the engine has learned the product\'s time from the kitchen\'s bumps. Absent: 8.',
      }),
    ),
  },
  { additionalProperties: false, title: 'Product' },
);

const CategorySchema = Type.Object(
  {
    id: Type.Optional(Id('category')),
    name: Name('category'),
    description: Type.Optional(Description('category')),
    active: Type.Boolean({ default: true, description: 'false: the category and its products are left out of the menu.' }),
    products: Type.Array(ProductSchema, { maxItems: 1000, description: 'Products, in display order.' }),
  },
  { additionalProperties: false, title: 'Category' },
);

const StationSchema = Type.Object(
  {
    id: Type.String({
      pattern: SLUG_PATTERN,
      maxLength: 50,
      description: 'Short name of the station, lowercase letters, digits and hyphens, unique in the file, e.g. "plancha".',
    }),
    name: Name('station, as kitchen screens show it, e.g. "Plancha", "Fríos" or "Bar"'),
    categories: Type.Array(Type.String({ minLength: 1, maxLength: 200, description: 'A category\'s name, or its id.' }), {
      maxItems: 200,
      uniqueItems: true,
      default: [],
      description: 'Categories whose products this station prepares, by name (or id). A category belongs to one station at most.',
    }),
    products: Type.Array(Type.String({ pattern: SLUG_PATTERN, maxLength: 100, description: 'A product\'s slug.' }), {
      maxItems: 1000,
      uniqueItems: true,
      default: [],
      description: 'Products this station prepares, by slug; this wins over the station of the product\'s category. A product is listed by one station at most.',
    }),
    cooks: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 50,
        description: 'Cooks on shift at this station by default (the hub\'s "+ / −" changes it during service); the promise schedules this many lines at once (times `units_at_once`). Absent: 1.',
      }),
    ),
    units_at_once: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 50,
        description:
          'Units one cook of this station has on at once: 6 for a grill cook with six patties on, 2 for a fryer\'s two baskets. The promise places a line of 3 on 3 of them, done together. Absent: 1, a cook makes one line at a time (its units side by side, each past the first adding half of one).',
      }),
    ),
    max_units_at_once: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 200,
        description:
          'Units the station holds at once whatever its cooks on shift: an oven\'s 8 racks bake 8 pizzas with one cook or three. The station has cooks × `units_at_once` at once, at most this. Absent: no bound.',
      }),
    ),
    cooks_by_hour: Type.Optional(
      Type.Array(
        Type.Object(
          {
            from_hour: Type.Integer({ minimum: 0, maximum: 23, description: 'First hour of the shift, local to the restaurant (0–23).' }),
            to_hour: Type.Integer({ minimum: 1, maximum: 24, description: 'Hour the shift ends, local (1–24, after from_hour): 15 ends at 15:00.' }),
            cooks: Type.Integer({ minimum: 1, maximum: 50, description: 'Cooks on shift at this station in those hours.' }),
          },
          { additionalProperties: false, title: 'CooksShift' },
        ),
        {
          maxItems: 24,
          description:
            'Cooks on shift by the hour, e.g. [{"from_hour": 12, "to_hour": 15, "cooks": 3}]; outside every shift, `cooks`. Shifts may not overlap; one that runs past midnight is written as two. The hub\'s "+ / −" holds until the schedule next changes the count.',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    title: 'Station',
    description: 'A kitchen station. Each kitchen screen may show one station\'s items only; the expo screen shows every station\'s progress.',
  },
);

const FreeOverSubtotalSubsidySchema = Type.Object(
  {
    type: Type.Literal('free_over_subtotal'),
    min_subtotal: Money('Delivery is free for the customer when the order subtotal is at least this.'),
  },
  { additionalProperties: false, title: 'free_over_subtotal', description: 'The restaurant pays the whole delivery fee from a subtotal on.' },
);

const PercentageSubsidySchema = Type.Object(
  {
    type: Type.Literal('percentage'),
    percent: Type.Integer({ minimum: 1, maximum: 100, description: 'Share of the delivery fee the restaurant pays, in percent.' }),
    max: Money('Most the restaurant pays per order.'),
    min_subtotal: Type.Optional(Money('The rule applies only when the order subtotal is at least this.')),
  },
  { additionalProperties: false, title: 'percentage', description: 'The restaurant pays a share of the delivery fee, up to a cap.' },
);

const ShippingSubsidySchema = Type.Union([FreeOverSubtotalSubsidySchema, PercentageSubsidySchema], {
  description: 'A shipping subsidy rule.',
});

export const RestaurantConfigSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: 'Path or URL of this JSON Schema, for editors. Ignored on import.' })),
    id: Type.Optional(Id('restaurant')),
    name: Name('restaurant'),
    register_mode: Type.Enum(['manual', 'schedule'], {
      description:
        'How locations open: "manual" = by the day\'s cash register (register_open, opened and closed from the kitchen or the API); "schedule" = by weekly_schedule plus exceptions.',
    }),
    time_zone: Type.String({
      default: DEFAULT_TIME_ZONE,
      description: 'IANA time zone of schedules and exception dates, e.g. "America/Santiago".',
    }),
    payment_timeout_minutes: Type.Integer({
      minimum: 1,
      maximum: 1440,
      default: 30,
      description: 'Minutes after which an unpaid online order is cancelled automatically.',
    }),
    sold_out_resets_at: Type.Union([Type.String({ pattern: DAY_END_PATTERN }), Type.Null()], {
      default: '04:00',
      description:
        'Local time (HH:MM) at which the kitchen\'s day ends: a dish switched sold out ("agotado") is available again then by itself. "04:00" keeps a service past midnight whole; null: only when switched back.',
    }),
    shipping_subsidies: Type.Array(ShippingSubsidySchema, {
      maxItems: 20,
      default: [],
      description: 'Rules by which the restaurant pays part or all of the delivery fee.',
    }),
    locations: Type.Array(LocationSchema, { minItems: 1, maxItems: 50, description: 'The locations (sucursales), in display order.' }),
    catalogue: Type.Object(
      {
        categories: Type.Array(CategorySchema, { maxItems: 200, description: 'Categories, in menu order.' }),
      },
      { additionalProperties: false, description: 'The menu shared by every location.' },
    ),
    stations: Type.Optional(
      Type.Array(StationSchema, {
        maxItems: 50,
        description:
          'The kitchen\'s stations, in the order screens show them, and which products each prepares. Products no station names (by itself or by its category) belong to none: only the expo screen shows them.',
      }),
    ),
    busy_mode: Type.Optional(
      Type.Object(
        {
          threshold_minutes: Type.Integer({ minimum: 5, maximum: 240, description: 'Pause store fronts when the kitchen\'s promised wait is above this many minutes...' }),
          after_minutes: Type.Integer({ minimum: 0, maximum: 60, default: 3, description: '...for this many minutes in a row.' }),
          margin_minutes: Type.Integer({ minimum: 1, maximum: 120, default: 5, description: 'Take them again once the wait is below the threshold minus this.' }),
          max_pauses_per_hour: Type.Integer({ minimum: 1, maximum: 10, default: 2, description: 'At most this many pauses in any hour (a third is not taken: busy mode cannot flap).' }),
        },
        {
          additionalProperties: false,
          description:
            'Busy mode, for every location: while paused, orders from store-front keys (`npm run keys -- create --channel store-front`) are refused with 503 `kitchen_busy` and `Retry-After`; a POS\'s and the kitchen\'s never are. A manager can pause or resume from the hub. Absent: never paused.',
        },
      ),
    ),
    promise_quantile: Type.Optional(
      Type.Number({
        minimum: 0.5,
        maximum: 0.99,
        description: 'Share of orders that should be ready by their promised time: the promise is the expected time plus the margin by which this share of recent orders was ready. Absent: 0.9.',
      }),
    ),
    allergy_words: Type.Optional(
      Type.Array(Type.String({ minLength: 2, maxLength: 40 }), {
        maxItems: 100,
        description:
          'Words that mark a free-text note as an allergy, besides the built-in ones (alergia, alérgico, sin gluten, celíaco, maní, mariscos…): the kitchen screen shows such a note like an allergen modifier. Matched as whole words, without case or accents.',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'Comanda restaurant configuration',
    description: 'One restaurant: its settings, locations and catalogue. Import with `npm run restaurant -- import FILE`.',
  },
);

export type RestaurantConfig = Static<typeof RestaurantConfigSchema>;
export type LocationConfig = RestaurantConfig['locations'][number];
export type CategoryConfig = RestaurantConfig['catalogue']['categories'][number];
export type ProductConfig = CategoryConfig['products'][number];
export type ModifierGroupConfig = ProductConfig['modifier_groups'][number];
export type StationConfig = Static<typeof StationSchema>;
export type TimeRange = Static<typeof TimeRangeSchema>;

const JSON_SCHEMA_DIALECT = 'http://json-schema.org/draft-07/schema#';

/**
 * The JSON Schema of the file as people write it, for docs/restaurant-config.schema.json and
 * `npm run restaurant -- schema`. Draft-07, because TypeBox writes tuples as `items: [...]` with
 * `additionalItems` (the draft-07 spelling), and editors support it best.
 */
export function restaurantConfigJsonSchema(): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(RestaurantConfigSchema)) as Record<string, unknown>;
  return { $schema: JSON_SCHEMA_DIALECT, ...(dropDefaultedFromRequired(plain) as Record<string, unknown>) };
}

/** The generated file's exact text (committed and compared by a test). */
export function renderRestaurantConfigJsonSchema(): string {
  return `${JSON.stringify(restaurantConfigJsonSchema(), null, 2)}\n`;
}

// A property with a default may be left out of the file: the validator fills it in.
function dropDefaultedFromRequired(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropDefaultedFromRequired);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = key === 'default' ? value : dropDefaultedFromRequired(value);
  const properties = copy.properties as Record<string, Record<string, unknown>> | undefined;
  if (Array.isArray(copy.required) && properties) {
    const required = (copy.required as string[]).filter((name) => !(properties[name] && 'default' in properties[name]));
    if (required.length > 0) copy.required = required;
    else delete copy.required;
  }
  return copy;
}
