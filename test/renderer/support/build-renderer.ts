// Builds the kitchen screen once per content (cached in .tmp/) and the preload's bridge as a
// browser script, so the end-to-end tests load what `electron-vite build` would ship.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { eventually } from '../../support/eventually.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const INPUTS = ['src/renderer', 'src/shared', 'src/preload', 'resources/sounds'];

const BUILD_OPTIONS = 'page:minified+sourcemap';

function hashInputs(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(path.slice(ROOT.length)).update(readFileSync(path));
    }
  };
  for (const input of INPUTS) walk(join(ROOT, input));
  // How the page is built is part of what it is: a change of options must not reuse an old build.
  hash.update(BUILD_OPTIONS);
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
    await build({
      configFile: false,
      root: join(ROOT, 'src/renderer'),
      base: './',
      logLevel: 'warn',
      plugins: [react()],
      // Minified like the app's own build (electron-vite): the page Chromium parses is the one that
      // ships, which bench row 5 times from navigation.
      build: { outDir: join(work, 'page'), emptyOutDir: true, minify: true, sourcemap: true, reportCompressedSize: false },
    });
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
