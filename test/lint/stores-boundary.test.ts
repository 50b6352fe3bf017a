// The boundary "doors reach data only through services" is kept by a lint rule (eslint.config.js):
// a door that reads `engine.stores` fails `npm run lint`; services and the store itself may.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = resolve(import.meta.dirname, '../..');
// The files linted here do not exist on disk, so no type information: the typed rules are left out.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, project: null } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

const DOOR_CODE = `import type { Engine } from '../engine/engine.ts';
export function count(engine: Engine): number {
  return engine.stores.restaurants.list().length;
}
export function destructured(engine: Engine): number {
  const { stores } = engine;
  return stores.restaurants.list().length;
}
`;

async function storeMessages(file: string, code = DOOR_CODE): Promise<{ line: number; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => ({ line: m.line, message: m.message }));
}

test('engine.stores in a door fails the lint, read directly or destructured', async () => {
  for (const door of ['src/sync/new-door.ts', 'src/engine/http/routes/new-route.ts', 'src/engine/screen/new-handler.ts', 'src/engine/jobs/new-job.ts', 'src/main/new-handler.ts', 'src/cli/new-command.ts', 'src/engine/demo/new-seed.ts', 'src/engine/restaurant-config/new-rule.ts', 'src/engine/providers.ts']) {
    const messages = await storeMessages(door);
    assert.deepEqual(
      messages.map((m) => m.line),
      [3, 6],
      `${door}: ${JSON.stringify(messages)}`,
    );
    assert.match(messages[0]!.message, /through services/);
  }
});

test('services, the store and the engine itself may use the stores', async () => {
  for (const allowed of ['src/engine/services/new-use-case.ts', 'src/engine/store/new-store.ts', 'src/engine/engine.ts']) {
    assert.deepEqual(await storeMessages(allowed), [], allowed);
  }
});

test('the doors as they are hold no engine.stores', async () => {
  const results = await eslint.lintFiles(['src/sync', 'src/engine/http', 'src/engine/screen', 'src/engine/jobs', 'src/main', 'src/cli', 'src/engine/demo', 'src/engine/restaurant-config', 'src/engine/providers.ts', 'src/host']);
  const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => `${r.filePath}:${m.line}`));
  assert.deepEqual(found, []);
});
