// The board's plan, apart from React: lanes take ticket columns by the work they hold, an empty lane
// shrinks to its header, tickets flow like a newspaper (a ticket that does not fit the rest of a
// column continues at the top of the next as a fragment under its own header), lanes page by whole
// columns, and a phone pages its lanes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { boardMetrics, estimateTicket, flowLane, FRAGMENT_PAD, headHeight, planBoard, share, ticketsInView, ticketsNearView, viewLane, type TicketHeights } from '../../src/renderer/src/board-plan.ts';

const tv = boardMetrics({ width: 1920, height: 1080 }, 'comfortable');
const tablet = boardMetrics({ width: 1280, height: 800 }, 'comfortable');
const ticket = (...blocks: number[]): TicketHeights => ({ head: 50, blocks });
const lanes = (...counts: number[]) => counts.map((n, i) => ({ id: `lane-${i}`, tickets: Array.from({ length: n }, () => ticket(60, 60)) }));
const fill = (column: { height: number }[], gap: number) => column.reduce((h, f) => h + f.height, 0) + gap * Math.max(0, column.length - 1);

describe('board plan', () => {
  test('type is larger on a TV and never under 14 px; every header holds a 48 px bump', () => {
    assert.equal(tv.fontSize >= 18, true);
    for (const m of [tablet, boardMetrics({ width: 390, height: 844 }, 'compact')]) assert.ok(m.fontSize >= 14);
    for (const size of [14, 15, 19]) assert.ok(headHeight(size) >= 48);
  });

  test('newspaper flow: a ticket that does not fit the rest of a column continues at the top of the next', () => {
    // 600 px columns: 50 + 2×100 + 10 = 260 each; the third starts at 536 and has room for its header only…
    const flow = flowLane([ticket(100, 100), ticket(100, 100), ticket(100, 100), ticket(100, 100)], 600, 8);
    // …so it moves whole (no body would fit); the fourth fits under it.
    assert.deepEqual(flow.columns.map((c) => c.map((f) => `${f.ticket}:${f.from}-${f.to}`)), [['0:0-2', '1:0-2'], ['2:0-2', '3:0-2']]);
    // A column of 700: the third's first item fits what is left, the second continues next column.
    const split = flowLane([ticket(100, 100), ticket(100, 100), ticket(100, 100, 100)], 700, 8);
    assert.deepEqual(split.columns.map((c) => c.map((f) => `${f.ticket}:${f.from}-${f.to} ${f.part + 1}/${f.parts}`)), [['0:0-2 1/1', '1:0-2 1/1', '2:0-1 1/2'], ['2:1-3 2/2']]);
    assert.deepEqual(split.spans, [[0, 0], [0, 0], [0, 1]]);
    assert.equal(ticketsInView(split, 0, 1), 2);
    assert.equal(ticketsInView(split, 0, 2), 3);
    // No column holds more than its height.
    for (const column of split.columns) assert.ok(fill(column, 8) <= 700);
  });

  test('no holes: while a lane has tickets beyond a column, the column is at least 85% full', () => {
    // The rush's sizes: 1 to 12 items of one line (26 px) or with modifiers and notes (up to 74 px),
    // on a TV column and tablet columns. A hole is smaller than a header and one item.
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const tickets = Array.from({ length: 60 }, () => ticket(...Array.from({ length: 1 + Math.floor(random() * 12) }, () => (random() < 0.6 ? 26 : 50 + Math.floor(random() * 24)))));
    for (const height of [950, 650, 1000]) {
      const flow = flowLane(tickets, height, 8);
      flow.columns.slice(0, -1).forEach((column, i) => assert.ok(fill(column, 8) >= height * 0.85, `column ${i} of ${height}: ${fill(column, 8)} px`));
      // Every part of a ticket is there once, in order.
      tickets.forEach((t, index) => {
        const parts = flow.columns.flat().filter((f) => f.ticket === index);
        assert.equal(parts[0]!.from, 0);
        assert.equal(parts.at(-1)!.to, t.blocks.length);
        for (let k = 1; k < parts.length; k++) assert.equal(parts[k]!.from, parts[k - 1]!.to);
      });
    }
  });

  test('a block taller than a column is drawn alone in one; a ticket with no body is its header', () => {
    const flow = flowLane([ticket(40), ticket(900), ticket()], 600, 8);
    assert.deepEqual(flow.columns.map((c) => c.map((f) => `${f.ticket}:${f.from}-${f.to}`)), [['0:0-1'], ['1:0-1'], ['2:0-0']]);
    assert.equal(flow.columns[1]![0]!.height, 600);
    assert.equal(flow.columns[2]![0]!.height, 50 + FRAGMENT_PAD);
  });

  test('a lane pages by whole columns ("2/3"), and a ticket to reveal brings its columns into view', () => {
    const flow = flowLane(Array.from({ length: 20 }, () => ticket(100, 100)), 600, 8); // 2 a column: 10 columns
    assert.equal(flow.columns.length, 10);
    const first = viewLane(flow, 4, 0);
    assert.deepEqual({ start: first.start, page: first.page, pages: first.pages, inView: first.inView, hidden: first.hidden }, { start: 0, page: 1, pages: 3, inView: 8, hidden: 12 });
    assert.equal(viewLane(flow, 4, 4).page, 2);
    // Past the end (the lane shrank): back to the last whole page.
    assert.equal(viewLane(flow, 4, 40).start, 8);
    // Ticket 15 is in column 7: in view from there.
    const revealed = viewLane(flow, 4, 0, 15);
    assert.ok(revealed.start <= 7 && revealed.start + 4 > 7, JSON.stringify(revealed));
    // A ticket already in view moves nothing.
    assert.equal(viewLane(flow, 4, 0, 3).start, 0);
  });

  test('share: sums exactly, each at least the floor, by largest remainder', () => {
    assert.deepEqual(share(6, [6, 4, 2], 1), [3, 2, 1]);
    assert.deepEqual(share(5, [1, 1, 1], 1), [2, 2, 1]);
    assert.deepEqual(share(2, [5, 5, 5], 1), [1, 1, 1]);
    assert.deepEqual(share(4, [0, 0], 0), [0, 0]);
  });

  test('lanes take columns by their work; an empty lane is a narrow header; space goes to tickets', () => {
    const plan = planBoard({ width: 1900, height: 950, metrics: tv, lanes: lanes(40, 25, 12, 0) });
    assert.equal(plan.paged, false);
    const [fresh, cooking, ready, out] = plan.lanes;
    assert.equal(out!.collapsed, true);
    assert.equal(out!.width, tv.collapsedWidth);
    assert.ok(fresh!.columns > cooking!.columns && cooking!.columns > ready!.columns && ready!.columns >= 1, JSON.stringify(plan.lanes));
    assert.equal(fresh!.columns + cooking!.columns + ready!.columns, 6);
    assert.ok(plan.cardWidth >= tv.minCardWidth);
    const used = plan.lanes.reduce((w, l) => w + l.width, 0) + tv.gap * 3;
    assert.ok(used <= 1900 && used > 1900 - plan.cardWidth, `lanes use the width: ${used}`);
    assert.ok(plan.inView >= 30, `${plan.inView} in view`);
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

  test('a phone spends its rows on tickets: a thinner lane header, the ticket\'s buttons in its header; every header holds its 48 px bump', () => {
    const phone = boardMetrics({ width: 390, height: 844 }, 'compact');
    const tabletCompact = boardMetrics({ width: 1280, height: 800 }, 'compact');
    assert.ok(phone.laneHead < tabletCompact.laneHead);
    assert.ok(phone.laneHead >= 32, 'room for the lane pager, a touch target');
    assert.equal(phone.buttonsInHead, true);
    assert.equal(tabletCompact.buttonsInHead, false);
    assert.equal(tv.buttonsInHead, false);
    assert.equal(headHeight(phone.fontSize), 48);
  });

  test('a taller ticket is estimated taller; a wider card wraps less; the header is the same for all', () => {
    const small = { blocks: [{ texts: ['1× Barros Luco'], lines: 0, extra: 4 }] };
    const big = { blocks: Array.from({ length: 9 }, () => ({ texts: ['2× Completo italiano', 'sin mayo'], lines: 2, extra: 4 })) };
    const sum = (h: TicketHeights) => h.head + h.blocks.reduce((a, b) => a + b, 0);
    assert.ok(sum(estimateTicket(big, 250, 15)) > sum(estimateTicket(small, 250, 15)) * 3);
    const long = { blocks: [{ texts: ['2× Empanada de camarón queso con pebre y salsa de la casa'], lines: 0, extra: 4 }] };
    assert.ok(estimateTicket(long, 200, 15).blocks[0]! > estimateTicket(long, 500, 15).blocks[0]!);
    assert.equal(estimateTicket(big, 250, 15).head, estimateTicket(small, 250, 15).head);
  });
  test('the tickets near the view: those drawn in part or whole, then the next columns\' own, bounded', () => {
    // 280 px columns hold two 128 px tickets; the fifth (346 px) is split over columns 2 and 3.
    const flow = flowLane([ticket(70), ticket(70), ticket(70), ticket(70), ticket(70, 70, 70, 70), ticket(70), ticket(70), ticket(70), ticket(70), ticket(70)], 280, 8);
    assert.deepEqual(flow.spans.slice(0, 8), [[0, 0], [0, 0], [1, 1], [1, 1], [2, 3], [3, 3], [4, 4], [4, 4]]);
    // Columns 0–1 in view, none ahead: the four drawn.
    assert.deepEqual(ticketsNearView(flow, 0, 2, 0, 50), [0, 1, 2, 3]);
    // One column ahead: the fifth too, whose first part would come into view first.
    assert.deepEqual(ticketsNearView(flow, 0, 2, 1, 50), [0, 1, 2, 3, 4]);
    // A view further on: the split ticket is drawn in part, so it is near; the earlier ones are not.
    assert.deepEqual(ticketsNearView(flow, 3, 1, 1, 50), [4, 5, 6, 7]);
    // Bounded.
    assert.deepEqual(ticketsNearView(flow, 0, 2, 2, 3), [0, 1, 2]);
    // Past the lane's end: nothing.
    assert.deepEqual(ticketsNearView(flow, 40, 2, 2, 50), []);
  });
});
