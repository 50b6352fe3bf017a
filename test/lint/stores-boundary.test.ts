// The boundary "doors reach data only through services" is kept by a lint rule (eslint.config.js):
// a door that reads `engine.stores` fails `npm run lint`; the store and the engine itself may. Issue
// 34: services take their stores from the transaction (`tx.stores`), never `engine.stores`.
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

test('the store and the engine itself may use the stores', async () => {
  for (const allowed of ['src/engine/store/new-store.ts', 'src/engine/engine.ts']) {
    assert.deepEqual(await storeMessages(allowed), [], allowed);
  }
});

test('a service takes its stores from tx, never from engine (read directly, from a field, or destructured)', async () => {
  const service = `import type { Engine, ReadTransaction } from '../engine.ts';
export async function count(engine: Engine): Promise<number> {
  return (await engine.stores.restaurants.list()).length;
}
export async function destructured(engine: Engine): Promise<number> {
  const { stores } = engine;
  return (await stores.restaurants.list()).length;
}
export class Holder {
  constructor(private readonly engine: Engine) {}
  async count(): Promise<number> {
    return (await this.engine.stores.restaurants.list()).length;
  }
}
export async function fromTx(engine: Engine, tx: ReadTransaction): Promise<number> {
  return (await tx.stores.restaurants.list()).length + engine.clock.now();
}
`;
  const messages = await storeMessages('src/engine/services/new-use-case.ts', service);
  assert.deepEqual(messages.map((m) => m.line), [3, 6, 12]);
  for (const m of messages) assert.match(m.message, /tx\.stores/);
});

test('the services as they are hold no engine.stores', async () => {
  const results = await eslint.lintFiles(['src/engine/services']);
  const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => `${r.filePath}:${m.line}`));
  assert.deepEqual(found, []);
});

test('the doors as they are hold no engine.stores', async () => {
  const results = await eslint.lintFiles(['src/sync', 'src/engine/http', 'src/engine/screen', 'src/engine/jobs', 'src/main', 'src/cli', 'src/engine/demo', 'src/engine/restaurant-config', 'src/engine/providers.ts', 'src/host']);
  const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => `${r.filePath}:${m.line}`));
  assert.deepEqual(found, []);
});
