// "Probar con pedidos de ejemplo": what the desktop's board menu shows of the demo's rush.
export interface DemoRushStatus {
  /** Offered on the demo restaurant only. */
  available: boolean;
  running: boolean;
  /** Orders posted and refused since the app started. */
  posted: number;
  failed: number;
  per_minute: number | null;
}

/** The paces offered, orders per minute (12: the Friday night, 55 orders in about 4 minutes). */
export const DEMO_RUSH_PACES = [6, 12, 30] as const;
