// The one contract between the screen and the engine, derived from the channel table (channels.ts):
// request types are the static types of the schemas that check them, answers are the table's, and the
// kitchen and desktop lists and the preload's methods come from the same rows. Handlers
// (src/engine/screen/kitchen-handlers.ts, src/main/desktop-handlers.ts), the preload and the browser transport
// are all checked against these types by the compiler.
import type { Static, TSchema } from 'typebox';
import { CHANNELS, type Answer, type ChannelEntry } from './channels.ts';
import type { LivePush } from './kitchen.ts';

type Table = typeof CHANNELS;
type AnswerOf<A> = A extends Answer<infer R> ? R : never;

/** Every channel with its request (the schema's static type) and its answer. */
export type ScreenContract = {
  [C in keyof Table]: { request: Static<Table[C]['request']>; response: AnswerOf<Table[C]['response']> };
};
export type ScreenChannel = keyof ScreenContract;
/** What a kitchen screen does, wherever it runs: the desktop window and paired tablets. */
export type KitchenChannel = { [C in ScreenChannel]: Table[C]['audience'] extends 'kitchen' ? C : never }[ScreenChannel];
/** What only the desktop app's own window may do: never served over HTTP, never to a tablet. */
export type DesktopChannel = Exclude<ScreenChannel, KitchenChannel>;
export type KitchenContract = Pick<ScreenContract, KitchenChannel>;
export type DesktopContract = Pick<ScreenContract, DesktopChannel>;
export type ScreenRequest<C extends ScreenChannel> = ScreenContract[C]['request'];
export type ScreenResponse<C extends ScreenChannel> = ScreenContract[C]['response'];

const entries = Object.entries(CHANNELS) as [ScreenChannel, ChannelEntry][];

/** Every channel, for registration and for the sender check (a channel not listed is refused). */
export const SCREEN_CHANNELS: readonly ScreenChannel[] = entries.map(([channel]) => channel);
/** The kitchen's channels: registered on ipcMain and as HTTP endpoints. */
export const KITCHEN_CHANNELS = entries.filter(([, entry]) => entry.audience === 'kitchen').map(([channel]) => channel) as readonly KitchenChannel[];
/** The desktop's own channels: on ipcMain only. */
export const DESKTOP_CHANNELS = entries.filter(([, entry]) => entry.audience === 'desktop').map(([channel]) => channel) as readonly DesktopChannel[];
/** The schema each request must pass before its handler runs, on either transport. */
export const REQUEST_SCHEMAS = Object.fromEntries(entries.map(([channel, entry]) => [channel, entry.request])) as {
  readonly [C in ScreenChannel]: TSchema;
};

export function isKitchenChannel(value: unknown): value is KitchenChannel {
  return typeof value === 'string' && Object.hasOwn(CHANNELS, value) && CHANNELS[value as ScreenChannel].audience === 'kitchen';
}

export function isScreenChannel(value: unknown): value is ScreenChannel {
  return typeof value === 'string' && Object.hasOwn(CHANNELS, value);
}

/** The live channel main pushes on (engine changes and heartbeats). */
export const LIVE_CHANNEL = 'live:push';
/** What the window says back on it: the stations its board shows (fallback printing asks; null: every station). */
export const LIVE_STATIONS_CHANNEL = 'live:stations';

export interface ScreenFailure {
  /** An API error code or one of the kitchen's own (error-codes.ts, `KitchenErrorCode`): translate by it. */
  code: string;
  message: string;
}

/** Every answer crosses the boundary as data, so the engine's refusal arrives with its words intact. */
export type ScreenResult<T> = { ok: true; value: T } | { ok: false; error: ScreenFailure };

/** The preload's methods: one per channel, named in the table for what they do. */
export const BRIDGE_METHODS = Object.fromEntries(entries.map(([channel, entry]) => [entry.method, channel])) as {
  readonly [C in ScreenChannel as Table[C]['method']]: C;
};

export type BridgeMethod = keyof typeof BRIDGE_METHODS;

/** What `window.comanda` offers the renderer. */
export type ComandaBridge = {
  [M in BridgeMethod]: (request: ScreenRequest<(typeof BRIDGE_METHODS)[M]>) => Promise<ScreenResult<ScreenResponse<(typeof BRIDGE_METHODS)[M]>>>;
} & {
  /** Calls `listener` with every live push; returns the unsubscribe. */
  onLive(listener: (push: LivePush) => void): () => void;
  /**
   * Tells the engine which stations this screen's board shows (null: every station, as expo): its
   * live feed then keeps only those stations' fallback printers quiet.
   */
  showStations(stations: readonly string[] | null): void;
};
