// electron-vite: main (ESM, dependencies left to node_modules), the preload (one CommonJS file, as a
// sandboxed preload must be) and the renderer (React). `npm start` runs `electron-vite dev`.
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import { rendererViteConfig } from './renderer.vite.ts';

export default defineConfig({
  main: {
    build: {
      rolldownOptions: { input: { index: resolve(import.meta.dirname, 'src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  // The page's build is shared with `npm run serve` and the end-to-end tests: renderer.vite.ts.
  renderer: rendererViteConfig(),
});
