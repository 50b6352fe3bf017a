// The kitchen screen's Vite build, in one place: electron-vite's renderer section (the desktop app,
// `npm run build`, `npm start`), the CLI's one-time build for `npm run serve` (src/cli/kitchen-build.ts)
// and the end-to-end tests' build (test/renderer/support/build-renderer.ts) all take it from here, so
// the page a tablet, the window and a test load is built the same way.
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import type { Plugin, UserConfig } from 'vite';
import { CONTENT_SECURITY_POLICY, DEV_SERVER_CONTENT_SECURITY_POLICY } from './src/shared/content-security-policy.ts';

const ROOT = import.meta.dirname;
export const RENDERER_ROOT = resolve(ROOT, 'src/renderer');

/** What the built page is made of (relative to the repository): a build older than any of these is stale. */
export const RENDERER_INPUTS = ['src/renderer', 'src/shared', 'src/preload', 'resources/sounds', 'renderer.vite.ts'] as const;

/** Under the dev server the page gets the relaxed policy; the built page keeps the strict one. */
function devServerContentSecurityPolicy(): Plugin {
  return {
    name: 'comanda:dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(CONTENT_SECURITY_POLICY, DEV_SERVER_CONTENT_SECURITY_POLICY),
  };
}

/**
 * The app's script (src/main.tsx, imported by the page's tiny first script, src/start.ts) is fetched
 * with the page, not once the first script has run: a `modulepreload` link for its chunk in the page's
 * head. The first script asks for the board's snapshot; where one process serves the files and
 * answers (a tablet's engine, the tests' harness), the app's script is then already on its way
 * instead of waiting behind the snapshot's read.
 */
function preloadAppScript(): Plugin {
  return {
    name: 'comanda:preload-app-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, context) => {
        const app = Object.values(context.bundle ?? {}).find((output) => output.type === 'chunk' && output.facadeModuleId === resolve(RENDERER_ROOT, 'src/main.tsx'));
        if (!app) throw new Error('renderer build: no chunk for src/main.tsx to preload');
        return [{ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${app.fileName}` }, injectTo: 'head' }];
      },
    },
  };
}

export interface RendererBuildOptions {
  /** Where the page goes; absent: electron-vite's out/renderer. */
  outDir?: string;
  /** Source maps beside the minified files (the tests keep them to read a stack). */
  sourcemap?: boolean;
  logLevel?: UserConfig['logLevel'];
}

/** The renderer's Vite config: React, relative asset paths (the page is opened from a file and from /kitchen/), minified. */
export function rendererViteConfig(options: RendererBuildOptions = {}): UserConfig {
  return {
    root: RENDERER_ROOT,
    base: './',
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    plugins: [react(), devServerContentSecurityPolicy(), preloadAppScript()],
    build: {
      rolldownOptions: { input: { index: resolve(RENDERER_ROOT, 'index.html') } },
      ...(options.outDir ? { outDir: options.outDir, emptyOutDir: true } : {}),
      // Minified everywhere: the page the tests and bench row 5 time is the one the window and tablets load.
      minify: true,
      sourcemap: options.sourcemap ?? false,
      reportCompressedSize: false,
      // One page for a kitchen screen, loaded once from this machine: no chunk is too big to warn about.
      chunkSizeWarningLimit: 10_000,
    },
  };
}
