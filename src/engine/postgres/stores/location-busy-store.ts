// Issue 34: LocationBusyStore (store/location-busy-store.ts) on PostgreSQL.
import type { AsyncStore } from '../../store/async-store.ts';
import type { BusyStateRow, LocationBusyStore } from '../../store/location-busy-store.ts';
import { firstRow, type PostgresQueryable } from './queryable.ts';

const SQL = {
  stateOf: 'SELECT * FROM location_busy_states WHERE location_id = $1',
  putState: `INSERT INTO location_busy_states (location_id, paused, changed_at, above_since, wait_minutes, recent_pauses, override)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (location_id) DO UPDATE SET paused = excluded.paused, changed_at = excluded.changed_at, above_since = excluded.above_since,
      wait_minutes = excluded.wait_minutes, recent_pauses = excluded.recent_pauses, override = excluded.override`,
  kindOf: 'SELECT kind FROM api_key_channel_kinds WHERE api_key_id = $1',
  putKind: 'INSERT INTO api_key_channel_kinds (api_key_id, kind) VALUES ($1, $2) ON CONFLICT (api_key_id) DO UPDATE SET kind = excluded.kind',
};

export class PostgresLocationBusyStore implements AsyncStore<LocationBusyStore> {
  constructor(private readonly db: PostgresQueryable) {}

  state(locationId: string): Promise<BusyStateRow | undefined> {
    return firstRow<BusyStateRow>(this.db, SQL.stateOf, [locationId]);
  }

  async setState(row: BusyStateRow): Promise<void> {
    await this.db.query(SQL.putState, [
      row.location_id, row.paused, row.changed_at, row.above_since, row.wait_minutes, row.recent_pauses, row.override,
    ]);
  }

  async keyKind(apiKeyId: string): Promise<'store_front' | 'pos' | null> {
    return (await firstRow<{ kind: 'store_front' | 'pos' }>(this.db, SQL.kindOf, [apiKeyId]))?.kind ?? null;
  }

  async setKeyKind(apiKeyId: string, kind: 'store_front' | 'pos'): Promise<void> {
    await this.db.query(SQL.putKind, [apiKeyId, kind]);
  }
}
