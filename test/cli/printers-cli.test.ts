// `npm run printers`: add, list, test and remove a restaurant's kitchen printers on a file, JSON out,
// and a clear error (exit 2 for a usage mistake, 1 for a refusal) for bad input. Each CLI run is a
// child process starting Node and tsx: on a loaded machine (stress-ng --cpu 2 beside it) one takes
// seconds, so each bad input is a test of its own and the walk through add…remove says how long it
// may need (issue 29: two 60 s timeouts under load, a flake).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.ts';
import { seedDemo } from '../../src/engine/demo/seed-demo.ts';
import { sandboxSimulator } from '../../src/engine/payments/sandbox-simulator.ts';
import { R1 } from '../support/demo-ids.ts';
import { StandInPrinter } from '../support/stand-in-printer.ts';

const REPO = join(import.meta.dirname, '..', '..');
const NODE = join(REPO, 'node_modules/.bin/node');

/** Runs the CLI as a child process (async: the stand-in printer in this process must keep answering). */
function printers(args: string[], db: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, ['--import', 'tsx', 'src/cli/printers.ts', ...args, '--db', db], { cwd: REPO });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('npm run printers', () => {
  let dir: string;
  let db: string;
  const printer = new StandInPrinter();
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-printers-cli-'));
    db = join(dir, 'engine.db');
    const engine = new Engine({ database: db });
    await seedDemo(engine, { live: null, test: sandboxSimulator });
    engine.close();
    await printer.start();
  });
  after(async () => {
    await printer.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('add, list, test and remove, JSON out', { timeout: 240_000 }, async () => {
    const added = await printers(
      ['add', '--restaurant', R1.id, '--name', 'Plancha', '--host', '127.0.0.1', '--port', String(printer.port), '--width', '58', '--stations', 'plancha,horno', '--when', 'arrival,bag'],
      db,
    );
    assert.equal(added.status, 0, added.stderr);
    const entry = JSON.parse(added.stdout) as { id: string; name: string; width_mm: number; stations: string[]; when: string[]; state: string; code_page: string };
    assert.deepEqual(
      { name: entry.name, width_mm: entry.width_mm, stations: entry.stations, when: entry.when, state: entry.state, code_page: entry.code_page },
      { name: 'Plancha', width_mm: 58, stations: ['plancha', 'horno'], when: ['arrival', 'bag'], state: 'unknown', code_page: 'cp858' },
    );

    const tested = await printers(['test', '--restaurant', R1.id, '--name', 'Plancha'], db);
    assert.equal(tested.status, 0, tested.stderr);
    assert.equal(JSON.parse(tested.stdout).printed, true);
    assert.equal(JSON.parse(tested.stdout).printer.state, 'ok');
    // What came back, exactly: the printer's two paper status answers (paper present).
    assert.deepEqual([JSON.parse(tested.stdout).reply, JSON.parse(tested.stdout).reply_bytes], ['12 12', 2]);
    const [page] = await printer.waitForTickets(1);
    assert.ok(page!.text.some((l) => l.includes('ñ á é í ó ú ü ¿ ¡ Ñ Á É Í Ó Ú Ü')), page!.text.join('\n'));
    assert.ok(page!.text.some((l) => l.includes('32 columnas')));

    const listed = await printers(['list', '--restaurant', R1.id], db);
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual((JSON.parse(listed.stdout) as { name: string; state: string }[]).map((p) => [p.name, p.state]), [['Plancha', 'ok']]);

    await printer.switchOff();
    const down = await printers(['test', '--restaurant', R1.id, '--name', entry.id], db);
    assert.equal(down.status, 1);
    assert.equal(JSON.parse(down.stdout).printer.state, 'unreachable');
    assert.match(JSON.parse(down.stdout).error, /ECONNREFUSED/);
    await printer.switchOn();

    const removed = await printers(['remove', '--restaurant', R1.id, '--name', 'Plancha'], db);
    assert.equal(removed.status, 0, removed.stderr);
    assert.equal(JSON.parse(removed.stdout).name, 'Plancha');
    assert.deepEqual(JSON.parse((await printers(['list', '--restaurant', R1.id], db)).stdout), []);
  });

  const base = ['add', '--restaurant', R1.id, '--name', 'Barra', '--host', '192.168.1.50', '--width', '80', '--when', 'arrival'];
  const badInput: [string[], number, RegExp][] = [
    [['add', '--restaurant', R1.id, '--name', 'Barra', '--host', '192.168.1.50', '--width', '76', '--when', 'arrival'], 2, /--width must be 58 or 80/],
    [[...base, '--port', 'noventa'], 2, /--port must be a whole number/],
    [[...base, '--port', '70000'], 1, /port: an integer from 1 to 65535/],
    [['add', '--restaurant', R1.id, '--name', 'Barra', '--host', 'no es un host', '--width', '80', '--when', 'arrival'], 1, /host: not an IP address or host name/],
    [[...base.slice(0, -1), 'siempre'], 1, /when: unknown siempre/],
    [[...base, '--stations', 'parrilla'], 1, /stations: unknown parrilla \(the restaurant's stations: horno, plancha, cocina/],
    [[...base, '--code-page', 'utf8'], 1, /code page: one of cp858, cp850, windows1252/],
    [['add', '--restaurant', R1.id, '--host', '192.168.1.50', '--width', '80', '--when', 'arrival'], 2, /--name NAME is required/],
    [['frobnicate', '--restaurant', R1.id], 2, /a command is needed/],
    [['remove', '--restaurant', R1.id, '--name', 'Nadie'], 1, /printer Nadie not found/],
    [['retry', '--restaurant', R1.id, '--name', 'Nadie'], 1, /printer Nadie not found/],
    [['list', '--restaurant', 'no-such-restaurant'], 1, /restaurant no-such-restaurant not found/],
  ];
  for (const [args, status, message] of badInput) {
    test(`bad input gets a clear error: ${args.filter((a) => a !== R1.id).join(' ')}`, async () => {
      const result = await printers(args, db);
      assert.equal(result.status, status, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
      assert.equal(result.stdout, '');
    });
  }

  test('bad input changed nothing', async () => {
    assert.deepEqual(JSON.parse((await printers(['list', '--restaurant', R1.id], db)).stdout), []);
  });

  // Three CLI runs (~1 s each quiet, many times that loaded): it says how long they may take.
  test('retry on a printer with nothing set aside queues nothing', { timeout: 180_000 }, async () => {
    const added = await printers(['add', '--restaurant', R1.id, '--name', 'Horno', '--host', '127.0.0.1', '--width', '80', '--when', 'arrival'], db);
    assert.equal(added.status, 0, added.stderr);
    const retried = await printers(['retry', '--restaurant', R1.id, '--name', 'Horno'], db);
    assert.equal(retried.status, 0, retried.stderr);
    assert.deepEqual(JSON.parse(retried.stdout), { printer: 'Horno', retried: 0 });
    assert.equal((await printers(['remove', '--restaurant', R1.id, '--name', 'Horno'], db)).status, 0);
  });
});
