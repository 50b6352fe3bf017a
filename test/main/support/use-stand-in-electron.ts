// `node --import tsx --import ./use-stand-in-electron.ts out/main/index.js`: every import of
// `electron` (main's own and electron-store's) gets stand-in-electron.ts instead.
import { registerHooks } from 'node:module';

const standIn = new URL('./stand-in-electron.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: standIn, format: 'module', shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
