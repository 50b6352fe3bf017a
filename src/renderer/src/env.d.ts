import type { ComandaBridge } from '../../shared/screen-contract/contract.ts';

declare global {
  interface Window {
    /** The preload's bridge (src/preload): the renderer's only way to the engine. */
    comanda: ComandaBridge;
  }
}
