// The app's engine host on a database it must not use or must not fill with demo data: a 0-byte
// comanda.db (a bad copy) is refused untouched, an existing file never gets the demo restaurants,
// and a comanda.db that `npm run serve` is serving stops the app saying which process holds it.
// The built main shows the same line in its error dialog (test/main/built-main.e2e.test.ts boots it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseAlreadyServed } from '../../src/engine/serving-lock.ts';
import { StorageRefusal } from '../../src/engine/store/database-checks.ts';
import { openDatabase } from '../../src/engine/store/open-database.ts';
import { startEngineServer } from '../../src/host/start-engine-server.ts';
import { startEngineHost } from '../../src/main/engine-host.ts';
import { DEFAULT_SETTINGS, type AppSettings } from '../../src/shared/screen-contract/settings.ts';

const settings: AppSettings = { ...DEFAULT_SETTINGS, http: { port: 0, lan: false } };

describe('the app on an existing database', () => {
  let dataDir: string;
  let dbPath: string;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'comanda-host-db-'));
    dbPath = join(dataDir, 'comanda.db');
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('a 0-byte comanda.db is refused, left at 0 bytes, no demo seeded', async () => {
    writeFileSync(dbPath, '');
    await assert.rejects(
      startEngineHost({ dataDir, settings }),
      (error: Error) => error instanceof StorageRefusal && error.message.includes(dbPath) && /empty \(0 bytes\)/.test(error.message) && /backup/.test(error.message),
    );
    assert.equal(statSync(dbPath).size, 0);
    rmSync(dbPath);
  });

  test('an existing Comanda file with no restaurant gets no demo data: refused, saying how to fix it', async () => {
    openDatabase(dbPath).close();
    await assert.rejects(startEngineHost({ dataDir, settings }), /holds no restaurant/);
    const db = openDatabase(dbPath);
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM restaurants').get() as { n: number }).n, 0, 'no demo restaurant was put in it');
    db.close();
    rmSync(dbPath);
  });

  test('comanda.db served by npm run serve: the app stops at once naming that process', async () => {
    const serving = await startEngineServer({ database: dbPath, servingAs: 'npm run serve', logger: false });
    try {
      const before = readFileSync(dbPath);
      await assert.rejects(
        startEngineHost({ dataDir, settings }),
        (error: Error) =>
          error instanceof DatabaseAlreadyServed &&
          error.message.includes(`already being served by process ${process.pid} (npm run serve`) &&
          error.message.includes(serving.baseUrl),
      );
      assert.deepEqual(readFileSync(dbPath), before, 'the app wrote nothing to it');
    } finally {
      await serving.close();
    }
  });
});
