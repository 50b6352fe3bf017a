import type { Database, Statement } from 'better-sqlite3';

export interface BusyStateRow {
  location_id: string;
  paused: number;
  changed_at: number;
  above_since: number | null;
  wait_minutes: number;
  /** JSON array of times. */
  recent_pauses: string;
  override: 'pause' | 'resume' | null;
}

/** Busy mode's state per location, and which API keys are store fronts or POS (issue 32). */
export class LocationBusyStore {
  private readonly stateOf: Statement<[string], BusyStateRow>;
  private readonly putState: Statement<BusyStateRow>;
  private readonly kindOf: Statement<[string], { kind: 'store_front' | 'pos' }>;
  private readonly putKind: Statement<[string, string]>;

  constructor(db: Database) {
    this.stateOf = db.prepare('SELECT * FROM location_busy_states WHERE location_id = ?');
    this.putState = db.prepare(
      `INSERT INTO location_busy_states (location_id, paused, changed_at, above_since, wait_minutes, recent_pauses, override)
       VALUES (@location_id, @paused, @changed_at, @above_since, @wait_minutes, @recent_pauses, @override)
       ON CONFLICT (location_id) DO UPDATE SET paused = excluded.paused, changed_at = excluded.changed_at, above_since = excluded.above_since,
         wait_minutes = excluded.wait_minutes, recent_pauses = excluded.recent_pauses, override = excluded.override`,
    );
    this.kindOf = db.prepare('SELECT kind FROM api_key_channel_kinds WHERE api_key_id = ?');
    this.putKind = db.prepare(
      'INSERT INTO api_key_channel_kinds (api_key_id, kind) VALUES (?, ?) ON CONFLICT (api_key_id) DO UPDATE SET kind = excluded.kind',
    );
  }

  state(locationId: string): BusyStateRow | undefined {
    return this.stateOf.get(locationId);
  }

  setState(row: BusyStateRow): void {
    this.putState.run(row);
  }

  keyKind(apiKeyId: string): 'store_front' | 'pos' | null {
    return this.kindOf.get(apiKeyId)?.kind ?? null;
  }

  setKeyKind(apiKeyId: string, kind: 'store_front' | 'pos'): void {
    this.putKind.run(apiKeyId, kind);
  }
}
