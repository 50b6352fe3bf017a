// The engine's Node flags (src/engine/engine-node-flags.ts) are the ones `npm run serve` runs with:
// the bench measures the engine with them, so a serve without them would not be what was measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINE_NODE_FLAGS } from '../../src/engine/engine-node-flags.ts';

test('npm run serve passes every engine Node flag before the script', () => {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const serve = manifest.scripts.serve!.split(/\s+/);
  const script = serve.indexOf('src/cli/serve.ts');
  assert.ok(script > 0, manifest.scripts.serve);
  for (const flag of ENGINE_NODE_FLAGS) assert.ok(serve.slice(0, script).includes(flag), `${flag} missing from "${manifest.scripts.serve}"`);
});

test('npm run serve is one Node process (node --import tsx), not the tsx CLI, which runs the engine in a child process a signal to npm does not reach', () => {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const serve = manifest.scripts.serve!.split(/\s+/);
  assert.equal(serve[0], 'node', manifest.scripts.serve);
  const script = serve.indexOf('src/cli/serve.ts');
  const loader = serve.indexOf('--import');
  assert.ok(loader > 0 && serve[loader + 1] === 'tsx' && loader < script, manifest.scripts.serve);
});
