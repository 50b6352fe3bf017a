// Issue 34: the payment credentials a platform node (PostgreSQL) answers from memory. The payment
// providers ask for credentials synchronously (PaymentCredentialsSource, inside order writes), which
// a pooled PostgreSQL connection cannot answer; so each node keeps a copy of the table, read whole at
// start and read again, per restaurant, whenever a configuration commit of that restaurant reaches the
// node (its own at once, another node's by NOTIFY or the re-poll: PostgresStorage.onConfigChange). A
// change made on another node is seen here once its notification arrives and the re-read is done.
import type { Engine } from '../../engine.ts';
import type { PaymentCredentialsSource } from '../../payments/payment-credentials-source.ts';
import type { PaymentCredentialsRow } from '../../store/payment-credentials-store.ts';
import { StorageUnavailable } from '../../storage-unavailable.ts';
import { SOME_RESTAURANT } from '../../change-notifier.ts';

const kept = new WeakMap<Engine, KeptPaymentCredentials>();

/** The engine's copy (one per engine), started on first use. */
export function keptPaymentCredentials(engine: Engine): KeptPaymentCredentials {
  let copy = kept.get(engine);
  if (!copy) {
    copy = new KeptPaymentCredentials(engine);
    kept.set(engine, copy);
  }
  return copy;
}

export class KeptPaymentCredentials {
  private readonly rows = new Map<string, PaymentCredentialsRow[]>();
  private loaded = false;
  /** Restaurants to read again (null: all of them), and whether a reading is under way. */
  private stale: Set<string> | null = new Set();
  private reading: Promise<void> | null = null;
  /** Resolves once the whole table was read once. */
  readonly ready: Promise<void>;

  constructor(private readonly engine: Engine) {
    // Credentials are a kept table (postgres/config-tables.ts): read again after a configuration commit
    // only, of their restaurant (or of every one when which is not known), not after every order.
    engine.postgres?.onConfigChange((restaurantId) => this.changed(restaurantId === SOME_RESTAURANT ? null : restaurantId));
    this.stale = null;
    this.ready = this.reading = this.read();
  }

  readonly source: PaymentCredentialsSource = (restaurantId, provider) => {
    if (!this.loaded) throw new StorageUnavailable('the payment credentials are still being read from the database', null);
    const row = this.rows.get(restaurantId)?.find((r) => r.provider === provider);
    return row ? { accessToken: row.access_token, webhookSecret: row.webhook_secret, apiBase: row.api_base } : null;
  };

  private changed(restaurantId: string | null): void {
    if (restaurantId === null || this.stale === null) this.stale = null;
    else this.stale.add(restaurantId);
    this.reading ??= this.read();
  }

  /** Reads what is stale until nothing is (one reading at a time; commits meanwhile are read next). */
  private async read(): Promise<void> {
    try {
      while (this.stale === null || this.stale.size > 0) {
        const all = this.stale === null;
        const wanted = all ? null : [...this.stale!];
        this.stale = new Set();
        const read = await this.engine.read(async (tx) => {
          const ids = wanted ?? (await tx.stores.restaurants.list()).map((r) => r.id);
          const found = new Map<string, PaymentCredentialsRow[]>();
          for (const id of ids) found.set(id, await tx.stores.paymentCredentials.ofRestaurant(id));
          return found;
        });
        if (all) this.rows.clear();
        for (const [id, rows] of read) this.rows.set(id, rows);
        this.loaded = true;
      }
    } catch {
      // The database is out of reach: what is known stays, and the next commit's signal reads again.
      this.stale = null;
    } finally {
      this.reading = null;
    }
  }
}
