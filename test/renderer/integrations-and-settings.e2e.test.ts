// Integrations (API keys for store fronts and POS on the LAN) and settings, in headless Chromium.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';
import { eventually } from '../support/eventually.ts';

describe('integrations and settings screens (Chromium, real engine)', () => {
  let k: KitchenUnderTest;

  before(async () => {
    k = await startKitchenUnderTest();
    await k.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });
  after(async () => {
    await k?.stop();
  });

  test('a key generated here is shown once, copies, works on the local API, and can be revoked', async () => {
    await k.open('integrations');
    await k.page.locator('[data-testid="key-label"]').fill('Tienda web');
    await k.page.locator('[data-testid="key-world"]').selectOption('test');
    await k.page.locator('[data-testid="key-write"]').selectOption('write');
    await k.page.locator('[data-testid="key-generate"]').click();
    const secret = await k.page.locator('[data-testid="key-secret"]').innerText();
    assert.match(secret, /^cm_test_[0-9A-Za-z]{32}$/);
    await k.page.locator('[data-testid="key-copy"]').click();
    await eventually(async () => (await k.page.locator('[data-testid="key-copy"]').innerText()) === 'Copiada', 'copied');
    assert.equal(await k.page.evaluate(() => navigator.clipboard.readText()), secret);
    // Which restaurant the key is for: said above the form and on the new key.
    assert.match(await k.page.locator('[data-testid="keys-restaurant"]').innerText(), /Claves del restaurante La Picada de Ñuñoa \(10000000-0000-4000-8000-000000000001\)/);
    assert.match(await k.page.locator('[data-testid="created-key-restaurant"]').innerText(), /Esta clave es del restaurante La Picada de Ñuñoa/);
    await k.screenshot('integrations-new-key');

    // The store front uses it against the HTTP API.
    const menu = await k.engine.call('GET', '/menu', { key: secret });
    assert.equal(menu.status, 200);
    const row = k.page.locator('tr', { hasText: 'Tienda web' });
    assert.match(await row.innerText(), /Prueba \(sandbox\)/);
    assert.match(await row.innerText(), /Lectura y escritura/);
    assert.match(await row.innerText(), /La Picada de Ñuñoa/, 'the row names its restaurant');
    assert.match(await row.innerText(), new RegExp(`…${secret.slice(-4)}`));

    // Shown once: dismissed, and after a reload it is nowhere on the page.
    await k.page.locator('[data-testid="key-done"]').click();
    await k.open('integrations');
    await k.page.locator('tr', { hasText: 'Tienda web' }).waitFor();
    assert.ok(!(await k.page.content()).includes(secret));
    // The list shows when it was last used.
    assert.doesNotMatch(await k.page.locator('tr', { hasText: 'Tienda web' }).innerText(), /Nunca\s*Revocar/);
    await k.screenshot('integrations');

    await k.page.locator('tr', { hasText: 'Tienda web' }).locator('[data-testid="key-revoke"]').click();
    await k.page.locator('[data-testid="confirm-yes"]').click();
    await eventually(async () => /Revocada/.test(await k.page.locator('tr', { hasText: 'Tienda web' }).innerText()), 'revoked');
    assert.equal((await k.engine.call('GET', '/menu', { key: secret })).status, 401);
  });

  test('Ajustes: the restaurant has a section of its own, first, not under API local', async () => {
    await k.open('settings');
    const section = k.page.locator('[data-testid="settings-restaurant"]');
    await section.waitFor();
    assert.match(await section.locator('h2').innerText(), /^Restaurante$/);
    assert.deepEqual(await section.locator('[data-testid="restaurant"] option').allInnerTexts(), ['La Picada de Ñuñoa', 'Sushi Providencia']);
    const headings = await k.page.locator('.settings-section h2').allInnerTexts();
    assert.ok(headings.indexOf('Restaurante') < headings.indexOf('API local'), headings.join(' | '));
    assert.equal(await k.page.locator('.settings-section', { hasText: 'API local' }).locator('[data-testid="restaurant"]').count(), 0);
    await k.screenshot('settings-restaurant');
  });

  test('settings: language, theme, thresholds; the board follows them', async () => {
    await k.open('settings');
    await k.page.locator('[data-testid="language-en"]').click();
    await k.page.locator('[data-testid="nav-board"]', { hasText: 'Kitchen' }).waitFor();
    await k.page.locator('[data-testid="theme-light"]').click();
    await eventually(async () => (await k.page.evaluate(() => document.documentElement.dataset.theme)) === 'light', 'light theme');
    await k.page.locator('[data-testid="warn-minutes"]').fill('25');
    await k.page.locator('[data-testid="save-thresholds"]').click();
    // 25 ≥ 20: refused with the reason, nothing saved.
    await k.page.locator('[data-testid="settings-error"]').waitFor();
    assert.equal(k.settings.current.thresholds.warn_minutes, 10);
    await k.page.locator('[data-testid="warn-minutes"]').fill('5');
    await k.page.locator('[data-testid="late-minutes"]').fill('15');
    await k.page.locator('[data-testid="save-thresholds"]').click();
    await eventually(() => k.settings.current.thresholds.late_minutes === 15, 'thresholds saved');
    assert.equal(k.settings.current.language, 'en');
    assert.equal(k.settings.current.theme, 'light');
    await k.page.locator('[data-testid="http-lan"]').click();
    await k.page.locator('[data-testid="restart-required"]').waitFor();
    assert.equal(k.settings.current.http.lan, true);
    await k.screenshot('settings-light-en');
    await k.page.locator('[data-testid="http-lan"]').click();
    await k.page.locator('[data-testid="restart-required"]').waitFor({ state: 'detached' });
    await k.page.locator('[data-testid="language-es"]').click();
    await k.page.locator('[data-testid="theme-dark"]').click();
    await eventually(() => k.settings.current.language === 'es' && k.settings.current.theme === 'dark', 'back to Spanish, dark');
  });

  test('the platform key is saved without ever coming back to the screen: only world, label and last four', async () => {
    const key = 'cm_live_aZx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0F';
    await k.page.locator('[data-testid="platform-url"]').fill('https://plataforma.example/v1');
    await k.page.locator('[data-testid="platform-key"]').fill(key);
    await k.page.locator('[data-testid="platform-key-label"]').fill('Cuenta principal');
    await k.page.locator('[data-testid="save-platform-key"]').click();
    await eventually(async () => /…Hg0F/.test(await k.page.locator('[data-testid="platform-key-info"]').innerText()), 'key info');
    assert.match(await k.page.locator('[data-testid="platform-key-info"]').innerText(), /live · Cuenta principal · …Hg0F/);
    assert.equal(k.platformKey.secret(), key);
    assert.equal(await k.page.locator('[data-testid="platform-key"]').inputValue(), '');
    await k.page.locator('[data-testid="mode-connected"]').click();
    await eventually(() => k.settings.current.connection.mode === 'connected', 'connected mode saved');
    assert.equal(k.settings.current.connection.platform_url, 'https://plataforma.example/v1');
    await k.open('settings');
    assert.ok(!(await k.page.content()).includes(key));
    await k.screenshot('settings');
  });

  test('back up now writes a copy and says where', async () => {
    await k.open('settings');
    await k.page.locator('[data-testid="backup-now"]').click();
    const result = k.page.locator('[data-testid="backup-result"]');
    await result.waitFor();
    assert.match(await result.innerText(), /Copia guardada en .*comanda-\d{8}-\d{6}\.db \(\d+ KiB\)/);
  });

  test('the status bar shows a connected app going offline, and the board says so', async () => {
    Object.assign(k.connection, {
      mode: 'connected',
      online: false,
      last_sync_at: k.engine.clock.now() - 120_000,
      queued: 3,
      conflicts: 2,
      error: 'GET /events: connect ECONNREFUSED',
    });
    await k.feed.heartbeat();
    await k.page.locator('[data-testid="nav-board"]').click();
    await k.page.locator('[data-testid="offline-banner"]').waitFor();
    const bar = await k.page.locator('[data-testid="status-bar"]').innerText();
    assert.match(bar, /Cambios en cola: 3/);
    assert.match(bar, /Sin conexión/);
    assert.match(bar, /Conflictos: 2/);
    assert.match(bar, /ECONNREFUSED/);
    Object.assign(k.connection, { mode: 'standalone', online: true, last_sync_at: null, queued: 0, conflicts: 0, error: null });
    await k.feed.heartbeat();
    await k.page.locator('[data-testid="offline-banner"]').waitFor({ state: 'detached' });
  });

  test('a full disk: the status bar says "Disco lleno" until space is back', async () => {
    Object.assign(k.connection, { storage_full: true });
    await k.feed.heartbeat();
    await k.page.locator('[data-testid="nav-board"]').click();
    const label = k.page.locator('[data-testid="storage-full"]');
    await label.waitFor();
    assert.match(await label.innerText(), /Disco lleno/);
    await k.screenshot('status-bar-disco-lleno');
    Object.assign(k.connection, { storage_full: false });
    await k.feed.heartbeat();
    await label.waitFor({ state: 'detached' });
  });

  test('without protected storage the screen says the key cannot be stored, and it is not', async () => {
    await k.page.locator('[data-testid="nav-settings"]').click();
    await k.page.locator('[data-testid="clear-platform-key"]').click();
    await eventually(async () => /Sin clave guardada/.test(await k.page.locator('[data-testid="platform-key-info"]').innerText()), 'key cleared');
    assert.equal(k.settings.current.connection.mode, 'standalone');
    k.platformKey.setAvailable(false);
    await k.open('settings');
    await k.page.locator('[data-testid="no-secure-storage"]').waitFor();
    await k.page.locator('[data-testid="no-secure-storage"]').scrollIntoViewIfNeeded();
    assert.equal(await k.page.locator('[data-testid="platform-key"]').isDisabled(), true);
    // Even a request that gets past the screen is refused, and the reason is shown.
    const refused = await k.page.evaluate(() => window.comanda.setPlatformKey({ key: 'cm_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345', label: null }));
    assert.deepEqual(refused.ok ? null : refused.error.code, 'secure_storage_unavailable');
    assert.equal(k.platformKey.secret(), null);
    await k.screenshot('settings-no-secure-storage');
  });
});
