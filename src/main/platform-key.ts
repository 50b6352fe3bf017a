import type { PlatformKeyInfo } from '../shared/ipc/settings.ts';
import type { World } from '../shared/world.ts';

/** A platform's API key: `<prefix>_live_<secret>` or `<prefix>_test_<secret>` (spec section 5). */
const PLATFORM_KEY_SHAPE = /^[A-Za-z0-9]{1,16}_(live|test)_[A-Za-z0-9]{16,128}$/;

export function platformKeyMode(key: string): World | null {
  const match = PLATFORM_KEY_SHAPE.exec(key);
  return match ? (match[1] as World) : null;
}

/** What the screen may know of a key: that it exists, its mode, its label and its last four characters. */
export function describePlatformKey(key: string | null, label: string | null): PlatformKeyInfo {
  if (key === null) return { present: false, mode: null, label: null, last4: null };
  return { present: true, mode: platformKeyMode(key), label, last4: key.slice(-4) };
}
