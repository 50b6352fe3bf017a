// The project's rush (src/shared/demo-rush.ts) at its peak on a served engine, the sizes of the
// screens a kitchen uses, and what a cook sees at a glance on one of them.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { DEMO_NOW } from '../../support/engine-under-test.ts';
import { rushOrder, rushPeakStates, stepsTo, type RushState } from '../../../src/shared/demo-rush.ts';
import type { ServedKitchen } from '../../engine/http/kitchen/served-kitchen.ts';

/** Each size a kitchen uses, and the tickets that must be wholly in view there at the rush's peak (issue 28). */
export const RUSH_VIEWPORTS = [
  { name: 'tv', width: 1920, height: 1080, atLeast: 14, itemPx: 18 },
  { name: 'landscape', width: 1280, height: 800, atLeast: 6, itemPx: 14 },
  { name: 'ipad-landscape', width: 1180, height: 820, atLeast: 6, itemPx: 14 },
  { name: 'ipad-portrait', width: 820, height: 1180, atLeast: 6, itemPx: 14 },
  { name: 'portrait', width: 800, height: 1280, atLeast: 6, itemPx: 14 },
  { name: 'phone', width: 390, height: 844, atLeast: 2, itemPx: 14 },
] as const;

/**
 * The order at `i` of the project's rush (src/shared/demo-rush.ts), scheduled against the engine's
 * demo clock; `{ scheduled: false }` leaves a scheduled one for now (tests that want it on the lanes).
 */
export function eveningOrder(i: number, options: { scheduled?: boolean } = {}): Record<string, unknown> {
  const { scheduled_for, ...body } = rushOrder(i, { now: Date.parse(DEMO_NOW) });
  return options.scheduled === false || scheduled_for === undefined ? body : { ...body, scheduled_for };
}

/**
 * The rush at its peak (src/shared/demo-rush.ts): `count` orders posted over the API, oldest first,
 * then moved by PATCH so that 45 of them stand 25 new, 10 preparing, 8 ready, 2 out for delivery.
 */
export async function rush(k: ServedKitchen, count = 45): Promise<{ id: string; number: string; state: RushState }[]> {
  const bodies = Array.from({ length: count }, (_, i) => rushOrder(i, { now: Date.parse(DEMO_NOW) }));
  const made: { id: string; number: string }[] = [];
  for (const body of bodies) {
    const created = await k.call('POST', '/orders', { body });
    assert.equal(created.status, 201, created.text);
    made.push(created.body);
  }
  const states = rushPeakStates(bodies.slice(0, 45));
  for (const [index, state] of states.entries()) {
    for (const target of stepsTo(state, bodies[index]!.type)) {
      const moved = await k.call('PATCH', `/orders/${made[index]!.id}`, { body: { status: target } });
      assert.equal(moved.status, 200, moved.text);
    }
  }
  return made.map((m, i) => ({ id: m.id, number: m.number, state: states[i] ?? 'recibido' }));
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

