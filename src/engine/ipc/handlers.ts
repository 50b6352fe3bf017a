// The desktop window's door into the engine: every channel of the contract, the kitchen's
// (kitchen-handlers.ts, also served to paired tablets over HTTP) and the desktop's own
// (desktop-handlers.ts, never served over HTTP). Main registers these with ipcMain; tests call them
// directly, without Electron.
import type { IpcChannel, IpcContract, IpcRequest, IpcResponse, IpcResult } from '../../shared/ipc/contract.ts';
import { isIpcChannel } from '../../shared/ipc/contract.ts';
import type { EngineCommands } from '../services/engine-commands.ts';
import { createDesktopHandlers, type DesktopHandlerDeps } from './desktop-handlers.ts';
import { dispatchChannel } from './dispatch.ts';
import { notFound } from '../domain/errors.ts';
import { toFailure } from './ipc-errors.ts';
import { createKitchenHandlers } from './kitchen-handlers.ts';

export { KITCHEN_KEY_ID, kitchenActor } from './kitchen-handlers.ts';
export { applySettingsPatch, needsRestart } from './desktop-handlers.ts';

export interface IpcHandlerDeps extends DesktopHandlerDeps {
  /** How writes are applied: `localCommands(engine)` standalone; a replica passes its own. */
  commands: EngineCommands;
  /** Where unexpected errors are reported (never to the screen). */
  log?: (error: unknown) => void;
}

export type IpcHandlers = {
  [C in IpcChannel]: (request: IpcRequest<C>) => IpcResponse<C> | Promise<IpcResponse<C>>;
};

export function createIpcHandlers(deps: IpcHandlerDeps): IpcHandlers {
  return {
    ...createKitchenHandlers({ engine: deps.engine, commands: deps.commands, restaurantId: deps.restaurantId }),
    ...createDesktopHandlers(deps),
  };
}

/**
 * Runs one request through its handler: the channel and the payload are checked first, and every
 * outcome comes back as data, the engine's refusals with their code and message intact.
 */
export async function dispatchIpc(
  handlers: IpcHandlers,
  channel: unknown,
  request: unknown,
  log?: (error: unknown) => void,
): Promise<IpcResult<unknown>> {
  if (!isIpcChannel(channel)) return { ok: false, error: toFailure(notFound(`no such channel: ${String(channel).slice(0, 60)}`)) };
  return dispatchChannel(handlers, channel, request, log);
}

/** A typed call for code in the same process (tests, the headless harness). */
export async function callIpc<C extends IpcChannel>(
  handlers: IpcHandlers,
  channel: C,
  request: IpcRequest<C>,
): Promise<IpcResult<IpcContract[C]['response']>> {
  return (await dispatchIpc(handlers, channel, request)) as IpcResult<IpcResponse<C>>;
}
