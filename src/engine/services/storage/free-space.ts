import { dirname } from 'node:path';
import { freeSpaceState, type FreeSpace } from '../../domain/free-space.ts';
import type { Engine } from '../../engine.ts';
import { freeBytes } from '../../store/database-checks.ts';

/** The free disk beside the engine's database now, and whether it is low (below 256 MB). */
export function readFreeSpace(engine: Engine): FreeSpace {
  const file = engine.db.name;
  if (file === ':memory:' || file === '') return freeSpaceState(null);
  return freeSpaceState(freeBytes(dirname(file)));
}
