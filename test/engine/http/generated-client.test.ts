// What an integrator gets from docs/openapi.json with openapi-typescript's DEFAULT options (no
// option at all), generated into a directory of its own: the reference's typed-client examples
// compile with openapi-fetch, and each deliberate mistake of docs/examples/typed-client-refusals.ts
// is a type error, on its own line and nowhere else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const MARK = '// @ts-expect-error';

/** Runs tsc on `files` in `dir` (strict, the project's module settings); its diagnostics, one per line. */
async function typeCheck(dir: string, name: string, files: string[]): Promise<{ ok: boolean; output: string }> {
  const config = join(dir, `${name}.tsconfig.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM'],
        strict: true,
        skipLibCheck: true,
        allowImportingTsExtensions: true,
        noEmit: true,
        types: [],
      },
      files,
    }),
  );
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [TSC, '-p', config, '--pretty', 'false'], { cwd: dir });
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}

test('openapi-typescript with its default options: the examples compile, each deliberate mistake fails on its own', async () => {
  // Inside the repository (test-artifacts is ignored by git), so `openapi-fetch` resolves from its node_modules.
  mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'test-artifacts', 'generated-client-'));
  try {
    const { default: openapiTS, astToString } = await import('openapi-typescript');
    const document = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'comanda-api.ts'), astToString(await openapiTS(document as never)));
    copyFileSync(join(ROOT, 'docs/examples/typed-client.ts'), join(dir, 'typed-client.ts'));
    copyFileSync(join(ROOT, 'docs/examples/typed-client-refusals.ts'), join(dir, 'typed-client-refusals.ts'));

    // With the marks: compiles only if every marked line is an error (an unused mark is itself one).
    const marked = await typeCheck(dir, 'marked', ['typed-client.ts', 'typed-client-refusals.ts']);
    assert.ok(marked.ok, marked.output);

    // Without them: an error on each marked line, and on no other line.
    const lines = readFileSync(join(dir, 'typed-client-refusals.ts'), 'utf8').split('\n');
    const expected = lines.flatMap((line, index) => (line.trim().startsWith(MARK) ? [index + 2] : []));
    assert.ok(expected.length >= 8, `the refusals file holds its mistakes (${expected.length})`);
    writeFileSync(join(dir, 'unmarked.ts'), lines.map((line) => (line.trim().startsWith(MARK) ? '//' : line)).join('\n'));
    const unmarked = await typeCheck(dir, 'unmarked', ['unmarked.ts']);
    assert.equal(unmarked.ok, false);
    const errorLines = [...new Set([...unmarked.output.matchAll(/^unmarked\.ts\((\d+),\d+\): error/gm)].map((m) => Number(m[1])))].sort((a, b) => a - b);
    assert.deepEqual(errorLines, expected, unmarked.output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
