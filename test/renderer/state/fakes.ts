// Test doubles for the renderer stores: a clock with timers that only move when told, and a
// kitchen API whose answers the test gives (or withholds) explicitly.
import type { KitchenOrder, KitchenTicket, TicketKitchen } from '../../../src/shared/ipc/kitchen.ts';
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
export function order(overrides: Partial<KitchenOrder> & { status?: OrderStatus; type?: OrderType } = {}): KitchenOrder {
  counter++;
  const at = '2026-11-21T19:50:00-03:00';
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    number: String(counter),
    status: 'recibido',
    type: 'retiro',
    location_id: 'loc-1',
    customer: { name: 'Ana', phone: null, email: null },
    address: null,
    notes: null,
    items: [{ product_id: 'p1', name: 'Empanada', quantity: 2, unit_price: 2490, notes: null, modifiers: [] }],
    total: 4980,
    payment: { method: 'efectivo', paid: false, refunded: false, amount_refunded: 0 },
    delivery: null,
    scheduled_for: null,
    created_at: at,
    updated_at: at,
    test: false,
    managed_by_integrator: false,
    ...overrides,
  };
}

/** The kitchen data the engine would send for an order without stations, bumps or recall. */
export function kitchenOf(o: KitchenOrder): TicketKitchen {
  const items = o.items.map((item, index) => ({
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
