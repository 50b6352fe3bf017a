// `npm run payments`: credentials from the environment or stdin (never a flag), never printed;
// `show` answers JSON without secrets; `test` asks the provider (a local Mercado Pago stand-in);
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.ts';
import { seedDemo } from '../../src/engine/demo/seed-demo.ts';
import { sandboxSimulator } from '../../src/engine/payments/sandbox-simulator.ts';
import { R1 } from '../support/demo-ids.ts';
import { MercadoPagoStandIn } from '../support/mercadopago-stand-in.ts';

const REPO = join(import.meta.dirname, '..', '..');
const NODE = join(REPO, 'node_modules/.bin/node');
const TOKEN = 'APP_USR-1111222233334444-112120-feedfacefeedfacefeedfacefeedface-424242';
const SECRET = 'whsec-cli-0a1b2c3d4e5f60718293a4b5c6d7e8f9';

function payments(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...options.env };
  if (!options.env?.MERCADOPAGO_ACCESS_TOKEN) delete env.MERCADOPAGO_ACCESS_TOKEN;
  if (!options.env?.MERCADOPAGO_WEBHOOK_SECRET) delete env.MERCADOPAGO_WEBHOOK_SECRET;
  const child = spawn(NODE, ['--import', 'tsx', 'src/cli/payments.ts', ...args], { cwd: REPO, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.stdin ?? '');
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
}

test('npm run payments: set from env or stdin, show without secrets, test against the provider, remove', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-payments-cli-'));
  const mp = await MercadoPagoStandIn.start(TOKEN);
  t.after(async () => {
    await mp.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const db = join(dir, 'engine.db');
  const engine = new Engine({ database: db });
  await seedDemo(engine, { live: null, test: sandboxSimulator });
  engine.close();

  const flag = await payments(['set', '--restaurant', R1.id, '--provider', 'mercadopago', '--db', db, '--access-token', TOKEN]);
  assert.equal(flag.status, 2, 'a token is never taken from a flag');
  assert.doesNotMatch(flag.stdout + flag.stderr, new RegExp(TOKEN.slice(10)));

  const fromStdin = await payments(['set', '--restaurant', R1.id, '--provider', 'mercadopago', '--db', db, '--api-base', mp.baseUrl], {
    stdin: `${TOKEN}\n${SECRET}\n`,
  });
  assert.equal(fromStdin.status, 0, fromStdin.stderr);
  const shown = JSON.parse(fromStdin.stdout);
  assert.deepEqual(
    { ...shown, created_at: 'x', updated_at: 'x' },
    { restaurant_id: R1.id, provider: 'mercadopago', world: 'live', api_base: mp.baseUrl, access_token_set: true, webhook_secret_set: true, created_at: 'x', updated_at: 'x' },
  );

  const fromEnv = await payments(['set', '--restaurant', R1.id, '--provider', 'mercadopago', '--db', db, '--api-base', mp.baseUrl], {
    env: { MERCADOPAGO_ACCESS_TOKEN: TOKEN, MERCADOPAGO_WEBHOOK_SECRET: SECRET },
  });
  assert.equal(fromEnv.status, 0, fromEnv.stderr);

  const show = await payments(['show', '--restaurant', R1.id, '--db', db]);
  assert.equal(show.status, 0, show.stderr);
  assert.equal(JSON.parse(show.stdout).access_token_set, true);
  const checked = await payments(['test', '--restaurant', R1.id, '--db', db]);
  assert.equal(checked.status, 0, checked.stderr);
  assert.deepEqual(JSON.parse(checked.stdout), { ok: true, api_base: mp.baseUrl, user_id: '424242' });
  assert.ok(mp.requests.includes('GET /users/me'));
  for (const run of [fromStdin, fromEnv, show, checked]) {
    assert.doesNotMatch(run.stdout + run.stderr, new RegExp(TOKEN));
    assert.doesNotMatch(run.stdout + run.stderr, new RegExp(SECRET));
  }

  const wrong = await payments(['set', '--restaurant', R1.id, '--provider', 'mercadopago', '--db', db, '--api-base', mp.baseUrl], {
    stdin: `APP_USR-not-the-token-of-this-account\n${SECRET}\n`,
  });
  assert.equal(wrong.status, 0);
  const refused = await payments(['test', '--restaurant', R1.id, '--db', db]);
  assert.equal(refused.status, 1);
  assert.equal(JSON.parse(refused.stdout).ok, false);
  assert.match(JSON.parse(refused.stdout).error, /Mercado Pago answered 401/);

  const removed = await payments(['remove', '--restaurant', R1.id, '--db', db]);
  assert.equal(removed.status, 0, removed.stderr);
  assert.equal(JSON.parse(removed.stdout).removed, true);
  const none = await payments(['show', '--restaurant', R1.id, '--db', db]);
  assert.equal(JSON.parse(none.stdout).configured, false);
});
