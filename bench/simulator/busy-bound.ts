// `npm run simulate:busy-bound -- --profile FILE [--seeds A-B]`: what busy mode could reach on a
// profile at best (issue 32), apart from the engine. For each seed it draws the service's orders as
// the simulator does (arrivals, lines, quantities, true times, channels) and gives:
// - the work offered at each station against its capacity over the service and over the peak
//   (cook-minutes: true times, the cooks on shift, the absence), the load any admission rule faces;
// - a clairvoyant kitchen: every line's true time known at once, no bump noise, each station's cooks
//   taking lines oldest first (the simulator's cooks), the absent cook away; and a clairvoyant
//   admission that refuses a store front's order when, taken, it would be ready more than `limit`
//   minutes after it was placed, or when the bottleneck's queue is over `queue` minutes and the order
//   brings it more than `heavy` dishes of work (the heaviest first). POS and kitchen orders are always
//   taken. Every (limit, queue, heavy) on a grid is tried; it prints the fewest refused for which the
//   p90 ticket time of the taken orders is within the target, and the least p90 within the refused
//   target. Not an optimum over every rule, but the best of a family holding the engine's own rule,
//   with what no engine knows (every true time, the absent cook): the engine predicts from learned
//   means and noisy bumps.
import { parseArgs } from 'node:util';
import { quantile } from '../../src/engine/domain/prep-times.ts';
import { readProfile, type Profile } from './profile.ts';
import { Random } from './random.ts';

const MIN = 60_000;

interface DrawnOrder {
  at: number;
  store_front: boolean;
  lines: { station: string; ms: number }[];
}

/** One service's orders, drawn with the simulator's distributions (kitchen-sim.ts). */
export function drawService(profile: Profile, seed: number): DrawnOrder[] {
  const random = new Random(seed);
  const end = profile.duration_minutes * MIN;
  const peakRate = Math.max(...profile.arrivals.map((a) => a.per_hour));
  const rateAt = (t: number) => profile.arrivals.find((a) => t / MIN >= a.from_minute && t / MIN < a.to_minute)?.per_hour ?? 0;
  const counts = Object.keys(profile.lines_per_order);
  const orders: DrawnOrder[] = [];
  for (let t = 0; ; ) {
    t += random.exponential(peakRate / 60) * MIN;
    if (t >= end) break;
    if (random.next() * peakRate >= rateAt(t)) continue;
    const count = Number(counts[random.pick(counts.map((c) => profile.lines_per_order[c]!))]);
    const lines = Array.from({ length: count }, () => {
      const item = profile.menu[random.pick(profile.menu.map((m) => m.weight))]!;
      const quantity = random.next() < profile.multi_unit_share ? 1 + Math.floor(random.next() * profile.max_quantity) : 1;
      return { station: item.station, ms: random.logNormal(item.true_minutes * 60, item.spread) * (1 + 0.5 * (quantity - 1)) * 1000 };
    });
    const channel = profile.channels[random.pick(profile.channels.map((c) => c.share))]!;
    orders.push({ at: Math.round(t), store_front: channel.kind === 'store_front', lines });
  }
  return orders;
}

/** The stations' cooks, taking lines oldest first, the absent cook away for the absence. */
class Kitchen {
  private readonly free = new Map<string, number[]>();

  constructor(private readonly profile: Profile) {
    for (const s of profile.stations) this.free.set(s.id, new Array<number>(s.cooks).fill(0));
  }

  private startOn(station: string, cook: number, at: number): number {
    const last = this.free.get(station)!.length - 1;
    const away = cook === last ? this.profile.absences.find((a) => a.station === station && at >= a.from_minute * MIN && at < a.to_minute * MIN) : undefined;
    return away ? away.to_minute * MIN : at;
  }

  /** When the order's lines would be done if taken at `at` (nothing placed). */
  readyIf(order: DrawnOrder): number {
    const copy = new Map([...this.free].map(([k, v]) => [k, [...v]]));
    return this.place(order, copy);
  }

  take(order: DrawnOrder): number {
    return this.place(order, this.free);
  }

  /** Minutes of queue at `station` for a line fired at `at`: when its first cook frees. */
  queueMinutes(station: string, at: number): number {
    return Math.max(0, Math.min(...this.free.get(station)!) - at) / MIN;
  }

  private place(order: DrawnOrder, free: Map<string, number[]>): number {
    let ready = order.at;
    for (const line of order.lines) {
      const cooks = free.get(line.station)!;
      let best = 0;
      let bestStart = Number.POSITIVE_INFINITY;
      cooks.forEach((f, k) => {
        const start = this.startOn(line.station, k, Math.max(f, order.at));
        if (start < bestStart) [best, bestStart] = [k, start];
      });
      cooks[best] = bestStart + line.ms;
      ready = Math.max(ready, cooks[best]!);
    }
    return ready;
  }
}

interface Rule {
  limit: number;
  queue: number;
  heavy: number;
}

function serve(profile: Profile, orders: readonly DrawnOrder[], rule: Rule | null, bottleneck: string, dishMs: number): { tickets: number[]; refused: number } {
  const kitchen = new Kitchen(profile);
  const cooks = profile.stations.find((s) => s.id === bottleneck)!.cooks;
  const tickets: number[] = [];
  let refused = 0;
  for (const order of orders) {
    if (rule && order.store_front) {
      const own = (kitchen.readyIf(order) - order.at) / MIN;
      const work = order.lines.filter((l) => l.station === bottleneck).reduce((s, l) => s + l.ms, 0) / cooks;
      const heavy = kitchen.queueMinutes(bottleneck, order.at) > rule.queue && work > rule.heavy * (dishMs / cooks);
      if (own > rule.limit || heavy) {
        refused++;
        continue;
      }
    }
    tickets.push((kitchen.take(order) - order.at) / MIN);
  }
  return { tickets, refused };
}

/** The station whose offered work is the largest share of its capacity. */
function bottleneckOf(profile: Profile, orders: readonly DrawnOrder[]): string {
  const share = (s: Profile['stations'][number]) => orders.flatMap((o) => o.lines).filter((l) => l.station === s.id).reduce((sum, l) => sum + l.ms, 0) / s.cooks;
  return [...profile.stations].sort((a, b) => share(b) - share(a))[0]!.id;
}

export interface BusyBound {
  orders: number;
  load: { station: string; offered: number; capacity: number; peak_offered: number; peak_capacity: number }[];
  none: { refused: number; p90: number };
  fewest_refused_within_p90: (Rule & { refused: number; p90: number }) | null;
  least_p90_within_refused: (Rule & { refused: number; p90: number }) | null;
}

export function busyBound(profile: Profile, seeds: readonly number[], targets = { p90: 25, refused: 0.15 }): BusyBound {
  const services = seeds.map((seed) => drawService(profile, seed));
  const all = services.flat();
  const minutesIn = (from: number, to: number, station: string) => {
    const s = profile.stations.find((x) => x.id === station)!;
    const away = profile.absences.filter((a) => a.station === station).reduce((sum, a) => sum + Math.max(0, Math.min(to, a.to_minute) - Math.max(from, a.from_minute)), 0);
    return s.cooks * (to - from) - away;
  };
  const load = profile.stations.map((s) => {
    const work = (from: number, to: number) => all.filter((o) => o.at >= from * MIN && o.at < to * MIN).flatMap((o) => o.lines).filter((l) => l.station === s.id).reduce((sum, l) => sum + l.ms, 0) / MIN / seeds.length;
    return {
      station: s.id,
      offered: work(0, profile.duration_minutes),
      capacity: minutesIn(0, profile.duration_minutes, s.id),
      peak_offered: work(profile.peak.from_minute, profile.peak.to_minute),
      peak_capacity: minutesIn(profile.peak.from_minute, profile.peak.to_minute, s.id),
    };
  });
  const bottleneck = bottleneckOf(profile, all);
  const dishMs = Math.max(...profile.menu.filter((m) => m.station === bottleneck).map((m) => m.true_minutes)) * MIN;
  const run = (rule: Rule | null) => {
    const served = services.map((orders) => serve(profile, orders, rule, bottleneck, dishMs));
    const tickets = served.flatMap((s) => s.tickets);
    return { refused: served.reduce((n, s) => n + s.refused, 0) / all.length, p90: quantile(tickets, 0.9) };
  };
  let fewest: BusyBound['fewest_refused_within_p90'] = null;
  let least: BusyBound['least_p90_within_refused'] = null;
  for (let limit = 10; limit <= 60; limit += 1) {
    for (const queue of [0, 2, 4, 6, 8, 10, 12, 15, 20, 25, 1000]) {
      for (const heavy of [0.5, 1, 1.5, 2, 3, 1000]) {
        const rule = { limit, queue, heavy };
        const figure = run(rule);
        if (figure.p90 <= targets.p90 && (!fewest || figure.refused < fewest.refused)) fewest = { ...rule, ...figure };
        if (figure.refused <= targets.refused && (!least || figure.p90 < least.p90)) least = { ...rule, ...figure };
      }
    }
  }
  return { orders: all.length, load, none: run(null), fewest_refused_within_p90: fewest, least_p90_within_refused: least };
}

/** One rule's figures on the clairvoyant kitchen (null: every order taken). */
export function evaluateRule(profile: Profile, seeds: readonly number[], rule: Rule | null): { refused: number; p90: number } {
  const services = seeds.map((seed) => drawService(profile, seed));
  const bottleneck = bottleneckOf(profile, services.flat());
  const dishMs = Math.max(...profile.menu.filter((m) => m.station === bottleneck).map((m) => m.true_minutes)) * MIN;
  const served = services.map((orders) => serve(profile, orders, rule, bottleneck, dishMs));
  return { refused: served.reduce((n, s) => n + s.refused, 0) / services.flat().length, p90: quantile(served.flatMap((s) => s.tickets), 0.9) };
}

function seedRange(text: string): number[] {
  const match = /^(\d+)-(\d+)$/.exec(text);
  if (!match) throw new Error('--seeds must be A-B');
  return Array.from({ length: Number(match[2]) - Number(match[1]) + 1 }, (_, i) => Number(match[1]) + i);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { profile: { type: 'string' }, seeds: { type: 'string', default: '1001-1030' } } });
  if (!values.profile) throw new Error('--profile FILE is required');
  const profile = readProfile(values.profile);
  const bound = busyBound(profile, seedRange(values.seeds!));
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const min = (x: number) => `${x.toFixed(1)} min`;
  const rule = (r: Rule) => `tope ${r.limit} min${r.queue < 1000 && r.heavy < 1000 ? `, con cola > ${r.queue} min rechaza > ${r.heavy} platos` : ''}`;
  console.log(`Perfil ${profile.name}, semillas ${values.seeds}: ${bound.orders} pedidos (${(bound.orders / seedRange(values.seeds!).length).toFixed(1)} por servicio)`);
  console.log('  trabajo ofrecido / capacidad (minutos-cocinero por servicio, tiempos reales): todo el servicio | peak');
  for (const l of bound.load) console.log(`  ${l.station.padEnd(10)} ${l.offered.toFixed(0).padStart(5)} / ${l.capacity.toFixed(0).padStart(4)} (${pct(l.offered / l.capacity).padStart(7)}) | ${l.peak_offered.toFixed(0).padStart(5)} / ${l.peak_capacity.toFixed(0).padStart(4)} (${pct(l.peak_offered / l.peak_capacity).padStart(7)})`);
  console.log(`  cocina clarividente sin rechazar: p90 ${min(bound.none.p90)}`);
  const f = bound.fewest_refused_within_p90;
  console.log(f ? `  lo menos rechazado con p90 ≤ 25 min: ${pct(f.refused)} (p90 ${min(f.p90)}; ${rule(f)})` : '  ninguna regla de la grilla deja el p90 en 25 min');
  const l = bound.least_p90_within_refused;
  console.log(l ? `  el menor p90 rechazando ≤ 15 %: ${min(l.p90)} (rechazados ${pct(l.refused)}; ${rule(l)})` : '  ninguna regla de la grilla rechaza ≤ 15 %');
}
