// `npm run serve` serves the kitchen screen from out/renderer (what `npm run build` leaves). On a
// fresh clone it is not there yet: build the renderer once (the same Vite build, renderer.vite.ts),
// so the printed pairing URL opens a working board instead of a page saying "build me first".
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * True when `dir` holds the built page (built now if it was missing, or with `rebuild` built again
 * over an older one); false when it could not be built.
 */
export async function ensureKitchenBuilt(
  dir: string,
  log: { info(message: string): void; warn(message: string): void },
  options: { rebuild?: boolean } = {},
): Promise<boolean> {
  const rebuild = options.rebuild === true;
  if (!rebuild && existsSync(join(dir, 'index.html'))) return true;
  const work = `${dir}.building-${process.pid}`;
  try {
    log.info(`building the ${rebuild ? 'app\'s page (its sources changed since the last build)' : 'kitchen screen once'} into ${dir} (npm run build does the same)…`);
    // Build tools are development dependencies: a checkout has them, a packaged app never runs this.
    // The same build as `npm run build`'s renderer (renderer.vite.ts), into `work`.
    const [{ build }, { rendererViteConfig }] = await Promise.all([import('vite'), import('../../renderer.vite.ts')]);
    await build({ configFile: false, ...rendererViteConfig({ outDir: work, logLevel: 'error' }) });
    // Another process may have built it meanwhile: the first complete one stays.
    if (!rebuild && existsSync(join(dir, 'index.html'))) rmSync(work, { recursive: true, force: true });
    else {
      rmSync(dir, { recursive: true, force: true });
      renameSync(work, dir);
    }
    return true;
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    log.warn(`the kitchen screen could not be built (${(error as Error).message}): run \`npm run build\`, then restart`);
    return false;
  }
}
