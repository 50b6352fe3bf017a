// What the engine checks before it serves a SQLite file: that the file is a SQLite database, that
// it is Comanda's (or empty), that it is whole, and that it can be written. A file that fails is
// refused with one line saying what is wrong, which file, and how to restore it from a backup.
// The checks that could change the file (WAL mode, migrations, the write probe) come after the
// ones that refuse a file that is not ours, so such a file is left byte for byte as it was.
import type { Database } from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, openSync, readSync, statfsSync, statSync } from 'node:fs';
import { megabytes, MIN_FREE_BYTES_TO_START } from '../domain/free-space.ts';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

/** `PRAGMA application_id` of every Comanda database ("Cmnd"), set on creation and on migration. */
export const COMANDA_APPLICATION_ID = 0x436d6e64;

/** Tables every Comanda schema since version 1 has: how an older file (no application_id yet) is recognised. */
const COMANDA_V1_TABLES = ['restaurants', 'locations', 'products', 'orders', 'api_keys', 'events', 'idempotency_keys'] as const;

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;

/** Why a database file was refused; `message` is the one line the engine prints (or the app shows). */
export class StorageRefusal extends Error {
  readonly file: string;
  readonly problem: string;

  /** `advice` replaces the restore steps when the file itself is fine (it cannot be written now). */
  constructor(file: string, problem: string, advice: string = restoreAdvice(file), options?: ErrorOptions) {
    super(`cannot use the database ${file}: ${problem}. ${advice}`, options);
    this.name = 'StorageRefusal';
    this.file = file;
    this.problem = problem;
  }
}

function restoreAdvice(file: string): string {
  return (
    `To restore: stop Comanda, move ${file} aside (with its -wal and -shm files) and copy your latest backup ` +
    `(made by the app's "Back up now", kept in its backups folder, or by npm run backup -- --out FILE) in its place`
  );
}

export interface FileInspection {
  /** The file did not exist, or has 0 bytes: the engine creates its schema in it. */
  fresh: boolean;
}

/**
 * Reads the file's 100-byte header without SQLite (which would try to recover or rewrite it):
 * refuses what is not a SQLite database, and bytes after the last page that SQLite never writes
 * (a bad copy or a damaged disk). Skipped when a non-empty WAL holds the newest pages.
 */
export function inspectFile(path: string): FileInspection {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return { fresh: true };
  if (stat.isDirectory()) {
    throw new StorageRefusal(path, 'it is a folder, not a database file', `Give the path of a file, e.g. --db ${join(path, 'comanda.db')}; nothing was written`);
  }
  if (!stat.isFile()) throw new StorageRefusal(path, 'it is not a regular file (a device, a socket or a pipe)', 'Give the path of a database file; nothing was written');
  const size = stat.size;
  if (size === 0) return { fresh: true };
  const header = readStart(path, HEADER_BYTES);
  const read = header.length;
  if (read < HEADER_BYTES || !header.subarray(0, 16).equals(SQLITE_MAGIC)) {
    throw new StorageRefusal(path, 'it is not a SQLite database (its header is damaged, or it is another kind of file)');
  }
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) {
    throw new StorageRefusal(path, `its header is damaged (page size ${rawPageSize})`);
  }
  if (size % pageSize !== 0) {
    throw new StorageRefusal(path, `its size (${size} bytes) is not a whole number of ${pageSize}-byte pages: it holds bytes SQLite did not write (a bad copy or a damaged disk)`);
  }
  // The log beside it must be SQLite's: SQLite ignores one that is not (and the commits it was
  // meant to hold are lost), so it is refused like damage rather than served once and lost.
  const wal = inspectWal(path, pageSize);
  if (wal === 'invalid') {
    throw new StorageRefusal(
      path,
      `the log beside it (${path}-wal) is not a SQLite write-ahead log (its header is damaged, or it is another file): the commits it should hold cannot be read`,
    );
  }
  const pagesInHeader = header.readUInt32BE(28);
  const headerSizeValid = pagesInHeader > 0 && header.readUInt32BE(24) === header.readUInt32BE(92);
  // Only a real log with frames may hold a newer page count than the file's header (a checkpoint
  // cut short before it truncated the file).
  if (headerSizeValid && wal !== 'frames' && size > pagesInHeader * pageSize) {
    throw new StorageRefusal(
      path,
      `it has ${size - pagesInHeader * pageSize} bytes after its last page (${pagesInHeader} pages of ${pageSize} bytes): data SQLite did not write (a bad copy or a damaged disk)`,
    );
  }
  return { fresh: false };
}

function readStart(path: string, bytes: number): Buffer {
  const buffer = Buffer.alloc(bytes);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new StorageRefusal(path, `it cannot be read (${(error as Error).message})`, 'Check its permissions (ls -l) and start again; nothing was written', { cause: error });
  }
  try {
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } catch (error) {
    throw new StorageRefusal(path, `it cannot be read (${(error as Error).message})`, 'Check the file and the disk it is on; nothing was written', { cause: error });
  } finally {
    closeSync(fd);
  }
}

const WAL_HEADER_BYTES = 32;
const WAL_FRAME_HEADER_BYTES = 24;

/**
 * The `-wal` beside the file: absent or empty ('none'), a valid header and no whole frame
 * ('empty'), a valid header and frames ('frames'), or not a SQLite log at all ('invalid': wrong
 * magic, version, page size or header checksum). https://sqlite.org/fileformat2.html#walformat
 */
function inspectWal(path: string, pageSize: number): 'none' | 'empty' | 'frames' | 'invalid' {
  const walPath = `${path}-wal`;
  const stat = statSync(walPath, { throwIfNoEntry: false });
  if (!stat || stat.size === 0) return 'none';
  if (!stat.isFile() || stat.size < WAL_HEADER_BYTES) return 'invalid';
  const header = readStart(walPath, WAL_HEADER_BYTES);
  if (header.length < WAL_HEADER_BYTES) return 'invalid';
  const magic = header.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return 'invalid';
  if (header.readUInt32BE(4) !== 3007000 || header.readUInt32BE(8) !== pageSize) return 'invalid';
  const [s0, s1] = walChecksum(header.subarray(0, 24), magic === 0x377f0683);
  if (s0 !== header.readUInt32BE(24) || s1 !== header.readUInt32BE(28)) return 'invalid';
  return stat.size >= WAL_HEADER_BYTES + WAL_FRAME_HEADER_BYTES + pageSize ? 'frames' : 'empty';
}

/** SQLite's WAL checksum over 32-bit words, big-endian when the magic says so, else little-endian. */
function walChecksum(data: Buffer, bigEndian: boolean): [number, number] {
  let s0 = 0;
  let s1 = 0;
  for (let i = 0; i < data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** Free bytes for this user on the file system that holds `folder` (null when it cannot be told). */
export function freeBytes(folder: string): number | null {
  try {
    const fs = statfsSync(folder);
    return fs.bavail * fs.bsize;
  } catch {
    return null;
  }
}

/** Below this, a failure to open or prepare the file is the full disk's, not the file's. */
const FULL_DISK_BYTES = 1024 * 1024;

const sqliteCode = (error: unknown): string => {
  const code = (error as { code?: unknown }).code ?? ((error as { cause?: { code?: unknown } }).cause?.code);
  return typeof code === 'string' ? code : '';
};

/**
 * The refusal for a start that failed on a full disk, or null when the failure is not the disk's:
 * SQLite's "database or disk is full", or an I/O error or a file it cannot create while the file
 * system has (almost) no byte left (the -shm cannot be mapped, the -wal cannot grow).
 */
export function fullDiskRefusal(path: string, error: unknown): StorageRefusal | null {
  const code = sqliteCode(error);
  const free = freeBytes(dirname(path));
  const full = code.startsWith('SQLITE_FULL') || ((/^SQLITE_(IOERR|CANTOPEN)/.test(code) || code === 'ENOSPC') && free !== null && free < FULL_DISK_BYTES);
  if (!full) return null;
  const shown = free === null ? 'almost no space' : megabytes(free);
  return new StorageRefusal(
    path,
    `the disk is full (${shown} free on the file system that holds it)`,
    `Free some space there (keep at least ${megabytes(MIN_FREE_BYTES_TO_START)} free beside the database) and start again: the file was not changed, so there is nothing to restore from a backup`,
    { cause: error },
  );
}

/**
 * The refusal for a start with less than `minFreeBytes` free beside the database (64 MB by
 * default: the log alone can reach that under load), or null. Nothing was written yet.
 */
export function lowSpaceRefusal(path: string, minFreeBytes: number): StorageRefusal | null {
  const free = freeBytes(dirname(path));
  if (free === null || free >= minFreeBytes) return null;
  const problem = free < FULL_DISK_BYTES ? `the disk is full (${megabytes(free)} free on the file system that holds it)` : `only ${megabytes(free)} free on the file system that holds it, less than the ${megabytes(minFreeBytes)} the engine needs`;
  return new StorageRefusal(
    path,
    problem,
    `Free some space there (keep at least ${megabytes(minFreeBytes)} free beside the database) and start again: the file was not changed, so there is nothing to restore from a backup`,
  );
}

/** The refusal for a folder that cannot take the database's -wal and -shm files (or the file itself). */
export function folderRefusal(path: string, error: unknown): StorageRefusal {
  const folder = dirname(path);
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'EROFS'
      ? `its folder ${folder} is on a read-only file system`
      : `its folder ${folder} cannot be written (${(error as Error).message.split('\n')[0]})`;
  return new StorageRefusal(
    path,
    why,
    'The engine writes the file and its -wal and -shm files there: use a --db in a folder this user can write, or fix the folder (check ls -ld, lsattr -d and mount), and start again; nothing was written',
    { cause: error },
  );
}

/** Throws folderRefusal when the folder of `path` cannot be written (permissions, immutable, read-only mount). */
export function checkFolderWritable(path: string): void {
  try {
    accessSync(dirname(path), constants.W_OK);
  } catch (error) {
    if (['EACCES', 'EPERM', 'EROFS'].includes((error as NodeJS.ErrnoException).code ?? '')) throw folderRefusal(path, error);
  }
}

/** What the schema says about the file, read before anything is written to it. */
export function checkOwnership(db: Database, path: string, knownVersion: number): void {
  let applicationId: number;
  let version: number;
  let tables: string[];
  try {
    applicationId = db.pragma('application_id', { simple: true }) as number;
    version = db.pragma('user_version', { simple: true }) as number;
    tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  } catch (error) {
    throw new StorageRefusal(path, `SQLite cannot read it (${(error as Error).message})`, undefined, { cause: error });
  }
  const ours = applicationId === COMANDA_APPLICATION_ID;
  if (!ours) {
    if (applicationId !== 0) {
      throw new StorageRefusal(path, `it belongs to another program (application_id ${applicationId}, not Comanda's); it was left untouched`);
    }
    const olderComanda = version >= 1 && COMANDA_V1_TABLES.every((t) => tables.includes(t));
    if (tables.length > 0 && !olderComanda) {
      const shown = tables.slice(0, 5).join(', ') + (tables.length > 5 ? `, … (${tables.length} tables)` : '');
      throw new StorageRefusal(path, `it is not a Comanda database (it holds tables of another program: ${shown}); it was left untouched`);
    }
  }
  if (version > knownVersion) {
    throw new StorageRefusal(path, `its schema version ${version} is newer than this program knows (${knownVersion}): it was written by a newer Comanda; it was left untouched`);
  }
}

/** `PRAGMA quick_check`: the b-trees and their pages, without cross-checking indexes (see docs/architecture.md for its cost). */
export function checkIntegrity(db: Database, path: string): void {
  let rows: { quick_check: string }[];
  try {
    rows = db.pragma('quick_check(5)') as { quick_check: string }[];
  } catch (error) {
    throw new StorageRefusal(path, `it is damaged (${(error as Error).message})`, undefined, { cause: error });
  }
  const problems = rows.map((r) => r.quick_check).filter((line) => line !== 'ok');
  if (problems.length > 0) {
    throw new StorageRefusal(path, `it is damaged (quick_check: ${problems.join('; ').replace(/\s+/g, ' ').slice(0, 300)})`);
  }
}

/** Commits one real write (the application_id, rewritten as it is), so a file that cannot be written is found now and not on the first order. */
export function probeWrite(db: Database, path: string): void {
  try {
    db.transaction(() => db.pragma(`application_id = ${COMANDA_APPLICATION_ID}`)).immediate();
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    const why =
      code.startsWith('SQLITE_FULL')
        ? 'the disk is full; free some space and start again'
        : code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM') || code.startsWith('SQLITE_CANTOPEN')
          ? 'it cannot be written (read-only or immutable file, or no permission on it or its folder; check with ls -l and lsattr)'
          : `a test write failed`;
    // Its data is intact: restoring a backup (or moving its -wal aside) would lose commits.
    throw new StorageRefusal(path, `${why} (${(error as Error).message})`, 'Fix that and start again: nothing in the file was lost, so there is nothing to restore from a backup', { cause: error });
  }
}

/**
 * Up to this size `quick_check` runs while the file is opened, before anything is served. A larger
 * file is checked right after the engine starts listening (`checkIntegrityInBackground`), because
 * quick_check costs about 1–2 ms per MB (0.33–0.86 s at 100,000 orders, 388 MB), which would break
 * the start-up target (< 500 ms at 100,000 orders, docs/performance.md row 4).
 */
const QUICK_CHECK_AT_OPEN_MAX_BYTES = 32 * 1024 * 1024;

export function quickCheckAtOpen(path: string, maxBytes = QUICK_CHECK_AT_OPEN_MAX_BYTES): boolean {
  return path === ':memory:' || !existsSync(path) || statSync(path).size <= maxBytes;
}

// A process of its own, so the event loop keeps answering while the file is read end to end, and
// the memory the check takes goes back when it ends: a worker thread's stayed in the engine's RSS
// (14-18 MB at 100,000 orders, docs/performance.md row 4). Plain CommonJS given as text, run by
// this same executable (in the app, Electron as plain Node through ELECTRON_RUN_AS_NODE).
const QUICK_CHECK_PROCESS = `
let result;
try {
  const Database = require(process.env.COMANDA_QUICK_CHECK_DRIVER);
  const db = new Database(process.env.COMANDA_QUICK_CHECK_FILE, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  result = { problems: db.pragma('quick_check(5)').map((r) => r.quick_check).filter((line) => line !== 'ok') };
  db.close();
} catch (error) {
  result = { problems: [String((error && error.message) || error)] };
}
process.stdout.write(JSON.stringify(result));
`;

/** Runs `quick_check` on its own read-only connection in a child process; resolves with the refusal, or null when the file is whole. */
export function checkIntegrityInBackground(path: string): Promise<StorageRefusal | null> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', QUICK_CHECK_PROCESS], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', COMANDA_QUICK_CHECK_DRIVER: driver, COMANDA_QUICK_CHECK_FILE: path },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    child.once('error', (error) => resolve(new StorageRefusal(path, `it could not be checked (${error.message})`)));
    child.once('close', (code) => {
      let result: { problems: string[] };
      try {
        result = JSON.parse(output) as { problems: string[] };
      } catch {
        const why = errors.trim().split('\n').at(-1) || `the check ended with code ${String(code)}`;
        resolve(new StorageRefusal(path, `it could not be checked (${why})`));
        return;
      }
      resolve(result.problems.length === 0 ? null : new StorageRefusal(path, `it is damaged (quick_check: ${result.problems.join('; ').replace(/\s+/g, ' ').slice(0, 300)})`));
    });
  });
}
