import { readFileSync } from 'node:fs';

/**
 * A WAL database's log as SQLite's wal-index (the -shm file) records it: `frames` in the log
 * (mxFrame, in the index header at byte 16) and how many of them are `copied` into the database
 * file (nBackfill, in the checkpoint info at byte 96). Read without a connection, so reading it
 * checkpoints nothing. Native byte order: little-endian on every machine Comanda runs on.
 */
export function walLogState(databasePath: string): { frames: number; copied: number } {
  const shm = readFileSync(`${databasePath}-shm`);
  return { frames: shm.readUInt32LE(16), copied: shm.readUInt32LE(96) };
}
