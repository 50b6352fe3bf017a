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
export async function rush(k: ServedKitchen, count = 45): Promise<{ id: string; number: string; state: RushState; items: number }[]> {
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
  return made.map((m, i) => ({ id: m.id, number: m.number, state: states[i] ?? 'recibido', items: bodies[i]!.items.length }));
}

/** tsx names the functions a test declares inside page.evaluate with its helper `__name`: the page gets one. */
export async function keepNames(page: Page): Promise<void> {
  await page.evaluate('globalThis.__name ??= (f) => f');
}

export interface RushMeasure {
  /** Tickets wholly in view (every fragment of it drawn, inside the window and its lane) and not covered. */
  whole: number;
  /** Tickets drawn in more than one fragment. */
  split: number;
  minItemPx: number;
  aboveFirstRow: number;
  pageScrollsSideways: boolean;
  /** The least-filled column in view of a lane with tickets out of view (1 when none hides any). */
  minCoverage: number;
  /** Every ticket with any part in view: its number and bump whole in view, the bump what a touch at its centre reaches. */
  reachable: number;
  problems: string[];
}

/** What a cook sees at a glance: tickets wholly in view and reachable, columns filled, and what is wrong. */
export async function measureBoard(page: Page): Promise<RushMeasure> {
  await keepNames(page);
  return page.evaluate(() => {
    const problems: string[] = [];
    let minItemPx = Infinity;
    let firstRow = Infinity;
    const within = (r: DOMRect, clip: DOMRect) =>
      r.top >= Math.max(0, clip.top) - 0.5 && r.bottom <= Math.min(window.innerHeight, clip.bottom) + 0.5 && r.left >= Math.max(0, clip.left) - 0.5 && r.right <= Math.min(window.innerWidth, clip.right) + 0.5;
    const touches = (el: Element) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit !== null && (hit === el || el.contains(hit));
    };
    const byTicket = new Map<string, HTMLElement[]>();
    for (const el of document.querySelectorAll<HTMLElement>('.lanes article[data-order-id]')) {
      const id = el.dataset.orderId!;
      byTicket.set(id, [...(byTicket.get(id) ?? []), el]);
    }
    let whole = 0;
    let split = 0;
    let reachable = 0;
    for (const fragments of byTicket.values()) {
      const parts = Number(fragments[0]!.dataset.parts ?? 1);
      if (parts > 1) split++;
      let all = fragments.length === parts;
      let anyInView = false;
      let reached = true;
      for (const el of fragments) {
        const r = el.getBoundingClientRect();
        const clip = el.closest('.lane-body')!.getBoundingClientRect();
        const inside = within(r, clip) && touches(el);
        if (!inside) all = false;
        const visible = r.bottom > Math.max(0, clip.top) && r.top < Math.min(window.innerHeight, clip.bottom) && r.right > Math.max(0, clip.left) && r.left < Math.min(window.innerWidth, clip.right);
        if (!visible) continue;
        anyInView = true;
        const number = el.querySelector<HTMLElement>('.ticket-number')!;
        if (!within(number.getBoundingClientRect(), clip)) {
          reached = false;
          problems.push(`#${el.dataset.number} part ${el.dataset.part}: its number is not wholly in view`);
        }
        const bump = el.querySelector<HTMLElement>('[data-testid="bump"]');
        if (bump) {
          const b = bump.getBoundingClientRect();
          if (!within(b, clip) || !touches(bump)) {
            reached = false;
            problems.push(`#${el.dataset.number} part ${el.dataset.part}: its bump is not wholly in view or not what a touch at its centre reaches`);
          }
          if (b.height < 48 || b.width < 48) problems.push(`#${el.dataset.number} bump is ${b.width.toFixed(0)}×${b.height.toFixed(0)} px`);
          if (bump.scrollWidth > bump.clientWidth + 1) problems.push(`#${el.dataset.number} "${bump.innerText}" is clipped`);
        }
        if (inside) {
          firstRow = Math.min(firstRow, r.top);
          for (const name of el.querySelectorAll<HTMLElement>('.item-name')) minItemPx = Math.min(minItemPx, parseFloat(getComputedStyle(name).fontSize));
          if (el.scrollWidth > el.clientWidth + 1) problems.push(`#${el.dataset.number} overflows sideways`);
        }
      }
      if (all) whole++;
      if (anyInView && reached) reachable++;
    }
    let minCoverage = 1;
    for (const lane of document.querySelectorAll<HTMLElement>('.lanes .lane[data-hidden]')) {
      if (Number(lane.dataset.hidden) === 0) continue;
      // The fragments are placed over their columns (BoardView.tsx): a column holds those within its sides.
      const slots = [...lane.querySelectorAll<HTMLElement>('.fragment-slot')].map((slot) => slot.getBoundingClientRect());
      for (const column of lane.querySelectorAll<HTMLElement>('.lane-column')) {
        const c = column.getBoundingClientRect();
        const bottom = Math.max(-Infinity, ...slots.filter((r) => r.left >= c.left - 0.5 && r.right <= c.right + 0.5).map((r) => r.bottom));
        const covered = bottom > c.top ? (Math.min(bottom, c.bottom) - c.top) / c.height : 0;
        minCoverage = Math.min(minCoverage, covered);
      }
    }
    const root = document.documentElement;
    return {
      whole,
      split,
      reachable,
      minCoverage,
      minItemPx: minItemPx === Infinity ? 0 : minItemPx,
      aboveFirstRow: firstRow === Infinity ? Infinity : Math.round(firstRow),
      pageScrollsSideways: root.scrollWidth > root.clientWidth || document.body.scrollWidth > document.body.clientWidth,
      problems,
    };
  });
}

/** Text cut without an ellipsis: an element whose own text overflows its box and does not say so. */
export async function cutText(page: Page): Promise<string[]> {
  await keepNames(page);
  return page.evaluate(() => {
    const cut: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('.app *')) {
      if (!el.offsetParent || el.children.length > 0 || !el.textContent?.trim()) continue;
      const style = getComputedStyle(el);
      const overflows = el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible';
      if (overflows && style.textOverflow !== 'ellipsis') cut.push(`"${el.textContent.trim().slice(0, 40)}" (${el.className || el.tagName})`);
    }
    return cut;
  });
}
