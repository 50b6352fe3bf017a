import { worldOfKey } from '../engine/domain/api-key-format.ts';
import type { PlatformKeyInfo } from '../shared/screen-contract/settings.ts';

/**
 * A hub's key for its platform: the platform runs this same engine, so its keys are the engine's
 * own (`cm_live_…`, `cm_test_…`), read by the one rule the first pull applies too.
 */
export const platformKeyMode = worldOfKey;

/** What the screen may know of a key: that it exists, its mode, its label and its last four characters. */
export function describePlatformKey(key: string | null, label: string | null): PlatformKeyInfo {
  if (key === null) return { present: false, mode: null, label: null, last4: null };
  return { present: true, mode: platformKeyMode(key), label, last4: key.slice(-4) };
}
