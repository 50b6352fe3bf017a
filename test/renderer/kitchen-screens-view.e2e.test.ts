// "Pantallas de cocina" in the desktop window (through the bridge): add a screen (QR code, URL,
// six digits, expiry), the tablet pairs, the list shows it, Revocar revokes it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PAIRING_FAILURE_CAP, authenticateDevice, pairWithCode } from '../../src/engine/services/kitchen/kitchen-devices.ts';
import { ARTIFACTS, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';
import { eventually } from '../support/eventually.ts';
import { readPickupScreenSettings } from '../../src/engine/services/kitchen/pickup-screen-settings.ts';
import { R1 } from '../support/demo-ids.ts';

const VIEWPORTS = {
  portrait: { width: 800, height: 1280 },
  landscape: { width: 1280, height: 800 },
  desktop: { width: 1920, height: 1080 },
  phone: { width: 390, height: 844 },
};

describe('Pantallas de cocina (desktop window)', () => {
  let k: KitchenUnderTest;
  before(async () => {
    k = await startKitchenUnderTest();
    await k.open('screens');
    await k.page.locator('[data-testid="screens-view"]').waitFor();
  });
  after(async () => {
    await k?.stop();
  });

  test('Añadir una pantalla shows a QR code, the URL, the code and its expiry; the paired screen is listed and can be revoked', async () => {
    const { page } = k;
    await page.locator('[data-testid="screen-name"]').fill('Plancha');
    await page.locator('[data-testid="screen-add"]').click();
    await page.locator('[data-testid="pairing-offer"]').waitFor();
    const url = await page.locator('[data-testid="pairing-url"]').innerText();
    const code = await page.locator('[data-testid="pairing-digits"]').innerText();
    assert.match(code, /^\d{6}$/);
    assert.match(url, new RegExp(`^${k.engine.server.origin}/kitchen/pair\\?secret=cmpair_[\\w-]{43}$`), 'the URL carries a long secret, not the code');
    assert.ok((await page.locator('[data-testid="pairing-qr"]').getAttribute('src'))!.startsWith('data:image/svg+xml'));
    assert.equal(await page.locator('[data-testid="pairing-qr"]').evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), true);
    assert.match(await page.locator('[data-testid="pairing-offer"]').innerText(), /Vale hasta las \d\d:\d\d/);
    await page.locator('[data-testid="pairing-lan-off"]').waitFor();
    // The QR code itself says it points at this computer only while LAN access is off.
    assert.match(await page.locator('[data-testid="pairing-qr-local"]').innerText(), new RegExp(`^Solo en este equipo \\(${new URL(k.engine.server.origin).host}\\)`));
    assert.equal(await page.locator('[data-testid="pairing-close"]').innerText(), 'Cerrar');
    await page.screenshot({ path: join(ARTIFACTS, 'i30-desktop-screens-qr-local.png') });

    const paired = await pairWithCode(k.engine.server.engine, code);
    const row = page.locator(`tr[data-device-id="${paired.device.id}"]`);
    await row.waitFor({ timeout: 6000 });
    assert.match(await row.innerText(), /Plancha/);
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: join(ARTIFACTS, `i10-desktop-screens-${name}.png`), fullPage: false });
    }
    await page.setViewportSize({ width: 1366, height: 900 });

    await row.locator('[data-testid="screen-revoke"]').click();
    await page.locator('[data-testid="confirm-yes"]').click();
    await eventually(async () => await authenticateDevice(k.engine.server.engine, paired.token) === null, 'the screen revoked');
    await row.locator('text=Revocada').waitFor();
  });

  test('when wrong codes typed void the live codes, the view says so', async () => {
    const { page } = k;
    assert.equal(await page.locator('[data-testid="pairing-lockout"]').count(), 0);
    await page.locator('[data-testid="screen-add"]').click();
    await page.locator('[data-testid="pairing-offer"]').waitFor();
    const code = await page.locator('[data-testid="pairing-digits"]').innerText();
    const engine = k.engine.server.engine;
    for (let i = 1; i <= PAIRING_FAILURE_CAP; i++) {
      await assert.rejects(async () => await pairWithCode(engine, String((Number(code) + i) % 1_000_000).padStart(6, '0')), /unknown, expired or already used/);
    }
    await assert.rejects(async () => await pairWithCode(engine, code), /unknown, expired or already used/, 'the live code is void');
    const notice = page.locator('[data-testid="pairing-lockout"]');
    await notice.waitFor({ timeout: 6000 });
    assert.match(await notice.innerText(), new RegExp(`se anularon los códigos de 6 dígitos vigentes: alguien escribió ${PAIRING_FAILURE_CAP} códigos equivocados`));
    await page.screenshot({ path: join(ARTIFACTS, 'i19-desktop-screens-lockout.png') });
  });

  test('Pantalla de retiro: first names off and pickup only by default; each choice is saved in the engine', async () => {
    const { page } = k;
    const engine = k.engine.server.engine;
    const section = page.locator('[data-testid="pickup-settings"]');
    await section.waitFor();
    assert.match(await section.innerText(), /Pantalla de retiro/);
    assert.equal(await page.locator('[data-testid="pickup-first-name"]').isChecked(), false);
    assert.equal(await page.locator('[data-testid="pickup-order-types"]').inputValue(), 'pickup');
    assert.equal(await page.locator('[data-testid="pickup-language"]').inputValue(), 'es');

    await page.locator('[data-testid="pickup-first-name"]').check();
    await eventually(async () => (await readPickupScreenSettings(engine, R1.id)).show_first_name, 'first names on in the engine');
    await page.locator('[data-testid="pickup-order-types"]').selectOption('pickup_and_delivery');
    await eventually(async () => (await readPickupScreenSettings(engine, R1.id)).order_types === 'pickup_and_delivery', 'deliveries added in the engine');
    await page.locator('[data-testid="pickup-language"]').selectOption('en');
    await eventually(async () => (await readPickupScreenSettings(engine, R1.id)).language === 'en', 'English in the engine');
    await page.locator('[data-testid="pickup-saved"]').waitFor();
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'i22-desktop-screens-pickup-settings.png') });

    await page.locator('[data-testid="pickup-first-name"]').uncheck();
    await eventually(async () => !(await readPickupScreenSettings(engine, R1.id)).show_first_name, 'first names off again');
    assert.deepEqual(await readPickupScreenSettings(engine, R1.id), { show_first_name: false, order_types: 'pickup_and_delivery', language: 'en' });
  });
});
