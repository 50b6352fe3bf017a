// The step before `npm start` and `npm run package:*` (scripts/ensure-electron.ts), run as npm runs
// it, against a copy of the `electron` package in a temp folder (so the real one is never touched)
// and a local mirror: Electron's own installer downloads, verifies and unzips from it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';

const ROOT = resolve(import.meta.dirname, '../..');
const ELECTRON = join(ROOT, 'node_modules/electron');
const { version } = JSON.parse(readFileSync(join(ELECTRON, 'package.json'), 'utf8')) as { version: string };
const EXECUTABLE = process.platform === 'win32' ? 'electron.exe' : 'electron';

/** A copy of the `electron` package whose installer finds its own dependencies in the real tree. */
function electronPackageCopy(): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'comanda-electron-'));
  const dir = join(root, 'node_modules/electron');
  mkdirSync(dir, { recursive: true });
  for (const file of ['install.js', 'package.json', 'checksums.json']) copyFileSync(join(ELECTRON, file), join(dir, file));
  for (const scope of ['@electron', '@electron-internal']) symlinkSync(join(ROOT, 'node_modules', scope), join(root, 'node_modules', scope));
  return { root, dir };
}

/** A zip with stored (uncompressed) entries: enough for a stand-in Electron release. */
function storedZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the mode below counts
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE((0o100755 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/** Runs the step as npm would, asynchronously: the mirror answering it lives in this process. */
function runEnsureElectron(dir: string, env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(electron_|ELECTRON_|npm_config_electron)/.test(name)));
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/ensure-electron.ts'), '--electron-dir', dir], {
    cwd: ROOT,
    env: { ...cleanEnv, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((done) => child.on('close', (status) => done({ status, stderr })));
}

describe('npm start fetches Electron first, once', () => {
  const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
  const zip = storedZip({ [EXECUTABLE]: '#!/bin/sh\necho stand-in electron\n', version });
  let mirror: Server;
  let mirrorUrl: string;
  const requests: string[] = [];
  const folders: string[] = [];

  before(async () => {
    mirror = createServer((request, response) => {
      requests.push(request.url ?? '');
      if (request.url === `/v${version}/${zipName}`) {
        response.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length }).end(zip);
      } else if (request.url === `/v${version}/SHASUMS256.txt`) {
        response.end(`${createHash('sha256').update(zip).digest('hex')} *${zipName}\n`);
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((done) => mirror.listen(0, '127.0.0.1', done));
    mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/`;
  });

  after(async () => {
    await new Promise((done) => mirror.close(done));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  test('when the download is impossible it stops at once, saying what failed, how to retry and how to run headless', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const electron = electronPackageCopy();
    folders.push(electron.root);

    const result = await runEnsureElectron(electron.dir, {
      ELECTRON_MIRROR: `http://127.0.0.1:${closedPort}/`,
      electron_config_cache: join(electron.root, 'cache'),
    });

    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`could not download Electron ${version.replaceAll('.', '\\.')}`));
    assert.match(result.stderr, new RegExp(`127\\.0\\.0\\.1:${closedPort}`));
    assert.match(result.stderr, /To retry: run the same command again/);
    assert.match(result.stderr, /npm run serve -- --demo/);
    assert.match(result.stderr, /kitchen_pairing_url/);
    assert.equal(existsSync(join(electron.dir, 'path.txt')), false, 'nothing half-installed');
  });

  test("Electron's installer fetches, verifies and unzips the binary; a second run does nothing", async () => {
    const electron = electronPackageCopy();
    folders.push(electron.root);
    const env = { ELECTRON_MIRROR: mirrorUrl, electron_use_remote_checksums: '1', electron_config_cache: join(electron.root, 'cache') };

    const first = await runEnsureElectron(electron.dir, env);
    assert.equal(first.status, 0, first.stderr);
    assert.equal(readFileSync(join(electron.dir, 'path.txt'), 'utf8'), EXECUTABLE);
    assert.ok(existsSync(join(electron.dir, 'dist', EXECUTABLE)));
    assert.ok(requests.includes(`/v${version}/${zipName}`));

    const before = requests.length;
    const second = await runEnsureElectron(electron.dir, env);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stderr, '', 'silent when there is nothing to do');
    assert.equal(requests.length, before, 'no request to the mirror');
  });

  test('a binary from another version is replaced, not trusted', async () => {
    const electron = electronPackageCopy();
    folders.push(electron.root);
    const env = { ELECTRON_MIRROR: mirrorUrl, electron_use_remote_checksums: '1', electron_config_cache: join(electron.root, 'cache') };
    assert.equal((await runEnsureElectron(electron.dir, env)).status, 0);
    // An older release left in dist/: its version file says so.
    writeFileSync(join(electron.dir, 'dist', 'version'), '1.0.0');
    const before = requests.length;
    const again = await runEnsureElectron(electron.dir, env);
    assert.equal(again.status, 0, again.stderr);
    assert.ok(requests.length > before, 'downloaded again');
    assert.equal(readFileSync(join(electron.dir, 'dist', 'version'), 'utf8').trim(), version);
  });
});
