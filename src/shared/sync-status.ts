import type { World } from './world.ts';
// A replica's sync status, as GET /sync/status answers it and as the app's status bar shows it.

export interface SyncConflict {
  id: number;
  /**
   * create_order, transition_order, set_stock or set_location_open: a change of the kitchen the
   * platform refused. order_divergence: the periodic check found the sides holding different
   * states for an order (local_change is this side's state, null when it had no such order).
   */
  kind: string;
  order_id: string | null;
  /** The change the kitchen made here. */
  local_change: unknown;
  /** The platform's refusal: status, code and message. */
  upstream_error: unknown;
  /** What the platform holds now (it wins locally); null when it could not be read. */
  upstream_state: unknown;
  created_at: string | null;
  /**
   * When the platform's state was put in place here (the platform wins); null while it is still
   * to be read (a refused change whose platform state could not be read yet is read again, with retries).
   */
  resolved_at?: string | null;
}

export interface SyncStatus {
  online: boolean;
  last_pull_at: string | null;
  lag_ms: number | null;
  outbox_pending: number;
  conflicts: SyncConflict[];
  last_error: string | null;
  /** When the active orders were last compared with the platform's (any difference is a conflict). */
  last_check_at: string | null;
  /** Conflicts whose platform state is still to be read (0 once every one is resolved). */
  conflicts_unresolved?: number;
  /**
   * The last comparison of the active orders (status, kitchen items' done marks) and the stock
   * with the platform's: how many were compared, how many really differed, and how many of those
   * were healed here with the platform's state (each recorded once as a conflict).
   */
  last_check?: { compared: number; diverged: number; healed: number } | null;
  upstream: string;
  mode: World;
}
