// Registers the IPC handlers on ipcMain: every request is checked for its sender (the app's own
// window and page) and its payload (dispatchScreenCall) before the handler runs.
import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { SCREEN_CHANNELS, LIVE_STATIONS_CHANNEL, type ScreenResult } from '../shared/screen-contract/contract.ts';
import { dispatchScreenCall, type ScreenHandlers } from '../engine/screen/dispatch.ts';
import { isTrustedSenderUrl } from './ipc-guard.ts';

export function registerIpcHandlers(
  handlers: ScreenHandlers,
  trusted: () => { contents: WebContents | null; rendererUrl: string },
  log: (error: unknown) => void,
): () => void {
  const isTrusted = (event: IpcMainInvokeEvent) => isTrustedEvent(event, trusted);
  for (const channel of SCREEN_CHANNELS) {
    ipcMain.handle(channel, (event, request: unknown): Promise<ScreenResult<unknown>> | ScreenResult<unknown> => {
      if (!isTrusted(event)) {
        log(new Error(`IPC ${channel} refused: untrusted sender ${event.senderFrame?.url ?? '(none)'}`));
        return { ok: false, error: { code: 'forbidden', message: 'this sender may not use the kitchen channels' } };
      }
      return dispatchScreenCall(handlers, channel, request, log);
    });
  }
  return () => {
    for (const channel of SCREEN_CHANNELS) ipcMain.removeHandler(channel);
  };
}

/** The app's own window and page, nothing else (a frame inside it, another page it was sent to). */
function isTrustedEvent(event: IpcMainInvokeEvent | IpcMainEvent, trusted: () => { contents: WebContents | null; rendererUrl: string }): boolean {
  const { contents, rendererUrl } = trusted();
  return contents !== null && event.sender === contents && isTrustedSenderUrl(event.senderFrame?.url, rendererUrl) && event.senderFrame?.parent === null;
}

/**
 * Listens for the stations the window's board shows (LIVE_STATIONS_CHANNEL), from the trusted
 * window only; `onStations` checks what was said (screen-stations.ts) and tells the live feed.
 */
export function registerLiveStations(
  onStations: (said: unknown) => void | Promise<void>,
  trusted: () => { contents: WebContents | null; rendererUrl: string },
  log: (error: unknown) => void,
): () => void {
  const listener = (event: IpcMainEvent, said: unknown) => {
    if (!isTrustedEvent(event, trusted)) {
      log(new Error(`${LIVE_STATIONS_CHANNEL} refused: untrusted sender ${event.senderFrame?.url ?? '(none)'}`));
      return;
    }
    try {
      // Async (the stations are checked against the database): a refusal is logged when it comes.
      onStations(said)?.catch(log);
    } catch (error) {
      log(error);
    }
  };
  ipcMain.on(LIVE_STATIONS_CHANNEL, listener);
  return () => {
    ipcMain.removeListener(LIVE_STATIONS_CHANNEL, listener);
  };
}
