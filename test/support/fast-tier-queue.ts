// The fast tier's queue of test files, shared by its processes through a folder
// (scripts/fast-tier.ts writes it, test/support/fast-tier-shard.ts takes files from it).

/** The environment variable that names the queue's folder. */
export const QUEUE_ENV = 'COMANDA_FAST_TIER_QUEUE';

/** queue.json: the files to run, longest first when earlier runs measured them. */
export interface FastTierQueue {
  root: string;
  files: string[];
}

/** claimed/<index>/run.json, written once the file's tests have finished. */
export interface FileRun {
  file: string;
  /** Wall time, and the CPU time of this process (not of the children a test starts). */
  ms: number;
  cpuMs: number;
  pid: number;
}
