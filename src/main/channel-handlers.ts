// The desktop window's door into the engine: every channel of the contract, the kitchen's
// (src/engine/screen/kitchen-handlers.ts, also served to paired tablets over HTTP) and the desktop's own
// (desktop-handlers.ts, never served over HTTP). Main registers these with ipcMain; tests call them
// directly, without Electron.
import type { EngineCommands } from '../engine/services/engine-commands.ts';
import { createDesktopHandlers, type DesktopHandlerDeps } from './desktop-handlers.ts';
import type { ScreenHandlers } from '../engine/screen/dispatch.ts';
import { createKitchenHandlers } from '../engine/screen/kitchen-handlers.ts';


export interface ScreenHandlerDeps extends DesktopHandlerDeps {
  /** How writes are applied: `localCommands(engine, couriers)` standalone; a replica passes its own. */
  commands: EngineCommands;
  /** Where unexpected errors are reported (never to the screen). */
  log?: (error: unknown) => void;
}

export function createScreenHandlers(deps: ScreenHandlerDeps): ScreenHandlers {
  return {
    ...createKitchenHandlers({ engine: deps.engine, commands: deps.commands, restaurantId: deps.restaurantId }),
    ...createDesktopHandlers(deps),
  };
}
