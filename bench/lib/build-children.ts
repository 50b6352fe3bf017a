import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles every bench/children/*.ts (engine code included) into `outDir` with esbuild, packages
 * left external: the processes under test then run on plain Node as the app runs the engine,
 * without a TypeScript loader's start-up time and memory. `outDir` must be inside the project so
 * the packages resolve from its node_modules.
 */
export async function buildChildren(outDir: string): Promise<void> {
  const dir = fileURLToPath(new URL('../children/', import.meta.url));
  await build({
    entryPoints: readdirSync(dir)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => join(dir, file)),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}
