// `npm run serve -- --smtp URL`: the headless server, on the real clock, mailing through a real SMTP server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { R1 } from '../../support/demo-ids.ts';
import { eventually } from '../../support/eventually.ts';
import { SMTP_USER, startSmtpTestServer } from './smtp-test-server.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const NODE = join(REPO, 'node_modules/.bin/node');

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-serve-smtp-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs serve as a child until it exits, without blocking the event loop (the test's own timeout stays armed). */
function serveUntilExit(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, ['--import', 'tsx', 'src/cli/serve.ts', ...args], { cwd: REPO });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

// Three serve children, each starting Node and tsx (7 s in all quiet on 2 cores, ten times that at load 30).
test('a bad --smtp is refused at start with the reason', { timeout: 180_000 }, async (t) => {
  const dir = tempDir(t);
  for (const [args, message] of [
    [['--smtp', 'http://mail.example.com'], /--smtp: SMTP URL must start with smtp:\/\/ or smtps:\/\//],
    [['--smtp', 'smtp://mail.example.com', '--smtp-from', 'nadie'], /--smtp: the sender address "nadie" is not an email address/],
    [['--smtp-from', 'a@b.cl'], /--smtp-from needs --smtp/],
  ] as const) {
    const result = await serveUntilExit(['--port', '0', '--db', join(dir, 'x.db'), ...args]);
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, message);
    assert.match(result.stderr, /usage: npm run serve/);
    assert.equal(result.stdout, '');
  }
});

// A serve --demo child (Node, tsx, the demo seeded) on the real clock: 5 s quiet, ten times that at load 30.
test('serve --demo --smtp: a ready order mails its customer', { timeout: 180_000 }, async (t) => {
  const dir = tempDir(t);
  const smtp = await startSmtpTestServer();
  t.after(() => smtp.close());
  const child = spawn(
    NODE,
    ['--import', 'tsx', 'src/cli/serve.ts', '--port', '0', '--db', join(dir, 'engine.db'), '--demo', '--smtp', smtp.url, '--smtp-from', 'pedidos@picada.example'],
    { cwd: REPO, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before printing its line`)));
  });
  const { base_url: baseUrl, restaurants } = JSON.parse(line) as { base_url: string; restaurants: { keys: { live_write: string } }[] };
  const key = restaurants[0]!.keys.live_write;
  const call = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { id: string; number: string } };
  };
  const created = await call('POST', '/orders', {
    location_id: R1.openLocation,
    type: 'retiro',
    customer: { name: 'Ana', email: 'ana@example.com' },
    items: [{ product_id: R1.products.cazuela, quantity: 1 }],
  });
  assert.equal(created.status, 201);
  assert.equal((await call('PATCH', `/orders/${created.body.id}`, { status: 'en_preparacion' })).status, 200);
  assert.equal((await call('PATCH', `/orders/${created.body.id}`, { status: 'listo' })).status, 200);
  // The child's jobs runner sends it on the real clock: waited for, not bounded by a tighter deadline.
  await eventually(() => smtp.received.length, 'the ready mail at the SMTP server', { until: (n) => n >= 1 });
  const mail = await smtp.next();
  assert.deepEqual(mail.to, ['ana@example.com']);
  assert.equal(mail.user, SMTP_USER);
  assert.equal(mail.subject, `Tu pedido N° ${created.body.number} está listo`);

  child.kill('SIGTERM');
  assert.equal(await exited, 0, 'a clean shutdown');
});
