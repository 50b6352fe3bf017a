// The browser mode's settings and secrets (no electron-store, no safeStorage): the settings in the
// app's own settings.json, the platform key and SMTP URL unencrypted in a 0600 file that the
// Settings screen names.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_SECRETS_FILE, createBrowserSettingsFiles, SETTINGS_FILE } from '../../src/main/browser-settings-files.ts';
import { DEFAULT_SETTINGS } from '../../src/shared/screen-contract/settings.ts';
import { appPaymentCredentials } from '../../src/main/app-handlers.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('settings files (browser mode)', () => {
  test('settings share settings.json with the desktop app and leave its other entries alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'comanda-file-settingsFiles-'));
    try {
      // What electron-store left there: the settings and the platform key's safeStorage ciphertext.
      const electronEntry = { cipher: 'djEwAAAA', label: 'Cuenta', mode: 'live', last4: 'Hg0F' };
      writeFileSync(join(dir, SETTINGS_FILE), JSON.stringify({ settings: { language: 'en', http: { port: 4800, lan: true } }, platformKey: electronEntry }));
      const settingsFiles = createBrowserSettingsFiles(dir);
      assert.equal(settingsFiles.settings.read().language, 'en');
      assert.equal(settingsFiles.settings.read().http.port, 4800);
      settingsFiles.settings.write({ ...settingsFiles.settings.read(), theme: 'light' });
      const onDisk = JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8'));
      assert.equal(onDisk.settings.theme, 'light');
      assert.deepEqual(onDisk.platformKey, electronEntry, 'the desktop app’s encrypted key is untouched');
      assert.equal(settingsFiles.platformKey.info().present, false, 'the browser mode does not read the desktop’s ciphertext as a key');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a broken settings.json reads as the defaults', () => {
    const dir = mkdtempSync(join(tmpdir(), 'comanda-file-settingsFiles-'));
    try {
      writeFileSync(join(dir, SETTINGS_FILE), '{not json');
      assert.deepEqual(createBrowserSettingsFiles(dir).settings.read(), DEFAULT_SETTINGS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the platform key and the SMTP URL go to a 0600 file, said plainly; a looser file is narrowed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'comanda-file-settingsFiles-'));
    try {
      const settingsFiles = createBrowserSettingsFiles(dir);
      const file = join(dir, BROWSER_SECRETS_FILE);
      assert.deepEqual(settingsFiles.platformKey.storage(), { available: true, backend: null, clear_text_file: file });
      settingsFiles.platformKey.save('cm_live_abcdefghijklmnopqrstuvwxyzAbHg0F', 'Cuenta principal');
      assert.equal(modeOf(file), 0o600);
      assert.deepEqual(settingsFiles.platformKey.info(), { present: true, world: 'live', label: 'Cuenta principal', last4: 'Hg0F' });
      assert.equal(settingsFiles.platformKey.readSecret(), 'cm_live_abcdefghijklmnopqrstuvwxyzAbHg0F');
      settingsFiles.mail.save({ url: 'smtp://cocina:secreta@mail.example:587', from: 'cocina@example.com' });
      assert.equal(modeOf(file), 0o600);
      assert.deepEqual(settingsFiles.mail.info(), { configured: true, server: 'mail.example:587', from: 'cocina@example.com' });
      assert.equal(settingsFiles.mail.readSecret()?.url, 'smtp://cocina:secreta@mail.example:587');
      settingsFiles.platformKey.clear();
      assert.equal(settingsFiles.platformKey.readSecret(), null);
      assert.equal(settingsFiles.mail.readSecret()?.from, 'cocina@example.com', 'clearing the key keeps the mail settings');

      chmodSync(file, 0o644);
      createBrowserSettingsFiles(dir);
      assert.equal(modeOf(file), 0o600, 'narrowed on start');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a payment account is kept under its provider, the engine asks for it by that name; one kept before accounts named theirs is Mercado Pago', () => {
    const dir = mkdtempSync(join(tmpdir(), 'comanda-file-settingsFiles-'));
    try {
      const file = join(dir, BROWSER_SECRETS_FILE);
      // As a release before issue 31 wrote it: the credentials alone.
      const old = { accessToken: 'APP_USR-old-1111', webhookSecret: 'whsec-old-2222', apiBase: 'https://api.mercadopago.com' };
      writeFileSync(file, JSON.stringify({ payments: { r1: old } }), { mode: 0o600 });
      const settingsFiles = createBrowserSettingsFiles(dir);
      const credentialsOf = appPaymentCredentials(settingsFiles);
      assert.deepEqual(settingsFiles.onlinePayments.read('r1'), { provider: 'mercadopago', credentials: old });
      assert.equal(settingsFiles.onlinePayments.info('r1')?.provider, 'mercadopago');
      assert.deepEqual(credentialsOf('r1', 'mercadopago'), old);

      const other = { accessToken: 'tok-otro-3333', webhookSecret: 'sec-otro-4444', apiBase: 'https://api.otro.example' };
      settingsFiles.onlinePayments.save('r1', { provider: 'otro', credentials: other });
      assert.equal(settingsFiles.onlinePayments.info('r1')?.provider, 'otro');
      assert.equal(credentialsOf('r1', 'mercadopago'), null, 'the account kept is another provider’s');
      assert.deepEqual(credentialsOf('r1', 'otro'), other);
      assert.equal(credentialsOf('r2', 'otro'), null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
