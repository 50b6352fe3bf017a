import type { Actor } from './domain/actor.ts';

/** A key whose hash was checked, as this process knows it. */
export interface VerifiedKey {
  actor: Actor;
  /** The latest use known here (written, or waiting in the pending uses), ms. */
  lastUsedAt: number | null;
}

/** More distinct keys than a restaurant's integrations ever present at once; past it we start over. */
const MAX_KEYS = 1_000;

/** A key's last use is recorded to the minute: a read must not become a write every time. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Keys verified once and kept in memory by the exact text presented, so authenticating a known
 * key costs a map lookup instead of a read, a SHA-256 and a write. Everything is dropped when a key
 * may have changed: another connection committed (`PRAGMA data_version`, read once per turn of
 * the event loop by authentication, so every request a turn reads sees the commits made before it) or this connection wrote a key (`ApiKeysStore.writeCount`). A key unknown here
 * is always looked up, so a key created elsewhere works on its next request.
 *
 * Last uses are kept here too and written later by the jobs runner and on close (Engine.flushKeyUses), so
 * a read never writes: on a full disk reads keep working, and a failed write is tried again later.
 */
export class VerifiedKeys {
  private readonly byPresented = new Map<string, VerifiedKey>();
  private keyWrites = 0;
  private readonly pendingUses = new Map<string, number>();

  /** The verified key for this exact text, if this process checked it since keys last changed. */
  get(presented: string, keyWrites: number): VerifiedKey | undefined {
    if (keyWrites !== this.keyWrites) {
      this.byPresented.clear();
      this.keyWrites = keyWrites;
      return undefined;
    }
    return this.byPresented.get(presented);
  }

  remember(presented: string, keyWrites: number, actor: Actor, storedLastUsedAt: number | null): VerifiedKey {
    if (keyWrites !== this.keyWrites) {
      this.byPresented.clear();
      this.keyWrites = keyWrites;
    }
    if (this.byPresented.size >= MAX_KEYS) this.byPresented.clear();
    const pending = this.pendingUses.get(actor.keyId);
    const lastUsedAt = pending !== undefined && (storedLastUsedAt === null || pending > storedLastUsedAt) ? pending : storedLastUsedAt;
    const entry = { actor, lastUsedAt };
    this.byPresented.set(presented, entry);
    return entry;
  }

  /** Drops every verified key (another connection committed). Pending uses are kept. */
  clear(): void {
    this.byPresented.clear();
  }

  /** Records a use at `now`, to be written if the stored one is older than the resolution. */
  noteUse(entry: VerifiedKey, now: number): void {
    if (entry.lastUsedAt !== null && now - entry.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
    entry.lastUsedAt = now;
    this.pendingUses.set(entry.actor.keyId, now);
  }

  /** The latest use not yet written, by key id. */
  pendingUse(keyId: string): number | undefined {
    return this.pendingUses.get(keyId);
  }

  /** Uses waiting to be written: [key id, time]. */
  pending(): [string, number][] {
    return [...this.pendingUses];
  }

  /** After a successful write: forgets the use unless a later one came meanwhile. */
  written(keyId: string, at: number): void {
    if (this.pendingUses.get(keyId) === at) this.pendingUses.delete(keyId);
  }
}
