import { randomBytes } from 'node:crypto';
import type { World } from '../../shared/world.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 32;
/** How many characters of the secret are kept in clear to find the key's row. */
const KEY_LOOKUP_LENGTH = 12;
const KEY_SHAPE = /^cm_(live|test)_([0-9A-Za-z]{32})$/;

/** Uniform base62 by rejection sampling (248 = 4 × 62, so bytes >= 248 are dropped). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function generateApiKey(world: World): string {
  return `cm_${world}_${randomBase62(SECRET_LENGTH)}`;
}

export interface ParsedApiKey {
  world: World;
  lookup: string;
}

/** Splits a presented key into its world and lookup part, or null when it is not shaped like our keys. */
export function parseApiKey(key: string): ParsedApiKey | null {
  const match = KEY_SHAPE.exec(key);
  if (!match) return null;
  return { world: match[1] as World, lookup: match[2]!.slice(0, KEY_LOOKUP_LENGTH) };
}

/**
 * The world (live or test) a key works in, read from its prefix; null when it is not one of ours.
 * The one reading of a key's world: the API's own keys, and a hub's key for its upstream platform,
 * which runs this same engine.
 */
export function worldOfKey(key: string): World | null {
  return parseApiKey(key)?.world ?? null;
}
