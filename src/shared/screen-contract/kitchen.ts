// What the kitchen screen knows about orders, stock and locations: plain data, the same in both
// processes. The engine's API views (order-view.ts, location-status.ts) are assignable to these;
// src/main/channel-handlers.ts checks that at compile time.
import type { Order, OrderItem, OrderModifier } from '../order.ts';
import type { OrderStatus, OrderType, PatchTarget } from '../order-states.ts';
import type { PrintStatus } from './printers.ts';

export type { World } from '../world.ts';
import type { World } from '../world.ts';

/** A modifier as the cook reads it: `allergen` when the restaurant file flags that option. */
export interface TicketModifier extends OrderModifier {
  allergen: boolean;
}

/**
 * One line of the order with the kitchen's own data about it; its product and price stay out (the
 * engine has them; a cook reads the name), so a board of hundreds of tickets travels light.
 */
export interface TicketItem extends Omit<OrderItem, 'modifiers' | 'product_id' | 'unit_price'> {
  /** Position in `order.items`: what `items:set-done` names. */
  index: number;
  modifiers: TicketModifier[];
  /** The station that prepares it (restaurant file); null when no station is assigned. */
  station_id: string | null;
  /** Struck through by a cook (item-level bump), shared by every screen. */
  done: boolean;
  /**
   * Started at its station (issue 32, `items:set-started`: the board's first tap on the line), not
   * done yet: drawn in progress, the next tap bumps it. Absent: not started there.
   */
  started?: boolean;
  /** When it was started (epoch ms, the engine's clock), with `started`: the board says for how long. */
  started_at?: number;
  /**
   * Held back so that the order's items finish together (issue 32): fired to its station at this
   * moment at the latest (epoch ms); the screen shows "retenido hasta HH:MM". Absent: fired.
   */
  held_until?: number;
}

/** A station of the restaurant file (e.g. "Plancha", "Fríos", "Bar"). */
export interface KitchenStation {
  id: string;
  name: string;
}

/** How far one station is with one ticket. */
export interface StationProgress {
  station_id: string | null;
  done: number;
  total: number;
}

/** What the cook must know about the money: paid, or cash to collect (and how much). */
export interface TicketPayment {
  paid: boolean;
  /** e.g. "efectivo", "tarjeta", or the online method; null when not known yet. */
  method: string | null;
  /** CLP to collect on delivery or pickup (unpaid, not online); null when nothing is collected. */
  collect: number | null;
  /** CLP given back to the customer (an online payment that could not pay the order); 0 when none. */
  refunded: number;
}

/** A ticket that is not ready to cook yet shows a countdown to this moment. */
export interface TicketCountdown {
  kind: 'scheduled' | 'payment';
  /** Epoch ms: when a scheduled order is due, or when an unpaid online order is cancelled. */
  at: number;
}

/**
 * The kitchen's data about one order, computed by the engine (never in the screen): it travels
 * with the snapshot and with every live event about the order.
 */
export interface TicketKitchen {
  items: TicketItem[];
  /** Per station present on the ticket (null: items without a station), in the stations' order. */
  stations: StationProgress[];
  /** Where the order came from: the integration's name (API key label), a POS's name, or "kitchen". */
  channel: string | null;
  /** The POS integration that owns the order; the screen then shows no action and says so. */
  managed_by: string | null;
  /** The transitions the engine would accept from this screen now, forward step first. */
  actions: PatchTarget[];
  /** Set when every item is done: the step the screen may suggest (one of `actions`). */
  suggested_target: PatchTarget | null;
  payment: TicketPayment;
  countdown: TicketCountdown | null;
  /** A finished ticket brought back by `orders:recall` shows on the board until then (epoch ms). */
  recalled_until: number | null;
  /**
   * The order's current promise to its customer (issue 32; epoch ms): as made, or as last moved
   * later. The board colours a cooking ticket by the time left to it and lists the late ones
   * ("Atrasados"). Absent: the order has no promise (scheduled, or made before promises).
   */
  promised_ready_at?: number;
  /**
   * The number to show on the ticket: `order.number`, or on a replica's order typed into its own API
   * the upstream's number with the hub's in small, "1042 · L7", until the order is done (what the
   * first paper said stays findable; shared/order-number.ts). Absent: `order.number`.
   */
  shown_number?: string;
}

/**
 * The API's Order without what the kitchen does not show (money breakdown; an Order never carries the payment link) nor its
 * lines, which travel once, as the ticket's `kitchen.items` (each with its station and strike).
 */
export type KitchenOrder = Omit<Order, 'subtotal' | 'shipping_fee' | 'discount' | 'items'>;

/** An Order as the kitchen gets it: only the fields of `KitchenOrder`, so no screen is sent the rest. */
export function kitchenOrderOf(order: Order): KitchenOrder {
  const { subtotal: _subtotal, shipping_fee: _shipping, discount: _discount, items: _items, ...kitchen } = order;
  return kitchen;
}

/** When the order reached the kitchen and when it was ready (epoch ms), from the change feed. */
export interface TicketTiming {
  kitchen_since: number | null;
  ready_at: number | null;
}

export interface KitchenTicket extends TicketTiming {
  order: KitchenOrder;
  kitchen: TicketKitchen;
}

export interface BoardLocation {
  location_id: string;
  name: string;
  is_active: boolean;
}

export interface BoardSnapshot {
  restaurant: { id: string; name: string; time_zone: string };
  locations: BoardLocation[];
  /** The restaurant's stations, in the file's order (empty: the restaurant declares none). */
  stations: KitchenStation[];
  /** The restaurant's own words that mark a note as an allergy (shared/allergy-notes.ts has the built-in ones). */
  allergy_words: string[];
  /**
   * Active orders of both worlds, every order created today, the latest finished ones (the recall
   * list) and every recalled one.
   */
  tickets: KitchenTicket[];
  /** Start of the restaurant's local day (epoch ms), for the "today" panel. */
  day_start: number;
  /** The engine's clock (epoch ms) when the snapshot was read: timers run on the engine's time. */
  now: number;
  /** The change-feed position the snapshot reflects; live events after it follow. */
  cursor: number;
  /** Printers with jobs waiting or in trouble, as the heartbeat says them. */
  printing?: PrintStatus[];
  /** How many kitchen printers the restaurant has: with none, no ticket offers Reimprimir. */
  printer_count?: number;
}

export interface StockEntry {
  product_id: string;
  name: string;
  quantity: number;
}

export interface StockView {
  location_id: string;
  world: World;
  data: StockEntry[];
}

/** One option of a dish on the Stock screen's sold-out list. */
export interface SoldOutOptionEntry {
  option_id: string;
  group: string;
  name: string;
  sold_out: boolean;
}

/** One dish of the menu on the Stock screen: every product, tracked or not, with its switch. */
export interface SoldOutProductEntry {
  product_id: string;
  name: string;
  category: string;
  /** Stock-tracked: `quantity` is its stock here; untracked: null. */
  quantity: number | null;
  sold_out: boolean;
  /** When the mark ends by itself (ms; the end of the kitchen's day), null when it does not. */
  sold_out_until: number | null;
  options: SoldOutOptionEntry[];
}

export interface SoldOutBoardView {
  location_id: string;
  world: World;
  products: SoldOutProductEntry[];
  /** A sandbox write changed nothing. */
  simulated: boolean;
}

export interface SetStockResultView {
  data: { product_id: string; quantity: number }[];
  simulated: boolean;
}

export type LocationReason = 'caja_abierta' | 'caja_cerrada' | 'dentro_del_horario' | 'fuera_del_horario' | 'sucursal_desactivada';

export interface LocationStatusEntry {
  location_id: string;
  name: string;
  address: string;
  is_active: boolean;
  open_now: boolean;
  reason: LocationReason;
  next_opening_at: string | null;
  simulated?: boolean;
  /** The kitchen's current wait in minutes (issue 32), in a list's entries. */
  kitchen_wait_minutes?: number;
  /** Busy mode, where the restaurant sets it or a manager paused the location (issue 32). */
  kitchen_busy?: KitchenBusyEntry;
}

/** Busy mode of a location as GET /locations says it (issue 32). */
export interface KitchenBusyEntry {
  paused: boolean;
  since: string | null;
  reason: 'kitchen_wait' | 'manager' | 'none';
  wait_minutes: number;
  retry_after_seconds: number | null;
}

/**
 * A location's kitchen wait as the board's status strip shows it (issue 32), on every heartbeat: the
 * same minutes as GET /locations' `kitchen_wait_minutes` (live orders), and whether busy mode has
 * paused its store fronts (by the wait or by a manager).
 */
export interface KitchenWaitEntry {
  location_id: string;
  wait_minutes: number;
  paused: boolean;
}

/** A station's cooks on shift (the hub's "+ / −", issue 32). */
export interface StationCooksEntry {
  station_id: string;
  name: string;
  cooks: number;
}

/** A product whose learned prep time drifts from the typed one, as the hub's manager lists it (issue 32). */
export interface PrepTimeDriftEntry {
  product_id: string;
  product_name: string;
  station_id: string;
  station_name: string;
  typed_seconds: number;
  learned_seconds: number;
  samples: number;
}

export interface LocationsViewData {
  register_mode: 'manual' | 'schedule';
  checked_at: string;
  world: World;
  data: LocationStatusEntry[];
}

export interface ApiKeyEntry {
  id: string;
  label: string | null;
  world: World;
  write: boolean;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * The kitchen's own events, under one name each: stored in the change feed under it (kept out of
 * the API's `/events`) and sent to the screens under it.
 */
export const KITCHEN_EVENTS = {
  /** An item marked done or not done. */
  item: 'kitchen.item',
  /** A finished ticket brought back to the board. */
  recall: 'kitchen.recall',
} as const;

/** One change of the feed as the kitchen sees it (both worlds; `world` says whose). */
export type KitchenEvent =
  | { seq: number; type: 'order.created' | 'order.updated'; at: number; order: KitchenOrder; kitchen: TicketKitchen }
  /** Kitchen-only changes (item bump, recall): the order as it stands and its kitchen data now. */
  | { seq: number; type: (typeof KITCHEN_EVENTS)[keyof typeof KITCHEN_EVENTS]; at: number; order: KitchenOrder; kitchen: TicketKitchen }
  | { seq: number; type: 'stock.updated'; at: number; world: World | 'both'; data: { location_id: string; items: { product_id: string; quantity: number }[] } }
  | { seq: number; type: 'location.updated'; at: number; data: LocationStatusEntry };

/** How this app reaches the world: alone, or as a replica of a platform. */
export interface ConnectionStatus {
  mode: 'standalone' | 'connected';
  /** Standalone: the local engine answers. Connected: the platform was reachable at the last try. */
  online: boolean;
  /** Last successful pull from the platform (epoch ms); null when standalone or never. */
  last_sync_at: number | null;
  /** Local changes waiting to be pushed upstream. */
  queued: number;
  conflicts: number;
  /** Why the platform cannot be reached or refused us, in its words; null when all is well. */
  error: string | null;
  /** The disk holding the database is full: writes are refused (503 storage_full) until space is freed. */
  storage_full?: boolean;
}

/** What main pushes on the live channel. */
export type LivePush =
  | { kind: 'events'; now: number; events: KitchenEvent[] }
  | {
      kind: 'heartbeat';
      now: number;
      status: ConnectionStatus;
      /** Without a word for this long the screen says its data may be stale (three heartbeats); absent: the screen's default. */
      stale_after_ms?: number;
      /** Printers with jobs waiting or in trouble (unreachable, paper out): the status strip shows them; absent: none. */
      printing?: PrintStatus[];
      /** Less than 256 MB free beside the engine's database: the status strip warns before writes stop; absent: enough. */
      low_disk?: { free_bytes: number };
      /** Each active location's kitchen wait, read per heartbeat so the strip follows the kitchen (issue 32); absent: an engine before it. */
      kitchen_waits?: KitchenWaitEntry[];
    };

export type { OrderStatus, OrderType, PatchTarget };
