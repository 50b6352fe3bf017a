// The desktop window's door into the engine: every channel of the contract, the kitchen's
// (src/engine/screen/kitchen-handlers.ts, also served to paired tablets over HTTP) and the desktop's own
// (desktop-handlers.ts, never served over HTTP). Main registers these with ipcMain; tests call them
// directly, without Electron.
import type { EngineCommands } from '../engine/services/engine-commands.ts';
import { createDesktopHandlers, type DesktopHandlerDeps } from './desktop-handlers.ts';
import type { IpcHandlers } from '../engine/screen/dispatch.ts';
import { createKitchenHandlers } from '../engine/screen/kitchen-handlers.ts';


export interface IpcHandlerDeps extends DesktopHandlerDeps {
  /** How writes are applied: `localCommands(engine, couriers)` standalone; a replica passes its own. */
  commands: EngineCommands;
  /** Where unexpected errors are reported (never to the screen). */
  log?: (error: unknown) => void;
}

export function createIpcHandlers(deps: IpcHandlerDeps): IpcHandlers {
  return {
    ...createKitchenHandlers({ engine: deps.engine, commands: deps.commands, restaurantId: deps.restaurantId }),
    ...createDesktopHandlers(deps),
  };
}
