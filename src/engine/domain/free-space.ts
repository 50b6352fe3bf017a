// How much free disk beside the database the engine needs (api-v1-decisions.md, "Free disk
// space"): below the first it refuses to start; below the second it warns (the kitchen's status
// strip, /sync/status), so a kitchen hears of it before writes stop.

/** The engine refuses to start with less than this free beside the database. */
export const MIN_FREE_BYTES_TO_START = 64 * 1024 * 1024;
/** Below this free, the engine warns. */
export const LOW_FREE_BYTES = 256 * 1024 * 1024;

export interface FreeSpace {
  /** Free bytes for this user on the file system holding the database; null when it cannot be told. */
  free_bytes: number | null;
  /** Below LOW_FREE_BYTES: say so. */
  low: boolean;
}

export function freeSpaceState(freeBytes: number | null): FreeSpace {
  return { free_bytes: freeBytes, low: freeBytes !== null && freeBytes < LOW_FREE_BYTES };
}

/** "63.2 MB", as the refusal and the warning say it. */
export const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
