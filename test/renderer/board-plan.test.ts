// The board's plan, apart from React: lanes take ticket columns by the work they hold, an empty lane
// shrinks to its header, a ticket taller than the screen runs on into the next column, and a phone
// pages its lanes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { boardMetrics, estimateTicketHeight, flowColumns, planBoard, share } from '../../src/renderer/src/board-plan.ts';

const tv = boardMetrics({ width: 1920, height: 1080 }, 'comfortable');
const tablet = boardMetrics({ width: 1280, height: 800 }, 'comfortable');
const lanes = (...counts: number[]) => counts.map((n, i) => ({ id: `lane-${i}`, heights: Array(n).fill(200) }));

describe('board plan', () => {
  test('type is larger on a TV and never under 14 px', () => {
    assert.equal(tv.fontSize >= 18, true);
    for (const m of [tablet, boardMetrics({ width: 390, height: 844 }, 'compact')]) assert.ok(m.fontSize >= 14);
  });

  test('column-major flow: tickets fill a column, then the next; a ticket taller than a column runs over', () => {
    assert.equal(flowColumns([], 600, 8).columns, 0);
    const three = flowColumns([200, 200, 200, 200], 650, 8);
    assert.equal(three.columns, 2);
    assert.equal(three.inView(1), 3);
    const tall = flowColumns([100, 900, 100], 600, 8);
    assert.deepEqual(tall.split, [1]);
    assert.equal(tall.columns, 3);
    assert.equal(tall.inView(3), 2);
  });

  test('share: sums exactly, each at least the floor, by largest remainder', () => {
    assert.deepEqual(share(6, [6, 4, 2], 1), [3, 2, 1]);
    assert.deepEqual(share(5, [1, 1, 1], 1), [2, 2, 1]);
    assert.deepEqual(share(2, [5, 5, 5], 1), [1, 1, 1]);
    assert.deepEqual(share(4, [0, 0], 0), [0, 0]);
  });

  test('lanes take columns by their work; an empty lane is a narrow header; space goes to tickets', () => {
    const plan = planBoard({ width: 1900, height: 950, metrics: tv, lanes: lanes(23, 15, 7, 0) });
    assert.equal(plan.paged, false);
    const [fresh, cooking, ready, out] = plan.lanes;
    assert.equal(out!.collapsed, true);
    assert.equal(out!.width, tv.collapsedWidth);
    assert.ok(fresh!.columns > cooking!.columns && cooking!.columns > ready!.columns && ready!.columns >= 1, JSON.stringify(plan.lanes));
    assert.equal(fresh!.columns + cooking!.columns + ready!.columns, 6);
    assert.ok(plan.cardWidth >= tv.minCardWidth);
    const used = plan.lanes.reduce((w, l) => w + l.width, 0) + tv.gap * 3;
    assert.ok(used <= 1900 && used > 1900 - plan.cardWidth, `lanes use the width: ${used}`);
    assert.ok(plan.inView >= 12, `${plan.inView} in view`);
  });

  test('with room to spare each lane gets what it needs and the rest follows the tickets', () => {
    const plan = planBoard({ width: 1900, height: 950, metrics: tv, lanes: lanes(2, 1, 0, 0) });
    assert.deepEqual(plan.lanes.map((l) => l.needed), [1, 1, 0, 0]);
    assert.equal(plan.lanes[0]!.columns + plan.lanes[1]!.columns, Math.floor((1900 - 2 * (tv.collapsedWidth + tv.gap) + tv.gap) / (tv.minCardWidth + tv.gap)));
    assert.equal(plan.inView, 3);
  });

  test('a phone shows one lane at a time, paged; a portrait tablet fits three lanes with work', () => {
    const phone = boardMetrics({ width: 390, height: 844 }, 'comfortable');
    const plan = planBoard({ width: 378, height: 650, metrics: phone, lanes: lanes(20, 10, 5, 0), page: 1 });
    assert.equal(plan.paged, true);
    assert.equal(plan.pages, 4);
    assert.deepEqual(plan.lanes.map((l) => l.shown), [false, true, false, false]);
    assert.equal(plan.lanes[1]!.columns, 1);
    const portrait = planBoard({ width: 788, height: 1100, metrics: boardMetrics({ width: 800, height: 1280 }, 'compact'), lanes: lanes(20, 10, 5, 0) });
    assert.equal(portrait.paged, false);
    assert.ok(portrait.lanes.slice(0, 3).every((l) => l.columns >= 1));
  });

  test('a taller ticket is estimated taller; a wider card wraps less', () => {
    const small = { items: [{ text: '1× Barros Luco', modifiers: 0, note: null }], extraLines: 1, note: null, hasActions: true };
    const big = { ...small, items: Array(9).fill({ text: '2× Completo italiano', modifiers: 2, note: 'sin mayo' }) };
    assert.ok(estimateTicketHeight(big, 250, 15) > estimateTicketHeight(small, 250, 15) * 3);
    const long = { ...small, items: [{ text: '2× Empanada de camarón queso con pebre y salsa de la casa', modifiers: 0, note: null }] };
    assert.ok(estimateTicketHeight(long, 200, 15) > estimateTicketHeight(long, 500, 15));
  });
});
