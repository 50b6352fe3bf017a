// The simulator's figures: for the engine's promise and the baselines every ordering platform uses
// (a fixed 15 and 25 minutes, the longest item, a cap of 7 orders per 15-minute slot), how many
// orders were ready by their promise and how long the promises were; the promise's point accuracy
// for orders made during the peak; how close an order's lines finished together.
import { quantile } from '../../src/engine/domain/prep-times.ts';
import type { BusyLog, SimulatedOrder } from './kitchen-sim.ts';

const MIN = 60_000;
export const SLOT_MINUTES = 15;
export const SLOT_CAP = 7;

export interface MethodFigure {
  method: string;
  on_time: number;
  mean_promise_minutes: number;
}

export interface Figures {
  orders: number;
  refused: number;
  refused_pos_or_kitchen: number;
  mean_ticket_minutes: number;
  p90_ticket_minutes: number;
  methods: MethodFigure[];
  /** The slot cap padded by the fewest minutes that make it as punctual as the engine's promise. */
  slot_cap_at_engine_on_time: { pad_minutes: number; on_time: number; mean_promise_minutes: number } | null;
  peak_error_minutes: { orders: number; median: number; mean: number; p90: number };
  finish_together: { orders: number; median_gap_minutes: number; p90_gap_minutes: number };
  /** Busy mode, when the profile sets it: pauses, the most in any hour of one service, and how long resuming took. */
  busy_mode: { pauses: number; max_pauses_in_an_hour: number; resumes: number; max_resume_delay_minutes: number } | null;
}

type Promiser = (order: SimulatedOrder, index: number) => number;

function method(name: string, orders: SimulatedOrder[], promise: Promiser): MethodFigure {
  let onTime = 0;
  let total = 0;
  orders.forEach((order, i) => {
    const at = promise(order, i);
    if (order.ready_at! <= at) onTime++;
    total += at - order.created_at;
  });
  return { method: name, on_time: onTime / orders.length, mean_promise_minutes: total / orders.length / MIN };
}

/** Slot-cap promises: each order, in arrival order, takes the first 15-minute slot ending 15 minutes or more after it with room. */
export function slotCapPromises(orders: readonly SimulatedOrder[]): number[] {
  const taken = new Map<string, number>();
  return orders.map((order) => {
    let slotEnd = Math.ceil((order.created_at + SLOT_MINUTES * MIN) / (SLOT_MINUTES * MIN)) * SLOT_MINUTES * MIN;
    for (;;) {
      const key = `${order.seed}:${slotEnd}`;
      const count = taken.get(key) ?? 0;
      if (count < SLOT_CAP) {
        taken.set(key, count + 1);
        return slotEnd;
      }
      slotEnd += SLOT_MINUTES * MIN;
    }
  });
}

const longestItem = (order: SimulatedOrder) =>
  order.created_at + Math.max(...order.lines.map((l) => l.typed_minutes * (1 + 0.5 * (l.quantity - 1)))) * MIN;

export function computeFigures(all: readonly SimulatedOrder[], busy: readonly BusyLog[] | null = null): Figures {
  const taken = all.filter((o) => o.refused === null && o.ready_at !== null && o.promised_ready_at !== null);
  const tickets = taken.map((o) => (o.ready_at! - o.created_at) / MIN);
  const slots = slotCapPromises(taken);
  const engineFigure = method('promesa de Comanda (p90)', taken, (o) => o.promised_ready_at!);
  const methods = [
    engineFigure,
    method('fijo 15 min', taken, (o) => o.created_at + 15 * MIN),
    method('fijo 25 min', taken, (o) => o.created_at + 25 * MIN),
    method('plato más largo (tiempos tipeados)', taken, longestItem),
    method(`tope de ${SLOT_CAP} pedidos por franja de ${SLOT_MINUTES} min`, taken, (_o, i) => slots[i]!),
  ];
  let padded: Figures['slot_cap_at_engine_on_time'] = null;
  for (let pad = 0; pad <= 180; pad += 0.5) {
    const figure = method('slot', taken, (_o, i) => slots[i]! + pad * MIN);
    if (figure.on_time >= engineFigure.on_time) {
      padded = { pad_minutes: pad, on_time: figure.on_time, mean_promise_minutes: figure.mean_promise_minutes };
      break;
    }
  }
  const peak = taken.filter((o) => o.in_peak && o.expected_ready_at !== null).map((o) => Math.abs(o.ready_at! - o.expected_ready_at!) / MIN);
  const gaps = taken
    .filter((o) => o.lines.length > 1)
    .map((o) => {
      const done = o.lines.map((l) => l.finished_at!);
      return (Math.max(...done) - Math.min(...done)) / MIN;
    });
  return {
    orders: all.length,
    refused: all.filter((o) => o.refused !== null).length,
    refused_pos_or_kitchen: all.filter((o) => o.refused !== null && o.channel !== 'store_front').length,
    mean_ticket_minutes: tickets.reduce((a, b) => a + b, 0) / tickets.length,
    p90_ticket_minutes: quantile(tickets, 0.9),
    methods,
    slot_cap_at_engine_on_time: padded,
    peak_error_minutes: {
      orders: peak.length,
      median: quantile(peak, 0.5),
      mean: peak.reduce((a, b) => a + b, 0) / peak.length,
      p90: quantile(peak, 0.9),
    },
    finish_together: { orders: gaps.length, median_gap_minutes: quantile(gaps, 0.5), p90_gap_minutes: quantile(gaps, 0.9) },
    busy_mode: busy
      ? {
          pauses: busy.reduce((n, b) => n + b.pauses.length, 0),
          max_pauses_in_an_hour: Math.max(0, ...busy.map((b) => Math.max(0, ...b.pauses.map((p) => b.pauses.filter((q) => q >= p && q < p + 60 * MIN).length)))),
          resumes: busy.reduce((n, b) => n + b.resume_delays_ms.length, 0),
          max_resume_delay_minutes: Math.max(0, ...busy.flatMap((b) => b.resume_delays_ms)) / MIN,
        }
      : null,
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const min = (x: number) => `${x.toFixed(1)} min`;

/** The figures as the simulator prints them. */
export function renderFigures(title: string, f: Figures): string {
  const lines = [
    title,
    `  pedidos ${f.orders}, rechazados ${f.refused} (de POS o cocina: ${f.refused_pos_or_kitchen}); tiempo de ticket medio ${min(f.mean_ticket_minutes)}, p90 ${min(f.p90_ticket_minutes)}`,
    '  método                                      a tiempo   promesa media',
    ...f.methods.map((m) => `  ${m.method.padEnd(42)}  ${pct(m.on_time).padStart(8)}   ${min(m.mean_promise_minutes).padStart(10)}`),
  ];
  if (f.slot_cap_at_engine_on_time) {
    const s = f.slot_cap_at_engine_on_time;
    const engine = f.methods[0]!.mean_promise_minutes;
    lines.push(`  tope por franja + ${s.pad_minutes} min (igual de puntual, ${pct(s.on_time)}): promesa media ${min(s.mean_promise_minutes)}; la de Comanda es ${pct(1 - engine / s.mean_promise_minutes)} más corta`);
  }
  lines.push(
    `  error puntual en el peak (${f.peak_error_minutes.orders} pedidos): mediana ${min(f.peak_error_minutes.median)}, media ${min(f.peak_error_minutes.mean)}, p90 ${min(f.peak_error_minutes.p90)}`,
    `  terminar juntos (${f.finish_together.orders} pedidos de varias líneas): brecha entre la primera y la última: mediana ${min(f.finish_together.median_gap_minutes)}, p90 ${min(f.finish_together.p90_gap_minutes)}`,
  );
  if (f.busy_mode) {
    const b = f.busy_mode;
    lines.push(`  modo ocupado: ${b.pauses} pausas (a lo más ${b.max_pauses_in_an_hour} en una hora), ${b.resumes} reanudaciones, la más lenta ${min(b.max_resume_delay_minutes)} después de bajar del margen`);
  }
  return lines.join('\n');
}
