import type { Database, Statement } from 'better-sqlite3';

/** The orders that automatic transitions are due for, found from the database alone (restart-safe). */
export class DueOrdersStore {
  private readonly unpaid: Statement<[string, number, number], { id: string }>;
  private readonly scheduled: Statement<[string, number, number], { id: string }>;

  constructor(db: Database) {
    // Both use the partial indexes of migration 0003.
    this.unpaid = db.prepare(
      `SELECT id FROM orders WHERE status = 'pendiente_pago' AND restaurant_id = ? AND created_at <= ?
       ORDER BY created_at, id LIMIT ?`,
    );
    this.scheduled = db.prepare(
      `SELECT id FROM orders WHERE status = 'programado' AND location_id = ? AND scheduled_for <= ?
       ORDER BY scheduled_for, id LIMIT ?`,
    );
  }

  /** Online orders of a restaurant still waiting for their payment that were created at or before `createdBy`. */
  awaitingPaymentCreatedBy(restaurantId: string, createdBy: number, limit: number): string[] {
    return this.unpaid.all(restaurantId, createdBy, limit).map((r) => r.id);
  }

  /** Scheduled (paid) orders of a location whose `scheduled_for` is at or before `scheduledBy`. */
  scheduledBy(locationId: string, scheduledBy: number, limit: number): string[] {
    return this.scheduled.all(locationId, scheduledBy, limit).map((r) => r.id);
  }
}
