// The browser mode's settings and secrets (no electron-store, no safeStorage): the settings in the
// app's own settings.json, the platform key and SMTP URL unencrypted in a 0600 file that the
// Settings screen names.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_SECRETS_FILE, createFileStores, SETTINGS_FILE } from '../../src/main/browser-settings-files.ts';
import { DEFAULT_SETTINGS } from '../../src/shared/ipc/settings.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('file stores (browser mode)', () => {
  test('settings share settings.json with the desktop app and leave its other entries alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'comanda-file-stores-'));
    try {
      // What electron-store left there: the settings and the platform key's safeStorage ciphertext.
      const electronEntry = { cipher: 'djEwAAAA', label: 'Cuenta', mode: 'live', last4: 'Hg0F' };
      writeFileSync(join(dir, SETTINGS_FILE), JSON.stringify({ settings: { language: 'en', http: { port: 4800, lan: true } }, platformKey: electronEntry }));
      const stores = createFileStores(dir);
      assert.equal(stores.settings.read().language, 'en');
      assert.equal(stores.settings.read().http.port, 4800);
      stores.settings.write({ ...stores.settings.read(), theme: 'light' });
      const onDisk = JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8'));
      assert.equal(onDisk.settings.theme, 'light');
      assert.deepEqual(onDisk.platformKey, electronEntry, 'the desktop app’s encrypted key is untouched');
      assert.equal(stores.platformKey.info().present, false, 'the browser mode does not read the desktop’s ciphertext as a key');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a broken settings.json reads as the defaults', () => {
    const dir = mkdtempSync(join(tmpdir(), 'comanda-file-stores-'));
    try {
      writeFileSync(join(dir, SETTINGS_FILE), '{not json');
      assert.deepEqual(createFileStores(dir).settings.read(), DEFAULT_SETTINGS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the platform key and the SMTP URL go to a 0600 file, said plainly; a looser file is narrowed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'comanda-file-stores-'));
    try {
      const stores = createFileStores(dir);
      const file = join(dir, BROWSER_SECRETS_FILE);
      assert.deepEqual(stores.platformKey.storage(), { available: true, backend: null, clear_text_file: file });
      stores.platformKey.save('cm_live_abcdefghijklmnopqrstuvwxyzAbHg0F', 'Cuenta principal');
      assert.equal(modeOf(file), 0o600);
      assert.deepEqual(stores.platformKey.info(), { present: true, mode: 'live', label: 'Cuenta principal', last4: 'Hg0F' });
      assert.equal(stores.platformKey.readSecret(), 'cm_live_abcdefghijklmnopqrstuvwxyzAbHg0F');
      stores.mail.save({ url: 'smtp://cocina:secreta@mail.example:587', from: 'cocina@example.com' });
      assert.equal(modeOf(file), 0o600);
      assert.deepEqual(stores.mail.info(), { configured: true, server: 'mail.example:587', from: 'cocina@example.com' });
      assert.equal(stores.mail.readSecret()?.url, 'smtp://cocina:secreta@mail.example:587');
      stores.platformKey.clear();
      assert.equal(stores.platformKey.readSecret(), null);
      assert.equal(stores.mail.readSecret()?.from, 'cocina@example.com', 'clearing the key keeps the mail settings');

      chmodSync(file, 0o644);
      createFileStores(dir);
      assert.equal(modeOf(file), 0o600, 'narrowed on start');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
