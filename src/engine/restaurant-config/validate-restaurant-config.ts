// Checks a restaurant configuration file: first against the TypeBox schema (shapes, types, ranges),
// then, once the shapes are right, the rules a schema cannot say (duplicates, cross references,
// coherent schedules and delivery settings). Every problem comes with a JSON path such as
// `$.locations[1].weekly_schedule.mon[0]`, so a person can find it in the file.
import { IANAZone, DateTime } from 'luxon';
import { Compile } from 'typebox/compile';
import { Settings } from 'typebox/system';
import Value from 'typebox/value';
import type { TLocalizedValidationError } from 'typebox/error';
import {
  CLOSES_PATTERN,
  COURIER_NAME_PATTERN,
  DATE_PATTERN,
  HTTP_URL_PATTERN,
  OPENS_PATTERN,
  RestaurantConfigSchema,
  SLUG_PATTERN,
  UUID_PATTERN,
  WEEKDAYS,
  type LocationConfig,
  type RestaurantConfig,
  type TimeRange,
} from './schema.ts';
import { checkStations } from './stations.ts';

export interface RestaurantConfigProblem {
  /** Where in the file, e.g. `$.catalogue.categories[0].products[2].slug`. */
  path: string;
  message: string;
}

export type RestaurantConfigValidation =
  | { ok: true; config: RestaurantConfig }
  | { ok: false; errors: RestaurantConfigProblem[] };

const validator = Compile(RestaurantConfigSchema);

// TypeBox buffers 8 errors by default (a guard for request bodies); a config file is local and
// its author wants the whole list at once.
const MAX_SCHEMA_ERRORS = 500;

/**
 * Validates a parsed configuration file. On success the configuration has its defaults applied
 * (the input is not modified). Cross-field rules run only once the schema is satisfied, because
 * they rely on the shapes the schema guarantees.
 */
export function validateRestaurantConfig(json: unknown): RestaurantConfigValidation {
  const withDefaults = Value.Default(RestaurantConfigSchema, Value.Clone(json));
  if (!validator.Check(withDefaults)) {
    return { ok: false, errors: schemaProblems(withDefaults) };
  }
  const config = withDefaults as RestaurantConfig;
  const errors = crossFieldProblems(config);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, config };
}

// ---------------------------------------------------------------------------------------------
// Schema errors, made readable

/** Formats one step of a JSON path: `[2]` for an index, `.name` for a plain key, `["a-b"]` otherwise. */
function pathStep(step: string | number): string {
  if (typeof step === 'number') return `[${step}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(step) ? `.${step}` : `[${JSON.stringify(step)}]`;
}

export function jsonPath(...steps: (string | number)[]): string {
  return `$${steps.map(pathStep).join('')}`;
}

/**
 * Converts a JSON pointer (`/locations/1/weekly_schedule/mon/0`) into a JSON path. It walks the
 * value itself, because a pointer cannot say whether `1` is an array index or an object key.
 */
export function pointerToJsonPath(pointer: string, value: unknown): string {
  if (pointer === '') return '$';
  let path = '$';
  let current: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(token)) {
      path += pathStep(Number(token));
      current = current[Number(token)];
    } else {
      path += pathStep(token);
      current = current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[token] : undefined;
    }
  }
  return path;
}

const PATTERN_MESSAGES: Record<string, string> = {
  [UUID_PATTERN]: 'must be a lowercase UUID (e.g. "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b")',
  [SLUG_PATTERN]: 'must be a slug: lowercase letters, digits and hyphens',
  [COURIER_NAME_PATTERN]: 'must be a courier provider name: lowercase letters, digits and underscores, starting with a letter',
  [OPENS_PATTERN]: 'must be an opening time "HH:mm" between 00:00 and 23:59',
  [CLOSES_PATTERN]: 'must be a closing time "HH:mm" between 00:00 and 23:59, or "24:00"',
  [DATE_PATTERN]: 'must be a date "YYYY-MM-DD"',
  [HTTP_URL_PATTERN]: 'must be an http(s) URL',
};

const TYPE_NAMES: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

interface RawError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

function schemaProblems(value: unknown): RestaurantConfigProblem[] {
  const previousMax = Settings.Get().maxErrors;
  let raw: TLocalizedValidationError[];
  try {
    Settings.Set({ maxErrors: MAX_SCHEMA_ERRORS });
    raw = validator.Errors(value);
  } finally {
    Settings.Set({ maxErrors: previousMax });
  }
  const simplified = simplifyUnions(raw.map((error) => ({ ...error, params: error.params as Record<string, unknown> })));
  const problems: RestaurantConfigProblem[] = [];
  const seen = new Set<string>();
  for (const error of simplified) {
    for (const problem of describe(error, value)) {
      const key = `${problem.path}\u0000${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

function describe(error: RawError, value: unknown): RestaurantConfigProblem[] {
  const at = (pointer: string) => pointerToJsonPath(pointer, value);
  const child = (name: string) => `${error.instancePath}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  switch (error.keyword) {
    case 'required':
      return ((error.params.requiredProperties as string[] | undefined) ?? []).map((name) => ({
        path: at(child(name)),
        message: 'is required',
      }));
    case 'additionalProperties':
      return ((error.params.additionalProperties as string[] | undefined) ?? []).map((name) => ({
        path: at(child(name)),
        message: 'is not a field of this format',
      }));
    case 'boolean':
      // `additionalProperties: false` also reports each extra property as "schema is false" (said
      // above); `additionalItems: false` is a tuple with too many elements.
      if (error.schemaPath.endsWith('/additionalProperties')) return [];
      if (error.schemaPath.endsWith('/additionalItems')) return [{ path: at(error.instancePath), message: 'is one element too many' }];
      return [{ path: at(error.instancePath), message: 'is not allowed here' }];
    case 'type':
      return [{ path: at(error.instancePath), message: `must be ${TYPE_NAMES[String(error.params.type)] ?? String(error.params.type)}` }];
    case 'pattern':
      return [{ path: at(error.instancePath), message: PATTERN_MESSAGES[String(error.params.pattern)] ?? error.message }];
    case 'enum':
      return [{ path: at(error.instancePath), message: `must be one of ${listValues(error.params.allowedValues as unknown[])}` }];
    case 'const':
      return [{ path: at(error.instancePath), message: `must be ${JSON.stringify(error.params.allowedValue)}` }];
    case 'uniqueItems':
      return [{ path: at(error.instancePath), message: 'must not repeat an element' }];
    case 'minItems':
      return [{ path: at(error.instancePath), message: `must have at least ${String(error.params.limit)} element(s)` }];
    case 'maxItems':
      return [{ path: at(error.instancePath), message: `must have at most ${String(error.params.limit)} element(s)` }];
    case 'minLength':
      return [{ path: at(error.instancePath), message: Number(error.params.limit) === 1 ? 'must not be empty' : error.message }];
    default:
      return [{ path: at(error.instancePath), message: error.message }];
  }
}

function listValues(values: unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/**
 * A failed union (`anyOf`) reports every branch's complaints, which mostly talk about shapes the
 * author did not mean. Keep the branch the value was evidently aiming at: not the `null` of a
 * nullable field, not a branch whose discriminator (`const`) differs; then the branch with the
 * fewest complaints. Innermost unions are settled first so outer ones see one answer per inner one.
 */
function simplifyUnions(errors: RawError[]): RawError[] {
  let current = errors;
  const unions = errors.filter((e) => e.keyword === 'anyOf').sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const union of unions) {
    if (!current.includes(union)) continue;
    // Every element of an array shares its items' schema path: a branch's errors are those under
    // both the union's schema path and the union's value.
    const prefix = `${union.schemaPath}/anyOf/`;
    const belongs = (error: RawError) =>
      error.schemaPath.startsWith(prefix) &&
      (error.instancePath === union.instancePath || error.instancePath.startsWith(`${union.instancePath}/`));
    const branches = new Map<number, RawError[]>();
    for (const error of current) {
      if (!belongs(error)) continue;
      const index = Number(error.schemaPath.slice(prefix.length).split('/')[0]);
      branches.set(index, [...(branches.get(index) ?? []), error]);
    }
    const replacement = settleUnion(union, [...branches.values()]).map((e) => ({ ...e, schemaPath: union.schemaPath }));
    // In place of the union's first complaint, so problems stay in file order.
    const at = current.findIndex((e) => e === union || belongs(e));
    const rest = current.filter((e) => e !== union && !belongs(e));
    current = [...rest.slice(0, at), ...replacement, ...rest.slice(at)];
  }
  return current;
}

function settleUnion(union: RawError, branches: RawError[][]): RawError[] {
  const isNullBranch = (branch: RawError[]) =>
    branch.length === 1 && branch[0]?.keyword === 'type' && branch[0].params.type === 'null';
  let candidates = branches.filter((b) => !isNullBranch(b));
  if (candidates.length === 0) candidates = branches;

  // Every branch rejects the same discriminator: the discriminator is what is wrong.
  const discriminators = candidates.map((b) => b.find((e) => e.keyword === 'const'));
  const first = discriminators[0];
  if (first && discriminators.every((d) => d && d.instancePath === first.instancePath)) {
    const allowed = discriminators.map((d) => d!.params.allowedValue);
    return [{ ...first, keyword: 'enum', params: { allowedValues: allowed }, message: '' }];
  }
  const matching = candidates.filter((b) => !b.some((e) => e.keyword === 'const'));
  if (matching.length > 0) candidates = matching;

  const weight = (branch: RawError[]) => branch.filter((e) => e.keyword !== 'boolean').length;
  const fewest = Math.min(...candidates.map(weight));
  const best = candidates.filter((b) => weight(b) === fewest);
  if (best.length === 1 && best[0]) return best[0];

  // No branch stands out: name the shapes the value may take.
  const titles = unionTitles(union.schemaPath);
  const message = titles.length > 0 ? `must be one of: ${titles.join('; ')}` : 'does not match any allowed shape';
  return [{ ...union, keyword: 'union', message }];
}

/** Titles of a union's branches, found by following its schema path into the schema. */
function unionTitles(schemaPath: string): string[] {
  let node: unknown = RestaurantConfigSchema;
  for (const raw of schemaPath.replace(/^#\/?/, '').split('/').filter((t) => t !== '')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[token] : undefined;
  }
  const anyOf = (node as { anyOf?: { title?: string }[] } | undefined)?.anyOf ?? [];
  return anyOf.map((branch) => branch.title).filter((title): title is string => typeof title === 'string');
}

// ---------------------------------------------------------------------------------------------
// Rules across fields

function crossFieldProblems(config: RestaurantConfig): RestaurantConfigProblem[] {
  const problems: RestaurantConfigProblem[] = [];
  const report = (path: string, message: string) => problems.push({ path, message });

  if (!IANAZone.isValidZone(config.time_zone)) {
    report(jsonPath('time_zone'), `unknown time zone "${config.time_zone}" (use an IANA name such as "America/Santiago")`);
  }

  checkUniqueIds(config, report);

  // Products by slug, for the duplicate check and for stock.
  const productsBySlug = new Map<string, { trackStock: boolean; path: string }>();
  config.catalogue.categories.forEach((category, c) => {
    category.products.forEach((product, p) => {
      const productPath = jsonPath('catalogue', 'categories', c, 'products', p);
      const earlier = productsBySlug.get(product.slug);
      if (earlier) {
        report(`${productPath}.slug`, `duplicate slug "${product.slug}" (already used by ${earlier.path})`);
      } else {
        productsBySlug.set(product.slug, { trackStock: product.track_stock, path: productPath });
      }
      product.modifier_groups.forEach((group, g) => {
        const groupPath = `${productPath}.modifier_groups[${g}]`;
        if (group.min > group.max) {
          report(`${groupPath}.min`, `min (${group.min}) must not exceed max (${group.max})`);
        }
        // A required group with max < 1 is refused by the schema itself (max >= 1).
        const fewestChoices = group.required ? Math.max(group.min, 1) : group.min;
        if (group.options.length < fewestChoices) {
          report(
            `${groupPath}.options`,
            `${group.required ? 'a required group' : 'the group'} needs at least ${fewestChoices} option(s) to choose from (max(min, ${group.required ? 1 : 0})), it has ${group.options.length}`,
          );
        }
      });
    });
  });

  config.locations.forEach((location, l) => {
    checkLocation(location, l, productsBySlug, report);
  });

  checkStations(config, report);

  return problems;
}

type Report = (path: string, message: string) => void;

function checkUniqueIds(config: RestaurantConfig, report: Report): void {
  const firstUse = new Map<string, string>();
  const claim = (id: string | undefined, ...steps: (string | number)[]) => {
    if (id === undefined) return;
    const path = jsonPath(...steps);
    const earlier = firstUse.get(id);
    if (earlier) report(`${path}.id`, `duplicate id "${id}" (already used by ${earlier})`);
    else firstUse.set(id, path === '$' ? '$ (the restaurant)' : path);
  };
  claim(config.id);
  config.locations.forEach((location, l) => claim(location.id, 'locations', l));
  config.catalogue.categories.forEach((category, c) => {
    claim(category.id, 'catalogue', 'categories', c);
    category.products.forEach((product, p) => {
      claim(product.id, 'catalogue', 'categories', c, 'products', p);
      product.modifier_groups.forEach((group, g) => {
        claim(group.id, 'catalogue', 'categories', c, 'products', p, 'modifier_groups', g);
        group.options.forEach((option, o) => {
          claim(option.id, 'catalogue', 'categories', c, 'products', p, 'modifier_groups', g, 'options', o);
        });
      });
    });
  });
}

function checkLocation(
  location: LocationConfig,
  l: number,
  productsBySlug: Map<string, { trackStock: boolean }>,
  report: Report,
): void {
  const locationPath = jsonPath('locations', l);
  const hasLatitude = location.latitude !== undefined;
  const hasLongitude = location.longitude !== undefined;
  if (hasLatitude !== hasLongitude) {
    report(`${locationPath}.${hasLatitude ? 'longitude' : 'latitude'}`, 'latitude and longitude go together: give both or neither');
  }

  for (const day of WEEKDAYS) {
    const ranges = location.weekly_schedule[day];
    if (ranges) checkTimeRanges(ranges, `${locationPath}.weekly_schedule.${day}`, report);
  }

  const exceptionDates = new Map<string, number>();
  (location.exceptions ?? []).forEach((exception, e) => {
    const exceptionPath = `${locationPath}.exceptions[${e}]`;
    if (!DateTime.fromISO(exception.date, { zone: 'utc' }).isValid) {
      report(`${exceptionPath}.date`, `"${exception.date}" is not a calendar date`);
    }
    const earlier = exceptionDates.get(exception.date);
    if (earlier !== undefined) {
      report(`${exceptionPath}.date`, `another exception for ${exception.date} is at ${locationPath}.exceptions[${earlier}]; give one per date`);
    } else {
      exceptionDates.set(exception.date, e);
    }
    if (exception.closed && exception.hours.length > 0) {
      report(`${exceptionPath}.hours`, 'a closed day has no hours: leave hours empty, or set closed to false');
    }
    if (!exception.closed && exception.hours.length === 0) {
      report(`${exceptionPath}.hours`, 'a day that is not closed needs its hours (at least one range), or set closed to true');
    }
    checkTimeRanges(exception.hours, `${exceptionPath}.hours`, report);
  });

  const own = location.delivery.own;
  if (own) {
    const ownPath = `${locationPath}.delivery.own`;
    if (own.enabled && (!hasLatitude || !hasLongitude)) {
      report(`${ownPath}.enabled`, 'own delivery needs the location\'s latitude and longitude (distances are measured from there)');
    }
    own.fee_bands.forEach((band, b) => {
      const previous = own.fee_bands[b - 1];
      if (previous && band.up_to_km <= previous.up_to_km) {
        report(
          `${ownPath}.fee_bands[${b}].up_to_km`,
          `fee bands must be in ascending up_to_km order: ${band.up_to_km} km does not exceed the previous band's ${previous.up_to_km} km`,
        );
      }
    });
    const lastBand = own.fee_bands[own.fee_bands.length - 1];
    if ('radius_km' in own.coverage && lastBand && lastBand.up_to_km < own.coverage.radius_km) {
      report(
        `${ownPath}.fee_bands`,
        `the last fee band reaches ${lastBand.up_to_km} km but the coverage radius is ${own.coverage.radius_km} km: addresses in between would have no fee`,
      );
    }
  }

  for (const slug of Object.keys(location.stock ?? {})) {
    const product = productsBySlug.get(slug);
    const stockPath = `${locationPath}.stock${pathStep(slug)}`;
    if (!product) report(stockPath, `no product has the slug "${slug}"`);
    else if (!product.trackStock) report(stockPath, `product "${slug}" does not track stock (track_stock is false), so it has no stock to set`);
  }
}

function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/**
 * A range closes after it opens; a closing time at or before the opening time continues past
 * midnight. Equal times are refused as ambiguous (nothing, or a whole day?), and ranges of the same
 * day must not overlap.
 */
function checkTimeRanges(ranges: TimeRange[], path: string, report: Report): void {
  const spans: { start: number; end: number; index: number }[] = [];
  ranges.forEach(([opens, closes], index) => {
    if (opens === closes) {
      report(`${path}[${index}]`, `opens and closes at the same time (${opens}): for a whole day write ["00:00", "24:00"]`);
      return;
    }
    const start = minutesOf(opens);
    let end = minutesOf(closes);
    if (end <= start) end += 24 * 60;
    spans.push({ start, end, index });
  });
  spans.sort((a, b) => a.start - b.start);
  // The span reaching furthest so far: a long range may overlap several that follow it.
  let furthest = spans[0];
  for (const span of spans.slice(1)) {
    if (!furthest) break;
    if (span.start < furthest.end) {
      const [later, earlier] = span.index > furthest.index ? [span, furthest] : [furthest, span];
      report(`${path}[${later.index}]`, `overlaps the range at ${path}[${earlier.index}]`);
    }
    if (span.end > furthest.end) furthest = span;
  }
}
