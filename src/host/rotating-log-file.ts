// The app's log file (comanda.log in the data folder), rotated by size: past its limit the file
// becomes comanda.log.1 (the one before, .2), so every request an outsider can make adds to a log
// that never outgrows (LOG_FILES_KEPT + 1) × its limit. The limit is a setting, COMANDA_LOG_MAX_BYTES
// in the environment, like LOG_LEVEL; 5 MiB by default. Created readable by its owner only.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export const DEFAULT_LOG_MAX_BYTES = 5 * 1024 * 1024;
/** The smallest limit taken: a few lines of context survive a rotation. */
export const MIN_LOG_MAX_BYTES = 64 * 1024;
/** Older files kept beside the log: comanda.log.1 … comanda.log.N. */
export const LOG_FILES_KEPT = 2;

/** The limit the environment sets (COMANDA_LOG_MAX_BYTES, bytes), or the default; never below the minimum. */
export function logMaxBytes(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.COMANDA_LOG_MAX_BYTES);
  if (!Number.isSafeInteger(value) || value <= 0) return DEFAULT_LOG_MAX_BYTES;
  return Math.max(MIN_LOG_MAX_BYTES, value);
}

/** What pino writes to: one line at a time, synchronously, rotated before a line would pass the limit. */
export interface RotatingLog {
  write(line: string): boolean;
  /** pino's final flush: nothing is buffered here. */
  flushSync(): void;
  end(): void;
}

export function openRotatingLog(file: string, maxBytes = logMaxBytes(), keep = LOG_FILES_KEPT): RotatingLog {
  mkdirSync(dirname(file), { recursive: true });
  let fd = openSync(file, 'a', 0o600);
  let size = fstatSync(fd).size;
  const rotate = () => {
    closeSync(fd);
    for (let i = keep - 1; i >= 1; i--) if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
    if (keep > 0) renameSync(file, `${file}.1`);
    fd = openSync(file, keep > 0 ? 'a' : 'w', 0o600);
    size = 0;
  };
  let open = true;
  return {
    write(line: string): boolean {
      if (!open) return false;
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) rotate();
      writeSync(fd, line);
      size += bytes;
      return true;
    },
    flushSync() {},
    end() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}
