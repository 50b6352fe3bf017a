// A Friday-night rush for the board's tests: 45 orders of an evening's spread, the sizes of the
// screens a kitchen uses, and what a cook sees at a glance on one of them.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { R1 } from '../../support/demo-ids.ts';
import type { ServedKitchen } from '../../engine/http/kitchen/served-kitchen.ts';

/** Each size a kitchen uses, and the tickets that must be wholly in view there with 45 orders. */
export const RUSH_VIEWPORTS = [
  { name: 'tv', width: 1920, height: 1080, atLeast: 12, itemPx: 18 },
  { name: 'landscape', width: 1280, height: 800, atLeast: 6, itemPx: 14 },
  { name: 'ipad-landscape', width: 1180, height: 820, atLeast: 6, itemPx: 14 },
  { name: 'ipad-portrait', width: 820, height: 1180, atLeast: 4, itemPx: 14 },
  { name: 'portrait', width: 800, height: 1280, atLeast: 4, itemPx: 14 },
  { name: 'phone', width: 390, height: 844, atLeast: 2, itemPx: 14 },
] as const;

/** An evening's spread of orders: pickups and deliveries, cash and paid, modifiers and notes. */
export function eveningOrder(i: number): Record<string, unknown> {
  const items = [
    [
      { product_id: R1.products.completo, quantity: 2, modifier_option_ids: [R1.options.paltaExtra, R1.options.tomateExtra] },
      { product_id: R1.products.bebidaLata, quantity: 2 },
    ],
    [
      { product_id: R1.products.churrasco, quantity: 1, modifier_option_ids: [R1.options.marraqueta], notes: 'sin mayo' },
      { product_id: R1.products.cazuela, quantity: 1 },
    ],
    [{ product_id: R1.products.empanadaCamaronQueso, quantity: 24 }],
    [{ product_id: R1.products.barrosLuco, quantity: 1, notes: i % 8 === 3 ? 'ALERGIA al maní' : null }],
  ][i % 4]!.map((item) => Object.fromEntries(Object.entries(item).filter(([, v]) => v !== null)));
  const delivery = i % 3 === 0;
  return {
    location_id: R1.openLocation,
    type: delivery ? 'delivery' : 'retiro',
    customer: { name: `Cliente ${i}`, phone: `+56 9 5555 ${String(1000 + i)}` },
    items,
    ...(delivery ? { address: 'Av. Irarrázaval 3100, Ñuñoa' } : {}),
  };
}

/** 45 active orders: a third in preparation, a sixth ready, the rest new. */
export async function rush(k: ServedKitchen, count = 45): Promise<{ id: string; number: string }[]> {
  const made: { id: string; number: string }[] = [];
  for (let i = 0; i < count; i++) {
    const created = await k.call('POST', '/orders', { body: eveningOrder(i) });
    assert.equal(created.status, 201, created.text);
    made.push(created.body);
  }
  for (const [index, order] of made.entries()) {
    if (index % 3 === 1 || index % 6 === 2) assert.equal((await k.call('PATCH', `/orders/${order.id}`, { body: { status: 'en_preparacion' } })).status, 200);
    if (index % 6 === 2) assert.equal((await k.call('PATCH', `/orders/${order.id}`, { body: { status: 'listo' } })).status, 200);
  }
  return made;
}

export interface RushMeasure {
  whole: number;
  split: number;
  minItemPx: number;
  aboveFirstRow: number;
  pageScrollsSideways: boolean;
  problems: string[];
}

/** What a cook sees at a glance: tickets wholly in view (inside the window and their lane), and what is wrong. */
export async function measureBoard(page: Page): Promise<RushMeasure> {
  return page.evaluate(() => {
    const problems: string[] = [];
    let whole = 0;
    let split = 0;
    let minItemPx = Infinity;
    let firstRow = Infinity;
    const lanesTop = document.querySelector('.lanes')?.getBoundingClientRect().top ?? 0;
    for (const el of document.querySelectorAll<HTMLElement>('.lanes article[data-order-id]')) {
      if (el.getClientRects().length > 1) split++;
      const r = el.getBoundingClientRect();
      const clip = el.closest('.column-tickets')!.getBoundingClientRect();
      const inside =
        el.getClientRects().length === 1 &&
        r.top >= Math.max(0, clip.top) - 0.5 &&
        r.bottom <= Math.min(window.innerHeight, clip.bottom) + 0.5 &&
        r.left >= Math.max(0, clip.left) - 0.5 &&
        r.right <= Math.min(window.innerWidth, clip.right) + 0.5;
      if (!inside) continue;
      whole++;
      firstRow = Math.min(firstRow, r.top);
      for (const name of el.querySelectorAll<HTMLElement>('.item-name')) minItemPx = Math.min(minItemPx, parseFloat(getComputedStyle(name).fontSize));
      for (const button of el.querySelectorAll<HTMLElement>('[data-testid="bump"], [data-testid="cancel"]')) {
        const b = button.getBoundingClientRect();
        if (b.height < 48 || b.width < 48) problems.push(`#${el.dataset.number} ${button.dataset.testid} is ${b.width.toFixed(0)}×${b.height.toFixed(0)} px`);
        if (button.scrollWidth > button.clientWidth + 1) problems.push(`#${el.dataset.number} "${button.innerText}" is clipped`);
      }
      if (el.scrollWidth > el.clientWidth + 1) problems.push(`#${el.dataset.number} overflows sideways`);
    }
    const root = document.documentElement;
    return {
      whole,
      split,
      minItemPx: minItemPx === Infinity ? 0 : minItemPx,
      aboveFirstRow: firstRow === Infinity ? Infinity : Math.round(firstRow),
      lanesTop,
      pageScrollsSideways: root.scrollWidth > root.clientWidth || document.body.scrollWidth > document.body.clientWidth,
      problems,
    };
  });
}

