// The customers' pickup screen ("Pantalla de retiro"): order numbers and nothing else about a
// customer. Read through its own narrow channel; its live stream carries no events, only that
// something changed (http/kitchen/live-stream.ts).

/** The only channels a pickup screen may call: it reads, it never moves an order. */
export const PICKUP_CHANNELS = ['pickup:board'] as const;

export interface PickupNumber {
  /** The order's number as the counter calls it. */
  number: string;
  /** When it reached listo (epoch ms, engine clock); null while preparing. */
  ready_at: number | null;
}

export interface PickupBoard {
  restaurant_name: string;
  /** Pickup orders being prepared (recibido, en preparación), oldest first. */
  preparing: PickupNumber[];
  /** Pickup orders listo and not yet delivered, the latest first. */
  ready: PickupNumber[];
  /** The engine's clock when read (epoch ms): the highlight of a new number runs on it. */
  now: number;
}
