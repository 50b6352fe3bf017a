// The most a pickup screen may say about a customer: the first word of the name they gave, never
// the surname, cut to a length the screen's columns hold. Nothing else of the customer is read.
import { PICKUP_FIRST_NAME_MAX } from '../../shared/screen-contract/pickup.ts';

/** Control and format characters (zero-width, bidi overrides) never reach a screen customers read. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;

/** The first word of `name` (at most PICKUP_FIRST_NAME_MAX characters), or null when there is none. */
export function firstNameOf(name: string | null | undefined): string | null {
  if (typeof name !== 'string') return null;
  const first = name.replace(INVISIBLE, ' ').trim().split(/\s+/u)[0] ?? '';
  if (first === '') return null;
  return Array.from(first).slice(0, PICKUP_FIRST_NAME_MAX).join('');
}
