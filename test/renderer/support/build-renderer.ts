// Builds the kitchen screen once per content (cached in .tmp/) and the preload's bridge as a
// browser script, so the end-to-end tests load what `electron-vite build` would ship.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { eventually } from '../../support/eventually.ts';
import { RENDERER_INPUTS, rendererViteConfig } from '../../../renderer.vite.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
/** The app's build with source maps, to read a stack. */
const PAGE_OPTIONS = { sourcemap: true, logLevel: 'warn' } as const;

function hashInputs(): string {
  const hash = createHash('sha256');
  const walk = (path: string) => {
    if (!statSync(path).isDirectory()) hash.update(path.slice(ROOT.length)).update(readFileSync(path));
    else for (const name of readdirSync(path).sort()) walk(join(path, name));
  };
  // How the page is built (renderer.vite.ts, one of the inputs) is part of what it is.
  for (const input of RENDERER_INPUTS) walk(join(ROOT, input));
  hash.update(JSON.stringify(PAGE_OPTIONS));
  return hash.digest('hex').slice(0, 16);
}

export interface RendererBuild {
  /** The built page (index.html and assets/). */
  dir: string;
  /** src/preload/bridge.ts as a browser script defining `ComandaBridge.createBridge`. */
  bridgeScript: string;
}

export async function buildRenderer(): Promise<RendererBuild> {
  const target = join(ROOT, '.tmp', `renderer-${hashInputs()}`);
  if (!existsSync(join(target, 'done'))) {
    const work = `${target}.${process.pid}.${Date.now()}`;
    // The app's own build (renderer.vite.ts): the page Chromium parses is the one that ships, which
    // bench row 5 times from navigation.
    await build({ configFile: false, ...rendererViteConfig({ outDir: join(work, 'page'), ...PAGE_OPTIONS }) });
    await build({
      configFile: false,
      logLevel: 'warn',
      build: {
        outDir: join(work, 'bridge'),
        emptyOutDir: true,
        minify: false,
        lib: { entry: join(ROOT, 'src/preload/bridge.ts'), formats: ['iife'], name: 'ComandaBridge', fileName: () => 'bridge.js' },
      },
    });
    // Another test file may have built the same content meanwhile: the first one wins.
    try {
      renameSync(work, target);
      mkdirSync(join(target, 'done'));
    } catch {
      rmSync(work, { recursive: true, force: true });
      await eventually(() => existsSync(join(target, 'done')), 'the other build to finish', { timeoutMs: 60_000 });
    }
  }
  return { dir: join(target, 'page'), bridgeScript: readFileSync(join(target, 'bridge', 'bridge.js'), 'utf8') };
}
