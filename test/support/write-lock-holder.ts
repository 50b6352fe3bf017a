// Another process holding SQLite's write lock on a file (`BEGIN IMMEDIATE`), as a CLI writing beside
// a running hub, or a sqlite3 shell left in a transaction, would: a child Node process, so that
// the lock is held whatever this process's event loop does, and released when the test says so.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const HOLDER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2], { fileMustExist: true });
db.exec('BEGIN IMMEDIATE');
process.stdout.write('held\\n');
process.stdin.once('data', () => {
  db.exec('COMMIT');
  db.close();
  process.stdout.write('released\\n');
  process.exit(0);
});
`;

export interface WriteLockHolder {
  /** Whether the child still holds the lock (it has not said it released it). */
  readonly holding: boolean;
  /** Commits the child's empty transaction and waits until the lock is free. */
  release(): Promise<void>;
}

/** Starts a process that takes the file's write lock; resolves once it holds it. */
export async function holdWriteLock(dbPath: string): Promise<WriteLockHolder> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const child: ChildProcess = spawn(process.execPath, ['-e', HOLDER, driver, dbPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const onLine = (line: string) => {
        if (line !== word) return;
        lines.off('line', onLine);
        resolve();
      };
      lines.on('line', onLine);
      child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before saying ${word}`)));
    });
  await said('held');
  let holding = true;
  return {
    get holding() {
      return holding;
    },
    async release() {
      if (!holding) return;
      const released = said('released');
      child.stdin!.write('release\n');
      await released;
      holding = false;
      await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
    },
  };
}
