// Backups of the layout with pgBackRest (`npm run platform -- up --backups`): one repository in the
// state folder, one stanza (the cluster's scope) that knows all three nodes, so that a backup finds
// the leader and copies from a standby (backup-standby), and WAL archiving from whichever node leads.
// On real machines the repository is on a backup machine (docs/platform-failover.md).
import { execFile } from 'node:child_process';
import { chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dataDir, nodeDir, type PlatformLayout } from './layout.ts';
import type { RunAs } from './processes.ts';

const run = promisify(execFile);

export const PGBACKREST = '/usr/bin/pgbackrest';

export const backupFolder = (layout: PlatformLayout) => join(layout.dir, 'pgbackrest');
export const pgbackrestConfigFile = (layout: PlatformLayout) => join(backupFolder(layout), 'pgbackrest.conf');
export const backupRepository = (layout: PlatformLayout) => join(backupFolder(layout), 'repo');

export function pgbackrestConfig(layout: PlatformLayout): string {
  const folder = backupFolder(layout);
  return [
    '[global]',
    `repo1-path=${backupRepository(layout)}`,
    'repo1-retention-full=2',
    // Its locks, logs and spool in the state folder, not /tmp/pgbackrest and /var/log/pgbackrest
    // (two platforms on one machine must not share them).
    `lock-path=${join(folder, 'lock')}`,
    `log-path=${join(folder, 'log')}`,
    `spool-path=${join(folder, 'spool')}`,
    'log-level-console=warn',
    'log-level-file=info',
    // A checkpoint at once when a backup starts, instead of waiting for the next one.
    'start-fast=y',
    // The copy comes from a standby (the leader only supplies the start and stop of the backup).
    'backup-standby=y',
    'compress-type=gz',
    'compress-level=1',
    '',
    `[${layout.scope}]`,
    ...layout.nodes.flatMap((node, index) => [`pg${index + 1}-path=${dataDir(layout, node.name)}`, `pg${index + 1}-port=${node.port}`, `pg${index + 1}-socket-path=${nodeDir(layout, node.name)}`]),
    '',
  ].join('\n');
}

/**
 * The node's archive_command. PostgreSQL passes %p relative to its data folder and pgBackRest reads
 * it from pg1-path, so each node names its own data folder (the stanza's pg1 is one node only).
 */
export function archiveCommand(layout: PlatformLayout, nodeName: string): string {
  return `${PGBACKREST} --config=${pgbackrestConfigFile(layout)} --stanza=${layout.scope} --pg1-path=${dataDir(layout, nodeName)} archive-push "%p"`;
}

/** The repository's folders and the configuration, owned by the user that runs PostgreSQL (archive-push runs as it). */
export function writePgbackrestFiles(layout: PlatformLayout, runAs: RunAs | undefined): void {
  const folder = backupFolder(layout);
  for (const sub of ['', 'repo', 'lock', 'log', 'spool']) {
    mkdirSync(join(folder, sub), { recursive: true, mode: 0o750 });
    if (runAs) chownSync(join(folder, sub), runAs.uid, runAs.gid);
  }
  writeFileSync(pgbackrestConfigFile(layout), pgbackrestConfig(layout), { mode: 0o640 });
  if (runAs) chownSync(pgbackrestConfigFile(layout), runAs.uid, runAs.gid);
}

/** Runs `pgbackrest --config=… --stanza=… <args>` as the user that runs PostgreSQL; its output, or an error with its stderr. */
export async function pgbackrest(layout: PlatformLayout, runAs: RunAs | undefined, args: string[], timeoutMs = 600_000): Promise<string> {
  try {
    const { stdout, stderr } = await run(PGBACKREST, [`--config=${pgbackrestConfigFile(layout)}`, `--stanza=${layout.scope}`, ...args], {
      timeout: timeoutMs,
      cwd: backupFolder(layout),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
      ...(runAs ?? {}),
    });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failure = error as { stderr?: string; stdout?: string; message?: string };
    throw new Error(`pgbackrest ${args.join(' ')} failed: ${(failure.stderr || failure.stdout || failure.message || String(error)).trim().slice(0, 2000)}`);
  }
}

export type BackupType = 'full' | 'diff' | 'incr';

/** A backup (copied from a standby); returns pgBackRest's label of it. */
export async function backup(layout: PlatformLayout, runAs: RunAs | undefined, type: BackupType = 'full'): Promise<string> {
  await pgbackrest(layout, runAs, ['backup', `--type=${type}`]);
  const info = JSON.parse(await pgbackrest(layout, runAs, ['info', '--output=json'])) as { backup?: { label?: string }[] }[];
  const label = info[0]?.backup?.at(-1)?.label;
  if (typeof label !== 'string') throw new Error('pgbackrest info names no backup after a backup');
  return label;
}

export interface RestoreOptions {
  /** An empty (or absent) folder, owned by the user that runs PostgreSQL once restored. */
  target: string;
  /** Recover up to this moment (PostgreSQL's timestamptz text, e.g. from clock_timestamp()), then promote; else to the end of the archive. */
  targetTime?: string;
  /**
   * The backup set to start from (a label from `backup`). Without it pgBackRest picks, for a time
   * target, the latest set whose stop time is before it, compared in whole seconds: a target in the
   * same second as the set's stop finds no set ("unable to find backup set with stop time less than").
   */
  set?: string;
}

/**
 * Restores the latest backup and the archived WAL into a new data folder (the cluster's own nodes are
 * not touched). pgBackRest writes the recovery settings there: restore_command (archive-get, with
 * pg1-path the new folder), the target, and promotion once it is reached.
 */
export async function restore(layout: PlatformLayout, runAs: RunAs | undefined, options: RestoreOptions): Promise<void> {
  mkdirSync(options.target, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(options.target, runAs.uid, runAs.gid);
  const target = options.targetTime ? ['--type=time', `--target=${options.targetTime}`, '--target-action=promote'] : ['--type=default'];
  const set = options.set ? [`--set=${options.set}`] : [];
  await pgbackrest(layout, runAs, ['restore', `--pg1-path=${options.target}`, ...set, ...target]);
}
