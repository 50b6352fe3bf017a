// The kitchen's channels, by name, for the browser transport's refusal of the desktop's own: the
// channel table (shared/screen-contract/channels.ts) holds them with their request schemas, and
// importing it brought typebox (67 KB minified, a seventh of the app's first chunk) into every
// tablet's first load for this one list. The compiler holds the list to the table: a channel named
// here that is not a kitchen channel, or a kitchen channel missing here, fails the typecheck.
import type { KitchenChannel, ScreenChannel } from '../../../shared/screen-contract/contract.ts';

const NAMES = [
  'board:snapshot',
  'orders:transition',
  'items:set-done',
  'items:set-started',
  'orders:recall',
  'orders:reprint',
  'printers:retry',
  'pickup:board',
  'stock:read',
  'stock:set',
  'sold-out:read',
  'sold-out:set',
  'items:set-sold-out',
  'locations:list',
  'locations:set-open',
] as const satisfies readonly KitchenChannel[];

/** Every kitchen channel is listed: `true` only while none is missing. */
const complete: [Exclude<KitchenChannel, (typeof NAMES)[number]>] extends [never] ? true : false = true;
void complete;

const KITCHEN: ReadonlySet<string> = new Set(NAMES);

export function isKitchenChannelName(channel: ScreenChannel): channel is KitchenChannel {
  return KITCHEN.has(channel);
}
