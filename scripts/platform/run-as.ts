// PostgreSQL refuses to run as root: as root, the platform runs Patroni (and so PostgreSQL) as the
// `postgres` user that Debian's package creates; as anyone else, as that user.
import { execFileSync } from 'node:child_process';
import type { RunAs } from './processes.ts';

export function postgresUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}
