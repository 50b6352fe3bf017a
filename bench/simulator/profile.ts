// A kitchen profile for `npm run simulate` (docs/kitchen-promises.md has the format): stations and their
// cooks, the menu with typed and true prep times, the arrival curve, the channel mix and the noise
// of real kitchens. Read strictly: a profile with an unknown field or a value out of range is refused.
import { readFileSync } from 'node:fs';

export type ChannelKind = 'store_front' | 'pos' | 'kitchen';

export interface Profile {
  name: string;
  description: string;
  /** Local time the simulated service starts (HH:MM), in `time_zone`. */
  start_local: string;
  time_zone: string;
  /** Minutes orders arrive for (the kitchen then finishes what it has). */
  duration_minutes: number;
  /**
   * Stations and their cooks; `units_at_once` is the station's true capacity, what its simulated cooks
   * do (each has that many units on at once, the station at most `max_units_at_once`; absent: one line
   * per cook), and `typed_units_at_once` what the restaurant file says of it (absent: the truth; 1: the
   * engine is not told, a cook schedules one line at a time).
   */
  stations: { id: string; name: string; cooks: number; units_at_once?: number; max_units_at_once?: number; typed_units_at_once?: number }[];
  menu: {
    slug: string;
    name: string;
    station: string;
    price: number;
    /** What the restaurant file says (the engine's prior). */
    typed_minutes: number;
    /** The mean a cook really takes for one unit. */
    true_minutes: number;
    /** Spread of the true time: the log-normal's sigma (0.2: about ±20 %). */
    spread: number;
    /** How often it is ordered, relative to the others. */
    weight: number;
  }[];
  /** Lines per order: probability of each count (they sum to 1). */
  lines_per_order: Record<string, number>;
  /** Largest quantity of a line (uniform from 1; most lines are 1, see `multi_unit_share`). */
  max_quantity: number;
  multi_unit_share: number;
  /** Orders per hour over the service, piecewise constant by minute from the start. */
  arrivals: { from_minute: number; to_minute: number; per_hour: number }[];
  /** The peak, whose orders' point accuracy is reported. */
  peak: { from_minute: number; to_minute: number };
  channels: { label: string; kind: ChannelKind; share: number }[];
  noise: {
    /** Share of bumps made late, and early, by 1–3 minutes. */
    late_bump_share: number;
    early_bump_share: number;
    bump_shift_minutes: [number, number];
    /** Times per hour a station's cook stops bumping for a few minutes and then sweeps the screen. */
    sweeps_per_hour: number;
    sweep_minutes: number;
    /** Share of tickets a cook moves to en preparación when starting them (the rest give no start). */
    start_tap_share: number;
  };
  /** A cook absent for a while (the hub is not told). */
  absences: { station: string; from_minute: number; to_minute: number }[];
  /** The restaurant file's `busy_mode` (docs/restaurant-config.md); absent: never paused. */
  busy_mode?: { threshold_minutes: number; after_minutes: number; margin_minutes: number; max_pauses_per_hour: number };
}

const fail = (path: string, message: string): never => {
  throw new Error(`profile ${path}: ${message}`);
};

function number(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) fail(path, `must be a number from ${min} to ${max}`);
  return value as number;
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) fail(path, 'must be a non-empty string');
  return value as string;
}

function object(value: unknown, path: string, keys: readonly string[]): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(path, 'must be an object');
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!keys.includes(key) && key !== '$comment') fail(`${path}.${key}`, 'is not a field of the format');
  return record;
}

function list(value: unknown, path: string, max: number): unknown[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > max) fail(path, `must be a list of 1 to ${max}`);
  return value as unknown[];
}

/** Reads and checks a profile file. */
export function readProfile(file: string): Profile {
  return checkProfile(JSON.parse(readFileSync(file, 'utf8')) as unknown);
}

export function checkProfile(json: unknown): Profile {
  const p = object(json, '$', [
    'name', 'description', 'start_local', 'time_zone', 'duration_minutes', 'stations', 'menu', 'lines_per_order', 'max_quantity',
    'multi_unit_share', 'arrivals', 'peak', 'channels', 'noise', 'absences', 'busy_mode',
  ]);
  const stations = list(p.stations, '$.stations', 20).map((s, i) => {
    const path = `$.stations[${i}]`;
    const o = object(s, path, ['id', 'name', 'cooks', 'units_at_once', 'max_units_at_once', 'typed_units_at_once']);
    const units = (key: 'units_at_once' | 'max_units_at_once' | 'typed_units_at_once', max: number) =>
      o[key] === undefined ? {} : { [key]: Math.round(number(o[key], `${path}.${key}`, 1, max)) };
    return {
      id: text(o.id, `${path}.id`),
      name: text(o.name, `${path}.name`),
      cooks: Math.round(number(o.cooks, `${path}.cooks`, 1, 50)),
      ...units('units_at_once', 50),
      ...units('max_units_at_once', 200),
      ...units('typed_units_at_once', 50),
    };
  });
  const stationIds = new Set(stations.map((s) => s.id));
  const menu = list(p.menu, '$.menu', 200).map((m, i) => {
    const path = `$.menu[${i}]`;
    const o = object(m, path, ['slug', 'name', 'station', 'price', 'typed_minutes', 'true_minutes', 'spread', 'weight']);
    const station = text(o.station, `${path}.station`);
    if (!stationIds.has(station)) fail(`${path}.station`, `unknown station "${station}"`);
    return {
      slug: text(o.slug, `${path}.slug`),
      name: text(o.name, `${path}.name`),
      station,
      price: Math.round(number(o.price, `${path}.price`, 0, 1_000_000)),
      typed_minutes: number(o.typed_minutes, `${path}.typed_minutes`, 0, 240),
      true_minutes: number(o.true_minutes, `${path}.true_minutes`, 0.1, 240),
      spread: number(o.spread, `${path}.spread`, 0, 1.5),
      weight: number(o.weight, `${path}.weight`, 0, 1000),
    };
  });
  const lines = object(p.lines_per_order, '$.lines_per_order', ['1', '2', '3', '4', '5', '6']);
  const linesPerOrder = Object.fromEntries(Object.entries(lines).map(([k, v]) => [k, number(v, `$.lines_per_order.${k}`, 0, 1)]));
  const total = Object.values(linesPerOrder).reduce((a, b) => a + b, 0);
  if (Math.abs(total - 1) > 1e-6) fail('$.lines_per_order', `must sum to 1 (it sums to ${total})`);
  const duration = number(p.duration_minutes, '$.duration_minutes', 10, 24 * 60);
  const arrivals = list(p.arrivals, '$.arrivals', 100).map((a, i) => {
    const o = object(a, `$.arrivals[${i}]`, ['from_minute', 'to_minute', 'per_hour']);
    return {
      from_minute: number(o.from_minute, `$.arrivals[${i}].from_minute`, 0, duration),
      to_minute: number(o.to_minute, `$.arrivals[${i}].to_minute`, 0, duration),
      per_hour: number(o.per_hour, `$.arrivals[${i}].per_hour`, 0, 2000),
    };
  });
  const peak = object(p.peak, '$.peak', ['from_minute', 'to_minute']);
  const channels = list(p.channels, '$.channels', 10).map((c, i) => {
    const o = object(c, `$.channels[${i}]`, ['label', 'kind', 'share']);
    if (o.kind !== 'store_front' && o.kind !== 'pos' && o.kind !== 'kitchen') fail(`$.channels[${i}].kind`, 'must be store_front, pos or kitchen');
    return { label: text(o.label, `$.channels[${i}].label`), kind: o.kind as ChannelKind, share: number(o.share, `$.channels[${i}].share`, 0, 1) };
  });
  const noise = object(p.noise, '$.noise', ['late_bump_share', 'early_bump_share', 'bump_shift_minutes', 'sweeps_per_hour', 'sweep_minutes', 'start_tap_share']);
  const shift = list(noise.bump_shift_minutes, '$.noise.bump_shift_minutes', 2);
  const absences = (Array.isArray(p.absences) ? p.absences : []).map((a, i) => {
    const o = object(a, `$.absences[${i}]`, ['station', 'from_minute', 'to_minute']);
    const station = text(o.station, `$.absences[${i}].station`);
    if (!stationIds.has(station)) fail(`$.absences[${i}].station`, `unknown station "${station}"`);
    return { station, from_minute: number(o.from_minute, `$.absences[${i}].from_minute`, 0, 24 * 60), to_minute: number(o.to_minute, `$.absences[${i}].to_minute`, 0, 24 * 60) };
  });
  if (typeof p.start_local !== 'string' || !/^\d{2}:\d{2}$/.test(p.start_local)) fail('$.start_local', 'must be HH:MM');
  return {
    name: text(p.name, '$.name'),
    description: text(p.description, '$.description'),
    start_local: p.start_local as string,
    time_zone: text(p.time_zone, '$.time_zone'),
    duration_minutes: duration,
    stations,
    menu,
    lines_per_order: linesPerOrder,
    max_quantity: Math.round(number(p.max_quantity, '$.max_quantity', 1, 20)),
    multi_unit_share: number(p.multi_unit_share, '$.multi_unit_share', 0, 1),
    arrivals,
    peak: { from_minute: number(peak.from_minute, '$.peak.from_minute', 0, duration), to_minute: number(peak.to_minute, '$.peak.to_minute', 0, duration) },
    channels,
    noise: {
      late_bump_share: number(noise.late_bump_share, '$.noise.late_bump_share', 0, 1),
      early_bump_share: number(noise.early_bump_share, '$.noise.early_bump_share', 0, 1),
      bump_shift_minutes: [number(shift[0], '$.noise.bump_shift_minutes[0]', 0, 30), number(shift[1] ?? shift[0], '$.noise.bump_shift_minutes[1]', 0, 30)],
      sweeps_per_hour: number(noise.sweeps_per_hour, '$.noise.sweeps_per_hour', 0, 60),
      sweep_minutes: number(noise.sweep_minutes, '$.noise.sweep_minutes', 0, 60),
      start_tap_share: number(noise.start_tap_share, '$.noise.start_tap_share', 0, 1),
    },
    absences,
    ...(p.busy_mode === undefined ? {} : { busy_mode: busyMode(p.busy_mode) }),
  };
}

function busyMode(value: unknown): NonNullable<Profile['busy_mode']> {
  const o = object(value, '$.busy_mode', ['threshold_minutes', 'after_minutes', 'margin_minutes', 'max_pauses_per_hour']);
  return {
    threshold_minutes: Math.round(number(o.threshold_minutes, '$.busy_mode.threshold_minutes', 5, 240)),
    after_minutes: Math.round(number(o.after_minutes, '$.busy_mode.after_minutes', 0, 60)),
    margin_minutes: Math.round(number(o.margin_minutes, '$.busy_mode.margin_minutes', 1, 120)),
    max_pauses_per_hour: Math.round(number(o.max_pauses_per_hour, '$.busy_mode.max_pauses_per_hour', 1, 10)),
  };
}

/** The restaurant file the profile's kitchen runs on: one location, open, its stations and menu with the typed times. */
export function restaurantFromProfile(profile: Profile, ids: { restaurant: string; location: string }): unknown {
  return {
    id: ids.restaurant,
    name: `Simulación ${profile.name}`,
    register_mode: 'manual',
    time_zone: profile.time_zone,
    locations: [{ id: ids.location, name: 'Cocina simulada', address: 'Av. Simulada 1, Santiago', is_active: true, register_open: true }],
    catalogue: {
      categories: [
        {
          name: 'Carta',
          products: profile.menu.map((m) => ({ slug: m.slug, name: m.name, price: m.price, prep_minutes: m.typed_minutes })),
        },
      ],
    },
    ...(profile.busy_mode ? { busy_mode: profile.busy_mode } : {}),
    stations: profile.stations.map((s) => ({
      id: s.id,
      name: s.name,
      cooks: s.cooks,
      ...typedUnits(s),
      products: profile.menu.filter((m) => m.station === s.id).map((m) => m.slug),
    })),
  };
}

/**
 * What the restaurant file says of a station's capacity: `typed_units_at_once` when given (1: nothing
 * said, the engine schedules one line per cook), else its true `units_at_once`; the station's bound
 * with it when the file says more than one unit.
 */
export function typedUnits(station: Profile['stations'][number]): { units_at_once?: number; max_units_at_once?: number } {
  const typed = station.typed_units_at_once ?? station.units_at_once;
  if (typed === undefined || typed <= 1) return {};
  return { units_at_once: typed, ...(station.max_units_at_once === undefined ? {} : { max_units_at_once: station.max_units_at_once }) };
}
