// Issue 34: DueOrdersStore (store/due-orders-store.ts) on PostgreSQL. Ties by id byte by byte
// (COLLATE "C"), as SQLite's BINARY.
import type { AsyncStore } from '../../store/async-store.ts';
import type { DueOrdersStore } from '../../store/due-orders-store.ts';
import { rowsOf, type PostgresQueryable } from './queryable.ts';

const SQL = {
  unpaid: `SELECT id FROM orders WHERE status = 'pendiente_pago' AND restaurant_id = $1 AND created_at <= $2
    ORDER BY created_at, id COLLATE "C" LIMIT $3`,
  scheduled: `SELECT id FROM orders WHERE status = 'programado' AND location_id = $1 AND scheduled_for <= $2
    ORDER BY scheduled_for, id COLLATE "C" LIMIT $3`,
};

export class PostgresDueOrdersStore implements AsyncStore<DueOrdersStore> {
  constructor(private readonly db: PostgresQueryable) {}

  async awaitingPaymentCreatedBy(restaurantId: string, createdBy: number, limit: number): Promise<string[]> {
    return (await rowsOf<{ id: string }>(this.db, SQL.unpaid, [restaurantId, createdBy, limit])).map((r) => r.id);
  }

  async scheduledBy(locationId: string, scheduledBy: number, limit: number): Promise<string[]> {
    return (await rowsOf<{ id: string }>(this.db, SQL.scheduled, [locationId, scheduledBy, limit])).map((r) => r.id);
  }
}
