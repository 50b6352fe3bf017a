// The closed-location chip on the board's status strip, in headless Chromium on the demo restaurant
// (the first screen a new user sees). Its second location, Plaza Egaña, has its register closed
// and has taken no order: the strip says "Cerrada: Plaza Egaña" plainly, nothing red. A location
// that took orders today and is then closed is the real alarm: "Sin pedidos nuevos: …" in red.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { R1 } from '../support/demo-ids.ts';
import { eventually } from '../support/eventually.ts';
import { placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';

/** The strip's red (styles.css `--danger`, dark theme). */
const DANGER = 'rgb(255, 77, 77)';
const background = async (chip: Locator) => await chip.evaluate((el) => getComputedStyle(el).backgroundColor);

describe('the closed-location chip on the first screen and in service (Chromium, demo restaurant)', () => {
  let k: KitchenUnderTest;
  before(async () => {
    k = await startKitchenUnderTest();
  });
  after(async () => {
    await k?.stop();
  });
  const chip = (kind: 'idle' | 'stopped') => k.page.locator(`[data-testid="location-closed-chip"][data-kind="${kind}"]`);

  test('the first screen: a location closed before taking any order says "Cerrada", not red; nothing says orders stopped', async () => {
    await k.page.setViewportSize({ width: 1280, height: 800 });
    await k.open('board');
    const only = k.page.locator('[data-testid="location-closed-chip"]');
    await only.waitFor();
    assert.equal(await only.count(), 1);
    assert.equal(await only.locator('.closed-long').innerText(), 'Cerrada: Plaza Egaña');
    assert.notEqual(await background(only), DANGER, 'the first screen shows no red chip');
    assert.equal(await only.getAttribute('data-kind'), 'idle');
    assert.doesNotMatch(await k.page.locator('[data-testid="status-bar"]').innerText(), /Sin pedidos nuevos/);
    // The detail and the way to open it are still a tap away.
    await chip('idle').click();
    assert.match(await k.page.locator('.strip-popover').innerText(), /Sucursal cerrada: Plaza Egaña/);
    await k.page.locator('[data-testid="location-reopen"]').waitFor();
    await chip('idle').click();
  });

  test('a location that took orders today and is closed during service: "Sin pedidos nuevos", in red', async () => {
    const taken = await placeOrder(k.engine);
    await k.page.locator(`.column article[data-order-id="${taken.id}"]`).waitFor();
    assert.equal(await chip('stopped').count(), 0, 'open and taking orders: no alarm');
    const closed = await k.engine.call('POST', `/locations/${R1.openLocation}/close`, { key: k.engine.demo[0]!.keys.live_write });
    assert.equal(closed.status, 200, closed.text);
    await eventually(async () => (await chip('stopped').count()) === 1 || undefined, 'the alarm on the strip');
    assert.equal(await chip('stopped').locator('.closed-long').innerText(), 'Sin pedidos nuevos: Ñuñoa Centro');
    assert.equal(await background(chip('stopped')), DANGER);
    // The location that never took an order stays plain beside it.
    assert.equal(await chip('idle').locator('.closed-long').innerText(), 'Cerrada: Plaza Egaña');
    // Reopened from the chip, the alarm goes.
    await chip('stopped').click();
    await k.page.locator('[data-testid="location-reopen"]', { hasText: 'Ñuñoa Centro' }).click();
    await eventually(async () => (await chip('stopped').count()) === 0 || undefined, 'the alarm gone once reopened');
  });
});
