// A replica's sync status, as GET /sync/status answers it and as the app's status bar shows it.

export interface SyncConflict {
  id: number;
  /** create_order, transition_order, set_stock or set_location_open. */
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
  upstream: string;
  mode: 'live' | 'test';
}
