// Issue 34: what the engine's in-memory caches (verified keys, kept order answers, the kitchen's load
// rows) are kept right by, on either database. On SQLite the engine's own writes are counted on its
// one connection (`total_changes()`, the API keys store's writes) and another process's commits show
// in `PRAGMA data_version`, read once per turn of the event loop. On PostgreSQL every commit, this
// node's or another's, reaches the storage port's `onChange` (at once here, by NOTIFY or the re-poll
// from the others): one number (ChangeCount) moves on each.
import type { Database, Statement } from 'better-sqlite3';
import type { DataVersion } from '../store/data-version.ts';
import type { ApiKeysStore } from '../store/api-keys-store.ts';
import { ChangeCount } from './change-count.ts';
import type { StoragePort } from './storage-port.ts';

export interface CommitSignal {
  /** Looks for other connections' commits, at most once per turn of the event loop (the requests of one turn share it). */
  checkThisTurn(): void;
  /** Looks for other connections' commits now (first in a read whose result is kept). */
  check(): void;
  /** Moves whenever what a cache kept may have changed: this engine's writes, another connection's or node's commit. */
  version(): string | number;
  /** Moves whenever an API key may have changed (what verified keys are kept by). */
  keyWrites(): number;
  /** Calls `listener` when a commit this engine did not make through its caches' listeners may have changed anything. */
  onChange(listener: () => void): () => void;
  /** Calls `listener` when such a commit may have changed an API key (what the verified keys are dropped on). */
  onKeysChange(listener: () => void): () => void;
  stop(): void;
}

export class SqliteCommitSignal implements CommitSignal {
  private readonly totalChanges: Statement<[], number>;
  /** How many times another connection's commit was seen (no pragma read per `version()`). */
  private external = 0;
  private readonly unsubscribe: () => void;

  constructor(
    db: Database,
    private readonly dataVersion: DataVersion,
    private readonly apiKeys: ApiKeysStore,
  ) {
    this.totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
    this.unsubscribe = dataVersion.onChange(() => (this.external += 1));
  }

  checkThisTurn(): void {
    this.dataVersion.checkThisTurn();
  }

  check(): void {
    this.dataVersion.check();
  }

  version(): string {
    return `${this.external}:${this.totalChanges.get()!}`;
  }

  keyWrites(): number {
    return this.apiKeys.writeCount;
  }

  onChange(listener: () => void): () => void {
    return this.dataVersion.onChange(listener);
  }

  onKeysChange(listener: () => void): () => void {
    return this.dataVersion.onChange(listener);
  }

  stop(): void {
    this.unsubscribe();
  }
}

/**
 * On PostgreSQL every commit moves `version()`, and only a configuration commit (config-tables.ts: a
 * key among them) moves `keyWrites()`: an order committed on any node leaves the verified keys kept.
 */
export class PostgresCommitSignal implements CommitSignal {
  private readonly count: ChangeCount;
  private configCommits = 0;
  private readonly unsubscribeConfig: () => void;

  constructor(private readonly storage: Pick<StoragePort, 'onChange'> & { onConfigChange(listener: () => void): () => void }) {
    this.count = new ChangeCount(storage);
    this.unsubscribeConfig = storage.onConfigChange(() => (this.configCommits += 1));
  }

  // Told by the port's notifications and re-poll: nothing to look at.
  checkThisTurn(): void {}

  check(): void {}

  version(): number {
    return this.count.value;
  }

  keyWrites(): number {
    return this.configCommits;
  }

  onChange(listener: () => void): () => void {
    return this.storage.onChange(() => listener());
  }

  onKeysChange(listener: () => void): () => void {
    return this.storage.onConfigChange(() => listener());
  }

  stop(): void {
    this.count.stop();
    this.unsubscribeConfig();
  }
}
