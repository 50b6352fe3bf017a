// The bridge the kitchen screen gets as `window.comanda`: one method per channel of the IPC
// contract, built from the shared map so the two cannot drift. No Electron import here: the
// preload (index.ts) passes ipcRenderer in, and the renderer tests pass a browser-side transport.
import { BRIDGE_METHOD_CHANNELS } from '../shared/screen-contract/bridge-methods.ts';
import type { BridgeMethod, ComandaBridge, ScreenChannel, ScreenResult } from '../shared/screen-contract/contract.ts';
import type { LivePush } from '../shared/screen-contract/kitchen.ts';

export interface BridgeTransport {
  invoke(channel: ScreenChannel, request: unknown): Promise<ScreenResult<unknown>>;
  subscribe(listener: (push: LivePush) => void): () => void;
  /** Carries the stations the board shows to the live feed (a transport without it: the engine counts every station). */
  showStations?(stations: string[] | null): void;
}

export function createBridge(transport: BridgeTransport): ComandaBridge {
  const methods: Record<string, unknown> = {};
  for (const [method, channel] of Object.entries(BRIDGE_METHOD_CHANNELS) as [BridgeMethod, ScreenChannel][]) {
    methods[method] = (request: unknown) => transport.invoke(channel, request ?? {});
  }
  methods.onLive = (listener: (push: LivePush) => void) => {
    if (typeof listener !== 'function') throw new TypeError('onLive needs a function');
    return transport.subscribe(listener);
  };
  methods.showStations = (stations: readonly string[] | null) => {
    if (stations !== null && (!Array.isArray(stations) || stations.some((s) => typeof s !== 'string'))) throw new TypeError('showStations needs station ids or null');
    transport.showStations?.(stations === null ? null : [...stations]);
  };
  return Object.freeze(methods) as ComandaBridge;
}
