import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A message between the bench and one of its child processes (bench/children/*). */
export interface ChildMessage {
  type: string;
  [field: string]: unknown;
}

export interface Child {
  process: ChildProcess;
  pid: number;
  /** The child's first `ready` message. */
  ready: ChildMessage;
  /** Sends a request and waits for the answer of the same type. */
  ask(message: ChildMessage, timeoutMs?: number): Promise<ChildMessage>;
  /** Asks the child to stop, then ends it if it has not gone after a while. */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  /** Extra node flags, e.g. --cpu-prof. */
  nodeFlags?: string[];
  timeoutMs?: number;
}

let builtDir: string | null = null;

/** Runs the children from the bundles in `dir` (see build-children.ts) instead of through tsx. */
export function useBuiltChildren(dir: string): void {
  builtDir = dir;
}

/**
 * Starts bench/children/<name>.ts in its own Node process, so what it serves never shares an event
 * loop with the load generator or the bench itself: from its bundle once built, as the app ships
 * the engine (plain Node, no TypeScript loader in the process), else through tsx.
 */
export async function spawnChild(name: string, config: unknown, options: SpawnOptions = {}): Promise<Child> {
  const script = builtDir ? join(builtDir, `${name}.mjs`) : fileURLToPath(new URL(`../children/${name}.ts`, import.meta.url));
  const child = fork(script, [JSON.stringify(config)], {
    execPath: process.execPath,
    execArgv: [...(builtDir ? [] : ['--import', 'tsx']), ...(options.nodeFlags ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<string, (message: ChildMessage) => void>();
  child.on('message', (message: ChildMessage) => {
    const resolve = waiting.get(message.type);
    if (resolve) {
      waiting.delete(message.type);
      resolve(message);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A child that has just gone makes a late send fail with EPIPE: that is no error here.
  child.on('error', () => {});

  const wait = (type: string, timeoutMs: number): Promise<ChildMessage> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(type);
        reject(new Error(`${name}: no "${type}" after ${timeoutMs} ms`));
      }, timeoutMs);
      const gone = () => {
        clearTimeout(timer);
        reject(new Error(`${name} exited (code ${child.exitCode}) before "${type}"`));
      };
      child.once('exit', gone);
      waiting.set(type, (message) => {
        clearTimeout(timer);
        child.off('exit', gone);
        if (message.error) reject(new Error(`${name}: ${String(message.error)}`));
        else resolve(message);
      });
    });

  let ready: ChildMessage;
  try {
    ready = await wait('ready', options.timeoutMs ?? 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    process: child,
    pid: child.pid!,
    ready,
    ask(message, timeoutMs = 120_000) {
      const answer = wait(message.type, timeoutMs);
      child.send(message, (error) => {
        if (error) child.emit('exit');
      });
      return answer;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ type: 'stop' }, () => {});
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The child side: the config passed by spawnChild, and a way to answer the bench. */
export function childConfig<T>(): T {
  return JSON.parse(process.argv[2] ?? '{}') as T;
}

export function tell(message: ChildMessage): void {
  process.send?.(message);
}

/** Answers the bench's requests by type; `stop` runs `onStop` and exits. */
export function answer(handlers: Record<string, (message: ChildMessage) => unknown>, onStop: () => Promise<void> | void): void {
  process.on('message', (message: ChildMessage) => {
    void (async () => {
      if (message.type === 'stop') {
        await onStop();
        process.disconnect?.();
        process.exit(0);
      }
      const handler = handlers[message.type];
      try {
        const result = handler ? await handler(message) : { error: `unknown request ${message.type}` };
        tell({ type: message.type, ...(result as object) });
      } catch (error) {
        tell({ type: message.type, error: error instanceof Error ? error.stack ?? error.message : String(error) });
      }
    })();
  });
  // The bench went away: do not linger.
  process.on('disconnect', () => process.exit(0));
}
