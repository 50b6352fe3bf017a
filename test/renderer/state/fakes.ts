// Test doubles for the renderer's screen states: a clock with timers that only move when told, and a
// kitchen API whose answers the test gives (or withholds) explicitly.
import type { KitchenOrder, KitchenTicket, TicketItem, TicketKitchen } from '../../../src/shared/screen-contract/kitchen.ts';
import type { OrderModifier } from '../../../src/shared/order.ts';
import { kitchenActions, stationProgress, ticketPayment } from '../../../src/shared/kitchen-ticket-rules.ts';
import type { OrderStatus, OrderType } from '../../../src/shared/order-states.ts';

export class FakeClock {
  now = Date.parse('2026-11-21T20:00:00-03:00');
  private timers: { at: number; run: () => void; id: number }[] = [];
  private seq = 0;
  readonly deps = {
    now: () => this.now,
    setTimer: (run: () => void, ms: number) => {
      const id = ++this.seq;
      this.timers.push({ at: this.now + ms, run, id });
      return id;
    },
    clearTimer: (id: unknown) => {
      this.timers = this.timers.filter((t) => t.id !== id);
    },
  };

  async advance(ms: number): Promise<void> {
    const until = this.now + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > until) break;
      this.timers.shift();
      this.now = next.at;
      next.run();
      await settle();
    }
    this.now = until;
    await settle();
  }
}

export const settle = () => new Promise((resolve) => setImmediate(resolve));

export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

let counter = 1000;
/** An order's lines as the API has them: the kitchen gets them as its ticket's `kitchen.items` (kitchenOf). */
type Line = Omit<TicketItem, 'index' | 'station_id' | 'done' | 'modifiers'> & { modifiers: OrderModifier[] };
const linesOf = new WeakMap<KitchenOrder, Line[]>();

export function order(overrides: Partial<KitchenOrder> & { status?: OrderStatus; type?: OrderType; items?: Line[] } = {}): KitchenOrder {
  counter++;
  const { items = [{ name: 'Empanada', quantity: 2, notes: null, modifiers: [] }], ...fields } = overrides;
  const at = '2026-11-21T19:50:00-03:00';
  const made: KitchenOrder = {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    number: String(counter),
    status: 'recibido',
    type: 'retiro',
    location_id: 'loc-1',
    customer: { name: 'Ana', phone: null, email: null },
    address: null,
    notes: null,
    total: 4980,
    payment: { method: 'efectivo', paid: false, refunded: false, amount_refunded: 0 },
    delivery: null,
    scheduled_for: null,
    created_at: at,
    updated_at: at,
    test: false,
    managed_by_integrator: false,
    ...fields,
  };
  linesOf.set(made, items);
  return made;
}

/** The kitchen data the engine would send for an order without stations, bumps or recall. */
export function kitchenOf(o: KitchenOrder): TicketKitchen {
  const items = (linesOf.get(o) ?? [{ name: 'Empanada', quantity: 2, notes: null, modifiers: [] }]).map((item, index) => ({
    ...item,
    index,
    modifiers: item.modifiers.map((m) => ({ ...m, allergen: false })),
    station_id: null,
    done: false,
  }));
  return {
    items,
    stations: stationProgress(items, []),
    channel: null,
    managed_by: null,
    actions: kitchenActions(o.status, o.type, null),
    suggested_target: null,
    payment: ticketPayment(o.payment, o.total, false),
    countdown: null,
    recalled_until: null,
  };
}

export function ticket(o: KitchenOrder, kitchenSince: number | null = Date.parse(o.created_at)): KitchenTicket {
  return { order: o, kitchen: kitchenOf(o), kitchen_since: kitchenSince, ready_at: null };
}
