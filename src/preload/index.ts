// The preload: runs sandboxed, exposes the typed bridge and nothing else (no ipcRenderer, no Node).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { LIVE_CHANNEL, LIVE_STATIONS_CHANNEL, type ScreenResult } from '../shared/screen-contract/contract.ts';
import type { LivePush } from '../shared/screen-contract/kitchen.ts';
import { createBridge } from './bridge.ts';

const bridge = createBridge({
  invoke: (channel, request) => ipcRenderer.invoke(channel, request) as Promise<ScreenResult<unknown>>,
  subscribe(listener) {
    const forward = (_event: IpcRendererEvent, push: LivePush) => listener(push);
    ipcRenderer.on(LIVE_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(LIVE_CHANNEL, forward);
    };
  },
  showStations(stations) {
    ipcRenderer.send(LIVE_STATIONS_CHANNEL, stations);
  },
});

contextBridge.exposeInMainWorld('comanda', bridge);
