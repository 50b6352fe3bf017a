// "Agotar" from a ticket in headless Chromium: a long press on an item asks whether that dish is
// sold out at the order's location; the answer is what GET /menu and POST /orders then say. A quick
// tap still strikes the item, and a long press does not strike it too.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../support/demo-ids.ts';
import { TAP_GUARD_MS } from '../../src/renderer/src/state/board/pending-slice.ts';
import { eventually } from '../support/eventually.ts';
import { placeOrder, startKitchenUnderTest, type KitchenUnderTest } from './support/kitchen-under-test.ts';

type MenuBody = { categories: { products: { id: string; available: boolean }[] }[] };

describe('agotar from a ticket (Chromium, real engine)', () => {
  let k: KitchenUnderTest;
  before(async () => {
    k = await startKitchenUnderTest();
  });
  after(async () => {
    await k?.stop();
  });

  const availableAt = async (productId: string) => {
    const menu = (await k.engine.call('GET', `/menu?location_id=${R1.openLocation}`)).body as MenuBody;
    return menu.categories.flatMap((c) => c.products).find((p) => p.id === productId)?.available;
  };

  test('a long press on an item asks; one tap marks the dish agotado, which the menu and POST /orders then refuse', async () => {
    const dish = R1.products.empanadaCamaronQueso;
    const order = await placeOrder(k.engine, { items: [{ product_id: dish, quantity: 2 }] });
    const orderId = (order as { id: string }).id;
    await k.open('board');
    const item = k.page.locator(`article[data-order-id="${orderId}"] [data-testid="item"]`).first();
    await item.waitFor();
    assert.equal(await availableAt(dish), true);

    const box = (await item.boundingBox())!;
    await k.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await k.page.mouse.down();
    // Held until the question shows (the long press), then let go: that release strikes nothing.
    await k.page.locator('[data-testid="sold-out-ask"]').waitFor();
    await k.page.mouse.up();
    assert.match(await k.page.locator('[data-testid="sold-out-ask"]').innerText(), /Empanada/);
    assert.equal(await item.getAttribute('data-done'), 'false', 'the long press did not strike the item');
    await k.screenshot('ticket-sold-out-ask');

    await k.page.locator('[data-testid="sold-out-confirm"]').click();
    await k.page.locator('[data-testid="sold-out-result"]').waitFor();
    assert.match(await k.page.locator('[data-testid="sold-out-result"]').innerText(), /agotado/);
    await eventually(async () => (await availableAt(dish)) === false, 'the menu says the dish is unavailable');
    const refused = await k.engine.call('POST', '/orders', {
      body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Matías González' }, items: [{ product_id: dish, quantity: 1 }] },
    });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(await item.getAttribute('data-done'), 'false');

    // A quick tap still works the line: the first starts it (issue 32), the next strikes it.
    await k.page.locator('[data-testid="sold-out-ask"] button').click();
    await item.click();
    await eventually(async () => (await item.getAttribute('data-started')) === 'true', 'a tap starts the line');
    const tapped = Date.now();
    await eventually(async () => Date.now() > tapped + TAP_GUARD_MS + 50, 'past the tap guard');
    await item.click();
    await eventually(async () => (await item.getAttribute('data-done')) === 'true', 'the next tap strikes it');
  });
});
