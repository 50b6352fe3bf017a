// electron-vite: main (ESM, dependencies left to node_modules), the preload (one CommonJS file, as a
// sandboxed preload must be) and the renderer (React). `npm start` runs `electron-vite dev`.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { CONTENT_SECURITY_POLICY, DEV_SERVER_CONTENT_SECURITY_POLICY } from './src/main/content-security-policy.ts';

/** Under the dev server the page gets the relaxed policy; the built page keeps the strict one. */
function devServerContentSecurityPolicy(): Plugin {
  return {
    name: 'comanda:dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(CONTENT_SECURITY_POLICY, DEV_SERVER_CONTENT_SECURITY_POLICY),
  };
}

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
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    plugins: [react(), devServerContentSecurityPolicy()],
    build: {
      rolldownOptions: { input: { index: resolve(import.meta.dirname, 'src/renderer/index.html') } },
    },
  },
});
