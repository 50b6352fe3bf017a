// A process started by `npm run X` stops when npm does. npm runs a script through `sh -c`, and a
// SIGTERM or SIGINT sent to npm reaches that shell, which does not pass it on and may outlive npm:
// this process would be left serving, orphaned on its port. So it watches npm (and the shell
// between), and stops as for a signal once either is gone. Used by `npm run serve` and `npm start`.
import { readFileSync } from 'node:fs';

/** Calls `stop` once the npm process that runs `script` is gone; returns the watch's cancel. */
export function stopWhenNpmEnds(script: string, stop: (why: string) => void): () => void {
  const npm = npmProcessId(script);
  if (npm === null) return () => {};
  const parent = process.ppid;
  const watcher = setInterval(() => {
    // The shell between goes first (npm forwards the signal to it), then npm.
    if (process.ppid !== parent || !isAlive(npm)) {
      clearInterval(watcher);
      stop(`npm's ${script} ended`);
    }
  }, 250);
  watcher.unref();
  return () => clearInterval(watcher);
}

/** The pid of the `npm run <script>` that started this process (through a shell), or null when npm did not. */
function npmProcessId(script: string): number | null {
  if (process.env.npm_lifecycle_event !== script) return null;
  const parent = process.ppid;
  // Linux names a process's parent in /proc; elsewhere the direct parent is watched.
  try {
    const comm = readFileSync(`/proc/${parent}/comm`, 'utf8').trim();
    if (!['sh', 'dash', 'bash', 'zsh'].includes(comm)) return parent;
    const stat = readFileSync(`/proc/${parent}/stat`, 'utf8');
    const grandparent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(grandparent) && grandparent > 1 ? grandparent : parent;
  } catch {
    return parent;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
