import { worldOfKey } from '../engine/domain/api-key-format.ts';
import type { PlatformKeyInfo } from '../shared/screen-contract/settings.ts';

// A hub's key for its platform: the platform runs this same engine, so its keys are the engine's
// own (`cm_live_…`, `cm_test_…`) and their world is read by `worldOfKey`, the one rule the first
// pull applies too.

/** What the screen may know of a key: that it exists, its world, its label and its last four characters. */
export function describePlatformKey(key: string | null, label: string | null): PlatformKeyInfo {
  if (key === null) return { present: false, world: null, label: null, last4: null };
  return { present: true, world: worldOfKey(key), label, last4: key.slice(-4) };
}
