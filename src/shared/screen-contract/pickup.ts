// The customers' pickup screen ("Pantalla de retiro"): order numbers and, only when the restaurant
// chose so, the customer's first name; nothing else about a customer. Read through its own narrow
// channel; its live stream carries no events, only that something changed (http/kitchen/live-stream.ts).
import type { Language } from '../locale.ts';

/** The only channels a pickup screen may call: it reads, it never moves an order. */
export const PICKUP_CHANNELS = ['pickup:board'] as const;

/** Which orders the pickup screen shows: pickup (retiro) orders only, or deliveries too (for couriers). */
export const PICKUP_ORDER_TYPES = ['pickup', 'pickup_and_delivery'] as const;
export type PickupOrderTypes = (typeof PICKUP_ORDER_TYPES)[number];

/** A restaurant's pickup screen settings: the privacy choices of a screen customers read. */
export interface PickupScreenSettings {
  /** Show the customer's first name (the first word of the name given, never the surname). Off by default. */
  show_first_name: boolean;
  /** Pickup orders only by default. */
  order_types: PickupOrderTypes;
  /** The language the screen speaks (a screen's own choice, kept on it, comes first). */
  language: Language;
}

export const DEFAULT_PICKUP_SCREEN_SETTINGS: PickupScreenSettings = { show_first_name: false, order_types: 'pickup', language: 'es' };

/** The longest first name shown (characters): longer ones are cut, the screen's columns stay whole. */
export const PICKUP_FIRST_NAME_MAX = 16;

export interface PickupNumber {
  /** The order's number as the counter calls it. */
  number: string;
  /** When it reached listo (epoch ms, engine clock); null while preparing. */
  ready_at: number | null;
  /** The customer's first name: present only when the restaurant shows first names and the order has one. */
  first_name?: string;
  /**
   * A replica's own number for an order typed into it ("L7"), shown small beside `number` until the
   * order is done: the customer's paper may say L7 (shared/order-number.ts). Absent otherwise.
   */
  hub_number?: string;
}

export interface PickupBoard {
  restaurant_name: string;
  /** The language the restaurant chose for its pickup screen. */
  language: Language;
  /** Orders being prepared (recibido, en preparación), oldest first. */
  preparing: PickupNumber[];
  /** Orders listo and not yet delivered, the latest first. */
  ready: PickupNumber[];
  /** The engine's clock when read (epoch ms): the highlight of a new number runs on it. */
  now: number;
}
