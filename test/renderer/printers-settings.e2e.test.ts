// Ajustes → Impresoras in headless Chromium over the real engine: a printer added from the form
// (name, host and port of a stand-in network printer, 58 mm, a station, when it prints), listed
// with its state; "Imprimir prueba" prints a test page the stand-in decodes; a bad host or port is
// refused with a clear message and nothing typed is lost; the printer switched off shows as
// "sin conexión" (without reloading the page); a second one at 80 mm prints its 48-column page;
// Quitar removes them. Screenshots at 1280×800 and
// 820×1180 go to docs/screens/printers-settings/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { listPrinters } from '../../src/engine/services/printing/printers.ts';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { StandInPrinter } from '../support/stand-in-printer.ts';
import { ARTIFACTS, placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';

const SCREENS = resolve(import.meta.dirname, '../../docs/screens/printers-settings');
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 820, height: 1180 },
];

describe('Ajustes → Impresoras (Chromium, real engine, stand-in network printer)', () => {
  let k: KitchenUnderTest;
  let printer: StandInPrinter;
  let horno: StandInPrinter;

  before(async () => {
    printer = await new StandInPrinter().start();
    horno = await new StandInPrinter().start();
    k = await startKitchenUnderTest();
  });
  after(async () => {
    await k?.stop();
    await printer?.stop();
    await horno?.stop();
  });

  test('added, listed with its state, test page printed, bad input refused keeping what was typed, off shows sin conexión, removed', async () => {
    const { page } = k;
    await k.open('settings');
    const panel = page.locator('[data-testid="printers-settings"]');
    await panel.waitFor();
    assert.match(await panel.innerText(), /No hay impresoras de cocina/);
    const name = panel.locator('[data-testid="printer-name"]');
    const host = panel.locator('[data-testid="printer-host"]');
    const port = panel.locator('[data-testid="printer-port"]');
    const alert = panel.locator('[data-testid="printers-error"]');

    // A host that is no address: refused by the engine, shown, and the form keeps every field.
    await name.fill('Plancha Ñuñoa');
    await host.fill('impresora de la plancha');
    await port.fill(String(printer.port));
    await panel.locator('[data-testid="printer-width"]').selectOption('58');
    await panel.getByLabel('Plancha', { exact: true }).check();
    await panel.getByLabel('etiqueta de bolsa', { exact: true }).check();
    await panel.locator('[data-testid="printer-add"]').click();
    await alert.waitFor();
    assert.match(await alert.innerText(), /La dirección IP «impresora de la plancha» no es una dirección IP ni un nombre de equipo/);
    assert.equal(await host.getAttribute('aria-invalid'), 'true', 'the refused field is marked');
    assert.equal(await name.inputValue(), 'Plancha Ñuñoa');
    assert.equal(await host.inputValue(), 'impresora de la plancha');
    assert.equal(await port.inputValue(), String(printer.port));
    assert.equal(await panel.locator('[data-testid="printer-width"]').inputValue(), '58');
    assert.equal(await panel.getByLabel('Plancha', { exact: true }).isChecked(), true);
    assert.equal(await panel.getByLabel('etiqueta de bolsa', { exact: true }).isChecked(), true);
    assert.deepEqual(await listPrinters(k.engine.server.engine, R1.id), [], 'nothing added');

    // A port out of range, then one that is no number: refused the same way.
    await host.fill('127.0.0.1');
    await port.fill('91000');
    await panel.locator('[data-testid="printer-add"]').click();
    await eventually(async () => /El puerto debe ser un número de 1 a 65535/.test(await alert.innerText()), 'the port refused');
    assert.match(await alert.innerText(), /no «91000»/);
    assert.equal(await port.getAttribute('aria-invalid'), 'true');
    assert.equal(await host.getAttribute('aria-invalid'), null, 'the corrected host is no longer marked');
    await port.fill('nueve mil');
    await panel.locator('[data-testid="printer-add"]').click();
    await eventually(async () => /no «nueve mil»/.test(await alert.innerText()), 'a port that is no number refused, naming what was typed');
    assert.equal(await port.inputValue(), 'nueve mil');
    assert.equal(await name.inputValue(), 'Plancha Ñuñoa');
    assert.deepEqual(await listPrinters(k.engine.server.engine, R1.id), [], 'still nothing added');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('[data-testid="printer-add"]').scrollIntoViewIfNeeded();
    mkdirSync(SCREENS, { recursive: true });
    await page.screenshot({ path: join(SCREENS, 'printers-settings-refused-1280x800.png') });
    await page.setViewportSize({ width: 1366, height: 900 });

    // Corrected: added, listed with its settings and "sin probar".
    await port.fill(String(printer.port));
    await panel.locator('[data-testid="printer-add"]').click();
    const row = panel.locator('tr[data-printer-id]', { hasText: 'Plancha Ñuñoa' });
    await row.waitFor();
    assert.equal(await alert.count(), 0, 'the error is gone');
    const [added] = await listPrinters(k.engine.server.engine, R1.id);
    assert.ok(added);
    assert.equal(added.name, 'Plancha Ñuñoa');
    assert.equal(added.host, '127.0.0.1');
    assert.equal(added.port, printer.port);
    assert.equal(added.width_mm, 58);
    assert.deepEqual(added.stations, ['plancha']);
    assert.deepEqual(added.when, ['arrival', 'bag']);
    assert.equal(await row.getAttribute('data-state'), 'unknown');
    assert.match(await row.innerText(), /Plancha Ñuñoa · 58 mm · al llegar, etiqueta de bolsa/);
    assert.match(await row.innerText(), new RegExp(`127\\.0\\.0\\.1:${printer.port}`));
    assert.match(await row.locator('[data-testid="printer-state"]').innerText(), /sin probar/);
    assert.equal(await name.inputValue(), '', 'the form is ready for the next one');

    // Imprimir prueba: the page reaches the printer, decoded back with every Spanish letter.
    await row.locator('[data-testid="printer-test"]').click();
    const [page1] = await printer.waitForTickets(1);
    mkdirSync(join(ARTIFACTS, 'printers'), { recursive: true });
    writeFileSync(join(ARTIFACTS, 'printers', 'settings-test-page-58mm.txt'), `${printer.transcript()}\n`);
    assert.deepEqual(printer.protocolErrors, []);
    assert.ok(page1!.cut, 'the page is cut');
    assert.ok(page1!.text.some((l) => l.includes('Impresora de prueba')));
    assert.ok(page1!.text.some((l) => l.includes('Plancha Ñuñoa')), 'the printer name, accents intact');
    assert.ok(page1!.text.some((l) => l.includes('ñ á é í ó ú ü ¿ ¡ Ñ Á É Í Ó Ú Ü')));
    assert.ok(page1!.text.some((l) => l.includes('32 columnas')), '58 mm paper: 32 columns');
    await eventually(async () => (await row.getAttribute('data-state')) === 'ok', 'the printer answered: lista');
    assert.match(await row.locator('[data-testid="printer-state"]').innerText(), /lista · prueba impresa/);

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.locator('[data-testid="settings-printers"]').scrollIntoViewIfNeeded();
      mkdirSync(SCREENS, { recursive: true });
      await page.screenshot({ path: join(SCREENS, `printers-settings-${viewport.width}x${viewport.height}.png`) });
    }
    await page.setViewportSize({ width: 1366, height: 900 });

    // Switched off: an order for its station cannot print, and the panel says so without a reload.
    await printer.switchOff();
    await placeOrder(k.engine);
    await eventually(async () => (await row.getAttribute('data-state')) === 'unreachable', 'the panel shows sin conexión');
    // Only what is true now: the earlier "prueba impresa" is gone with the state it described.
    assert.equal((await row.locator('[data-testid="printer-state"]').innerText()).trim(), 'sin conexión · 1 en cola');
    // Imprimir prueba now tells why.
    await row.locator('[data-testid="printer-test"]').click();
    await eventually(async () => /la prueba no llegó: nada responde en 127\.0\.0\.1:\d+ \(¿encendida, en la red/.test(await row.locator('[data-testid="printer-state"]').innerText()), 'the test page failure shown');
    assert.equal(await row.getAttribute('data-state'), 'unreachable');
    await page.locator('[data-testid="settings-printers"]').scrollIntoViewIfNeeded();
    await k.screenshot('printers-settings-unreachable');

    // A second one on 80 mm paper, every station: its test page has 48 columns.
    await name.fill('Horno');
    await host.fill('127.0.0.1');
    await port.fill(String(horno.port));
    await panel.locator('[data-testid="printer-width"]').selectOption('80');
    await panel.getByLabel('Plancha', { exact: true }).uncheck();
    await panel.getByLabel('etiqueta de bolsa', { exact: true }).uncheck();
    await panel.locator('[data-testid="printer-add"]').click();
    const hornoRow = panel.locator('tr[data-printer-id]', { hasText: 'Horno' });
    await hornoRow.waitFor();
    assert.match(await hornoRow.innerText(), /Horno · 80 mm · al llegar/);
    await hornoRow.locator('[data-testid="printer-test"]').click();
    const [hornoPage] = await horno.waitForTickets(1);
    writeFileSync(join(ARTIFACTS, 'printers', 'settings-test-page-80mm.txt'), `${horno.transcript()}\n`);
    assert.ok(hornoPage!.text.some((l) => l.includes('48 columnas')), '80 mm paper: 48 columns');
    assert.ok(hornoPage!.text.some((l) => l.includes('ñ á é í ó ú ü ¿ ¡ Ñ Á É Í Ó Ú Ü')));
    await eventually(async () => (await hornoRow.getAttribute('data-state')) === 'ok', 'Horno: lista');
    assert.deepEqual((await listPrinters(k.engine.server.engine, R1.id)).find((p) => p.name === 'Horno')?.stations, [], 'no station ticked: every station');

    // Something that takes the connection and never answers as a printer (a new user's listener, a
    // printer's web port): the test says so while it waits, then that it was not a printer answering.
    horno.behaviour = 'stall';
    await hornoRow.locator('[data-testid="printer-test"]').click();
    await eventually(async () => /probando…/.test(await hornoRow.locator('[data-testid="printer-state"]').innerText()), 'Horno: probando…');
    await eventually(
      async () => await hornoRow.locator('[data-testid="printer-state"]').innerText(),
      'Horno: the silent printer said',
      { until: (text) => /la prueba no llegó: algo en 127\.0\.0\.1:\d+ aceptó la conexión pero no contestó como impresora/.test(text) },
    );
    assert.doesNotMatch(await hornoRow.locator('[data-testid="printer-state"]').innerText(), /nada responde/);
    // A web server on the port (a printer's configuration page): said to answer, not as a printer, with what it sent.
    horno.behaviour = 'http';
    await hornoRow.locator('[data-testid="printer-test"]').click();
    await eventually(
      async () => await hornoRow.locator('[data-testid="printer-state"]').innerText(),
      'Horno: the web server said',
      { until: (text) => /algo en 127\.0\.0\.1:\d+ contestó, pero no como impresora \(respondió 48 54 54 50/.test(text) },
    );
    horno.behaviour = 'ok';

    // Quitar: gone from the panel and from the engine, its queued ticket dropped.
    await hornoRow.getByRole('button', { name: 'Quitar' }).click();
    await eventually(async () => (await hornoRow.count()) === 0, 'Horno removed');
    await row.getByRole('button', { name: 'Quitar' }).click();
    await eventually(async () => (await row.count()) === 0, 'the printer removed');
    assert.match(await panel.innerText(), /No hay impresoras de cocina/);
    assert.deepEqual(await listPrinters(k.engine.server.engine, R1.id), []);
  });
});
