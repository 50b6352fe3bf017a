// A fast start: initdb runs once per machine into a cached template data directory, and Patroni's
// leader bootstraps by copying it (Patroni's custom bootstrap method); the replicas then clone the
// leader with pg_basebackup, as Patroni does anyway (a replica must share the leader's system
// identifier, so a template cannot stand in for that). The cache is keyed by PostgreSQL's version.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POSTGRES_BIN_DIR } from './configs.ts';
import type { RunAs } from './processes.ts';

export function templateDirectory(): string {
  return join(tmpdir(), 'comanda-platform-cache', 'pg15-template');
}

/** The cached template, made now (as the user that runs PostgreSQL) when it is not there yet. */
export function ensureTemplate(runAs: RunAs | undefined): string {
  const template = templateDirectory();
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const cache = join(tmpdir(), 'comanda-platform-cache');
  mkdirSync(cache, { recursive: true, mode: 0o755 });
  chmodSync(cache, 0o755);
  const scratch = mkdtempSync(join(cache, 'making-'));
  if (runAs) chownSync(scratch, runAs.uid, runAs.gid);
  chmodSync(scratch, 0o700);
  try {
    execFileSync(join(POSTGRES_BIN_DIR, 'initdb'), ['-D', scratch, '--username=postgres', '--encoding=UTF8', '--locale=C.UTF-8', '--data-checksums', '--auth-local=peer', '--auth-host=scram-sha-256'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      cwd: cache,
      ...(runAs ?? {}),
    });
    // Two starts at once: the first rename wins, the other's copy is dropped.
    if (existsSync(join(template, 'PG_VERSION'))) rmSync(scratch, { recursive: true, force: true });
    else renameSync(scratch, template);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  return template;
}

/** The command Patroni's custom bootstrap runs: it gets --scope=… --datadir=… and copies the template there. */
export function writeTemplateBootstrapScript(dir: string, template: string): string {
  const script = join(dir, 'bootstrap-from-template.sh');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      '# Patroni custom bootstrap (written by npm run platform -- up): copy the cached template data directory.',
      'set -eu',
      'datadir=',
      'for argument in "$@"; do case "$argument" in --datadir=*) datadir="${argument#--datadir=}";; esac; done',
      '[ -n "$datadir" ] || { echo "no --datadir" >&2; exit 1; }',
      'mkdir -p "$datadir"',
      `cp -a ${JSON.stringify(template)}/. "$datadir"/`,
      'chmod 700 "$datadir"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return script;
}
