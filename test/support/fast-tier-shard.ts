// One process of the fast tier (`npm test`, scripts/fast-tier.ts starts them, one per core): it runs
// test files one after another in this process, each taking the next file no process has taken yet
// from the shared queue, so a process that drew short files takes more of them. Starting Node,
// tsx and the engine's modules costs ~2 s of CPU; paid once per process here, not once per file.
//
// Each file runs inside a suite named by its path: a file's top-level before/after/afterEach hooks
// stay with its own tests (node's --test-isolation=none would hand them to every later file), the
// suite has no timeout of its own and each test keeps the tier's per-test one.
import { describe } from 'node:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { QUEUE_ENV, type FastTierQueue, type FileRun } from './fast-tier-queue.ts';

const queueDir = process.env[QUEUE_ENV];
if (!queueDir) throw new Error(`${QUEUE_ENV} is not set: run the fast tier with npm test (scripts/fast-tier.ts)`);
const queue = JSON.parse(readFileSync(join(queueDir, 'queue.json'), 'utf8')) as FastTierQueue;

/** Takes file `index` if no other process has: mkdir is atomic, exactly one process creates it. */
function claim(index: number): boolean {
  try {
    mkdirSync(join(queueDir!, 'claimed', String(index)));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

for (let index = 0; index < queue.files.length; index++) {
  if (!claim(index)) continue;
  const file = queue.files[index]!;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await describe(relative(queue.root, file), async () => {
    await import(pathToFileURL(file).href);
  });
  const { user, system } = process.cpuUsage(cpu);
  const run: FileRun = { file, ms: Math.round(performance.now() - started), cpuMs: Math.round((user + system) / 1000), pid: process.pid };
  writeFileSync(join(queueDir, 'claimed', String(index), 'run.json'), JSON.stringify(run));
}
