// The one realistic rush of the project: a Friday night at the demo restaurant "La Picada de
// Ñuñoa", as order bodies for POST /v1/orders. Seeded, so anyone replays the same rush: the same
// seed and index give the same order. Used by the board's tests, `npm run bench` and the demo's
// "Probar con pedidos de ejemplo" (docs/performance.md, "The rush").
//
// The mix (each feature follows its own low-discrepancy sequence, so any run of orders, even the
// first 45, keeps the proportions within an order or two):
// - items per order: 1 (20%), 2 (25%), 3 (20%), 4 (15%), 5–6 (12%), 7–10 (8%), and one family
//   order of 12 lines in every 45 orders;
// - 30% of items with modifiers, 20% with an item note;
// - 8% of orders with an allergy note, 10% with an order note;
// - 40% delivery, 10% scheduled (an hour ahead: past the location's preparation lead).

/** The demo restaurant's ids (resources/demo/restaurant-1.json). */
export const RUSH_RESTAURANT = {
  id: '10000000-0000-4000-8000-000000000001',
  /** The location whose register is open. */
  location: '11000000-0000-4000-8000-000000000001',
} as const;

const P = (n: number) => `13000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
const O = (n: number) => `15000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

/** Untracked products a cook makes as they are (no stock to run out during a long demo). */
const PLAIN = [P(3), P(5), P(8), P(11), P(3), P(5)];
/** Products with modifiers: a churrasco takes its bread (required), a completo up to 3 extras. */
const CHURRASCO = P(4);
const COMPLETO = P(6);
const BREADS = [O(1), O(2), O(3)];
const EXTRAS = [O(4), O(5), O(6), O(7)];

const ITEM_NOTES = ['sin mayo', 'bien cocido', 'sin cebolla', 'cortado en dos', 'salsa aparte', 'sin sal', 'extra pebre', 'para niño'];
const ORDER_NOTES = ['Tocar el timbre dos veces', 'Sin cubiertos, por favor', 'Viene a buscar el tío', 'Dejar en conserjería', 'Boleta a nombre de la empresa'];
const ALLERGY_NOTES = ['ALERGIA al maní', 'Alergia a los mariscos', 'Celíaco: sin gluten', 'Alergia a la lactosa'];
const NAMES = ['Camila Rojas', 'Matías González', 'Valentina Muñoz', 'Benjamín Díaz', 'Josefa Soto', 'Agustín Pérez', 'Florencia Contreras', 'Vicente Silva', 'Isidora Martínez', 'Tomás Sepúlveda', 'Antonia Morales', 'Joaquín Fuentes'];
const ADDRESSES = ['Av. Irarrázaval 3100, Ñuñoa', 'Av. Grecia 1200, Ñuñoa', 'Jorge Washington 240, Ñuñoa', 'Av. Pedro de Valdivia 3480, Ñuñoa', 'Dublé Almeyda 1850, Ñuñoa'];

/** Sizes by their share: items per order. */
const SIZES: readonly { share: number; min: number; max: number }[] = [
  { share: 0.2, min: 1, max: 1 },
  { share: 0.25, min: 2, max: 2 },
  { share: 0.2, min: 3, max: 3 },
  { share: 0.15, min: 4, max: 4 },
  { share: 0.12, min: 5, max: 6 },
  { share: 0.08, min: 7, max: 10 },
];
/** One family order in every this many. */
export const FAMILY_EVERY = 45;
export const FAMILY_LINES = 12;
/** Where in each run of FAMILY_EVERY orders the family order comes. */
const FAMILY_AT = 7;

export const RUSH_MIX = {
  itemModifiers: 0.3,
  itemNote: 0.2,
  allergyNote: 0.08,
  orderNote: 0.1,
  delivery: 0.4,
  scheduled: 0.1,
} as const;

/** A sequence in [0, 1) spread evenly over any run of indexes (golden-ratio and other irrational steps). */
const STEPS = {
  size: 0.6180339887,
  delivery: 0.4142135623,
  scheduled: 0.7320508075,
  allergy: 0.2360679774,
  orderNote: 0.6457513110,
  modifiers: 0.3166247903,
  itemNote: 0.8284271247,
  pick: 0.1622776601,
};

/** Seed → a fixed offset per feature, so two seeds give two different nights. */
function offsets(seed: number): Record<keyof typeof STEPS, number> {
  let state = seed >>> 0 || 1;
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Object.fromEntries(Object.keys(STEPS).map((k) => [k, next()])) as Record<keyof typeof STEPS, number>;
}

const frac = (x: number) => x - Math.floor(x);

export interface RushItem {
  product_id: string;
  quantity: number;
  modifier_option_ids?: string[];
  notes?: string;
}

export interface RushOrderBody {
  location_id: string;
  type: 'retiro' | 'delivery';
  customer: { name: string; phone: string };
  items: RushItem[];
  address?: string;
  notes?: string;
  scheduled_for?: string;
}

export interface RushOptions {
  seed?: number;
  /** Now, ms since the epoch: scheduled orders are an hour after it. */
  now?: number;
}

export const DEFAULT_RUSH_SEED = 2026;

/** How many lines the order at `index` has. */
export function rushOrderSize(index: number, seed = DEFAULT_RUSH_SEED): number {
  if (index % FAMILY_EVERY === FAMILY_AT) return FAMILY_LINES;
  const u = frac(offsets(seed).size + index * STEPS.size);
  let acc = 0;
  for (const size of SIZES) {
    acc += size.share;
    if (u < acc) return size.min + Math.floor(frac(u * 7919) * (size.max - size.min + 1));
  }
  return 1;
}

/** The order at `index` of the rush with `seed`: always the same body for the same pair (and now). */
export function rushOrder(index: number, options: RushOptions = {}): RushOrderBody {
  const seed = options.seed ?? DEFAULT_RUSH_SEED;
  const o = offsets(seed);
  const at = (feature: keyof typeof STEPS, k: number) => frac(o[feature] + k * STEPS[feature]);
  const size = rushOrderSize(index, seed);
  const items: RushItem[] = [];
  for (let line = 0; line < size; line++) {
    // Items are counted over the whole rush, so their shares hold across orders of every size.
    const k = index * 16 + line;
    const pick = Math.floor(at('pick', k) * 1000);
    const item: RushItem = { product_id: PLAIN[pick % PLAIN.length]!, quantity: 1 + (pick % 7 === 0 ? 1 : 0) + (pick % 13 === 0 ? 1 : 0) };
    if (at('modifiers', k) < RUSH_MIX.itemModifiers) {
      if (pick % 2 === 0) {
        item.product_id = CHURRASCO;
        item.modifier_option_ids = [BREADS[pick % BREADS.length]!];
      } else {
        item.product_id = COMPLETO;
        item.modifier_option_ids = EXTRAS.slice(0, 1 + (pick % 3));
      }
    }
    if (at('itemNote', k) < RUSH_MIX.itemNote) item.notes = ITEM_NOTES[pick % ITEM_NOTES.length]!;
    items.push(item);
  }
  const delivery = at('delivery', index) < RUSH_MIX.delivery;
  const notes = [
    at('orderNote', index) < RUSH_MIX.orderNote ? ORDER_NOTES[index % ORDER_NOTES.length] : null,
    at('allergy', index) < RUSH_MIX.allergyNote ? ALLERGY_NOTES[index % ALLERGY_NOTES.length] : null,
  ].filter((n): n is string => n !== null && n !== undefined);
  const body: RushOrderBody = {
    location_id: RUSH_RESTAURANT.location,
    type: delivery ? 'delivery' : 'retiro',
    customer: { name: NAMES[index % NAMES.length]!, phone: `+56 9 ${String(5000 + ((index * 37) % 5000)).padStart(4, '0')} ${String(1000 + ((index * 7919) % 9000)).padStart(4, '0')}` },
    items,
  };
  if (delivery) body.address = ADDRESSES[index % ADDRESSES.length]!;
  if (notes.length > 0) body.notes = notes.join('. ');
  if (at('scheduled', index) < RUSH_MIX.scheduled) body.scheduled_for = new Date((options.now ?? Date.now()) + 60 * 60_000).toISOString();
  return body;
}

/** The board at the peak of the rush: how many orders stand in each state. */
export const RUSH_PEAK = { recibido: 25, en_preparacion: 10, listo: 8, en_reparto: 2 } as const;
export type RushState = keyof typeof RUSH_PEAK;

/**
 * Where each of the rush's first orders stands at the peak (RUSH_PEAK's counts, 45 in all): the
 * oldest are furthest along; a scheduled order (programado, never "recibido") is among them; the
 * two oldest deliveries of those are out with the courier.
 */
export function rushPeakStates(orders: readonly RushOrderBody[], peak: Record<RushState, number> = RUSH_PEAK): RushState[] {
  const advancedCount = peak.en_preparacion + peak.listo + peak.en_reparto;
  const scheduled = orders.map((o, i) => (o.scheduled_for ? i : -1)).filter((i) => i >= 0);
  const advanced = new Set(scheduled.slice(0, advancedCount));
  for (let i = 0; i < orders.length && advanced.size < advancedCount; i++) advanced.add(i);
  const states: RushState[] = orders.map(() => 'recibido');
  const oldestFirst = [...advanced].sort((a, b) => a - b);
  let out = 0;
  for (const i of oldestFirst) {
    if (out < peak.en_reparto && orders[i]!.type === 'delivery') {
      states[i] = 'en_reparto';
      out++;
    }
  }
  let ready = 0;
  for (const i of oldestFirst) {
    if (states[i] !== 'recibido') continue;
    states[i] = ready++ < peak.listo ? 'listo' : 'en_preparacion';
  }
  return states;
}

/** The PATCH targets that take an order from where it is created to `state`, in order. */
export function stepsTo(state: RushState, type: RushOrderBody['type']): ('en_preparacion' | 'listo' | 'en_reparto')[] {
  if (state === 'recibido') return [];
  if (state === 'en_preparacion') return ['en_preparacion'];
  if (state === 'listo') return ['en_preparacion', 'listo'];
  return type === 'delivery' ? ['en_preparacion', 'listo', 'en_reparto'] : ['en_preparacion', 'listo'];
}
