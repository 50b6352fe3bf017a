// What the kitchen screen knows about orders, stock and locations: plain data, the same in both
// processes. The engine's API views (order-view.ts, location-status.ts) are assignable to these;
// src/engine/ipc/handlers.ts checks that at compile time.
import type { Order, OrderItem, OrderModifier } from '../order.ts';
import type { OrderStatus, OrderType, PatchTarget } from '../order-states.ts';

export type World = 'live' | 'test';

export type TicketModifier = OrderModifier;
export type TicketItem = OrderItem;

/** The API's Order without what the kitchen does not show (money breakdown, payment link). */
export type KitchenOrder = Omit<Order, 'subtotal' | 'shipping_fee' | 'discount' | 'payment_link'>;

/** When the order reached the kitchen and when it was ready (epoch ms), from the change feed. */
export interface TicketTiming {
  kitchen_since: number | null;
  ready_at: number | null;
}

export interface KitchenTicket extends TicketTiming {
  order: KitchenOrder;
}

export interface BoardLocation {
  location_id: string;
  name: string;
  is_active: boolean;
}

export interface BoardSnapshot {
  restaurant: { id: string; name: string; time_zone: string };
  locations: BoardLocation[];
  /** Active orders of both worlds, every order created today, and the latest finished ones. */
  tickets: KitchenTicket[];
  /** Start of the restaurant's local day (epoch ms), for the "today" panel. */
  day_start: number;
  /** The engine's clock (epoch ms) when the snapshot was read: timers run on the engine's time. */
  now: number;
  /** The change-feed position the snapshot reflects; live events after it follow. */
  cursor: number;
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
  mode: World;
  write: boolean;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** One change of the feed as the kitchen sees it (both worlds; `world` says whose). */
export type KitchenEvent =
  | { seq: number; type: 'order.created' | 'order.updated'; at: number; order: KitchenOrder }
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
}

/** What main pushes on the live channel. */
export type LivePush =
  | { kind: 'events'; now: number; events: KitchenEvent[] }
  | { kind: 'heartbeat'; now: number; status: ConnectionStatus };

export type { OrderStatus, OrderType, PatchTarget };
