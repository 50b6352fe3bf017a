// Registers the IPC handlers on ipcMain: every request is checked for its sender (the app's own
// window and page) and its payload (dispatchIpc) before the handler runs.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { IPC_CHANNELS, type IpcResult } from '../shared/ipc/contract.ts';
import { dispatchIpc, type IpcHandlers } from '../engine/screen/dispatch.ts';
import { isTrustedSenderUrl } from './ipc-guard.ts';

export function registerIpcHandlers(
  handlers: IpcHandlers,
  trusted: () => { contents: WebContents | null; rendererUrl: string },
  log: (error: unknown) => void,
): () => void {
  const isTrusted = (event: IpcMainInvokeEvent): boolean => {
    const { contents, rendererUrl } = trusted();
    return contents !== null && event.sender === contents && isTrustedSenderUrl(event.senderFrame?.url, rendererUrl) && event.senderFrame?.parent === null;
  };
  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(channel, (event, request: unknown): Promise<IpcResult<unknown>> | IpcResult<unknown> => {
      if (!isTrusted(event)) {
        log(new Error(`IPC ${channel} refused: untrusted sender ${event.senderFrame?.url ?? '(none)'}`));
        return { ok: false, error: { code: 'forbidden', message: 'this sender may not use the kitchen channels' } };
      }
      return dispatchIpc(handlers, channel, request, log);
    });
  }
  return () => {
    for (const channel of IPC_CHANNELS) ipcMain.removeHandler(channel);
  };
}
