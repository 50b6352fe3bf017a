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
  upstream: string;
  mode: 'live' | 'test';
}
