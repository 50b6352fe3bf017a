// Issue 34: the signal a node's caches subscribe to. The verified-key cache (verified-keys.ts) drops
// everything when the number it is given moves, and the cached order answers compare a number with
// the one they were made at; on SQLite both numbers come from the one connection (`PRAGMA
// data_version`, `total_changes()`), which sees no other node's commits. This number moves on every
// commit the storage port announces, on any node (`onChange`: at once here, by NOTIFY or at the
// next re-poll from the others), so a cache keyed by it is stale for at most one re-poll.
import type { StoragePort } from './storage-port.ts';

export class ChangeCount {
  private count = 0;
  private readonly unsubscribe: () => void;

  constructor(storage: Pick<StoragePort, 'onChange'>) {
    this.unsubscribe = storage.onChange(() => {
      this.count += 1;
    });
  }

  /** Moves (grows) whenever a commit may have changed what a cache holds. */
  get value(): number {
    return this.count;
  }

  stop(): void {
    this.unsubscribe();
  }
}
