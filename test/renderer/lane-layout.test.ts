// The replay's cook lanes (issue 33): a bar that slid past the window's left edge is cut there and its
// label starts at the edge, whole, instead of at the bar's hidden start (where it was cut: "#1" of
// "#142"); a label shows only where it fits whole inside what is seen of its bar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LaneBar } from '../../src/shared/kitchen-replay.ts';
import { boxAt, LANE_GAP, LANE_HEIGHT, laneBoxes, pixelInstant, TOUCH_SLOP } from '../../src/renderer/src/reports/lane-layout.ts';

const MIN = 60_000;
const WINDOW = 30 * MIN;
const AT = 100 * MIN;
/** 600 px for the 30 minutes: 20 px a minute. */
const WIDTH = 600;
/** 7 px a character, as a 12 px font about measures. */
const measure = (text: string) => text.length * 7;
const bar = (from: number, to: number, lane = 0, cooking = false): LaneBar => ({ lane, product: 'Completo', quantity: 1, number: '142', from: from * MIN, to: to * MIN, cooking });

test('a bar started before the window is cut at the left edge, its label at the edge', () => {
  const [box] = laneBoxes([bar(60, 80)], AT, WINDOW, WIDTH, measure);
  assert.equal(box!.x, 0);
  assert.equal(box!.width, 10 * 20);
  assert.deepEqual(box!.label, { x: 3, text: '#142' });
});

test('a label stays inside what is seen of its bar, or is not drawn', () => {
  for (const [from, to] of [[60, 71.4], [69, 71.4], [80, 82], [99.5, 100], [75, 90], [95, 100]] as const) {
    const [box] = laneBoxes([bar(from, to, 1, to === 100)], AT, WINDOW, WIDTH, measure);
    assert.ok(box!.x >= 0 && box!.x + box!.width <= WIDTH, `the bar ${from}–${to} is within the lanes`);
    assert.equal(box!.y, LANE_HEIGHT + LANE_GAP);
    if (box!.label) {
      assert.ok(box!.label.x >= box!.x, `label after the bar's seen start (${from}–${to})`);
      assert.ok(box!.label.x + measure(box!.label.text) <= box!.x + box!.width, `label within the bar's seen end (${from}–${to})`);
    }
  }
  // 1.4 minutes seen (28 px): "#142" (28 px + 6) does not fit, so no label; 2 minutes (40 px) it does.
  assert.equal(laneBoxes([bar(60, 71.4)], AT, WINDOW, WIDTH, measure)[0]!.label, null);
  assert.notEqual(laneBoxes([bar(60, 72)], AT, WINDOW, WIDTH, measure)[0]!.label, null);
});

test('a bar still cooking ends at the instant, the right edge', () => {
  const [box] = laneBoxes([bar(90, 100, 0, true)], AT, WINDOW, WIDTH, measure);
  assert.equal(box!.x + box!.width, WIDTH);
  assert.equal(box!.cooking, true);
});

test('a point over a bar finds that bar; a point between bars or lanes finds none, a touch the nearest within its slop', () => {
  // Lane 0: 70–80 (x 0–200) and 85–90 (x 300–400); lane 1: 95–100 cooking (x 500–600).
  const boxes = laneBoxes([bar(70, 80), bar(85, 90), bar(95, 100, 1, true)], AT, WINDOW, WIDTH, measure);
  const row1 = LANE_HEIGHT + LANE_GAP;
  assert.equal(boxAt(boxes, 100, 9), 0);
  assert.equal(boxAt(boxes, 350, 0), 1);
  assert.equal(boxAt(boxes, 550, row1 + 9), 2);
  assert.equal(boxAt(boxes, 250, 9), -1, 'between two bars of a lane');
  assert.equal(boxAt(boxes, 550, 9), -1, 'right of lane 0\'s last bar: lane 1\'s bar is not taken');
  assert.equal(boxAt(boxes, 100, LANE_HEIGHT + 1), -1, 'the gap between lanes');
  assert.equal(boxAt(boxes, 100, -1), -1);
  // A finger 5 px right of the first bar, or in the gap below it, still takes it; 20 px off takes none.
  assert.equal(boxAt(boxes, 205, 9, TOUCH_SLOP), 0);
  assert.equal(boxAt(boxes, 100, LANE_HEIGHT + 2, TOUCH_SLOP), 0);
  assert.equal(boxAt(boxes, 296, 9, TOUCH_SLOP), 1, 'the nearest of two bars');
  assert.equal(boxAt(boxes, 250, 9, TOUCH_SLOP), -1);
});

test('played, the lanes paint an instant only when the window slid a whole pixel: the boxes in between move by less than one', () => {
  // 600 device px for 30 minutes: a pixel is 3 s.
  const perPixel = WINDOW / WIDTH;
  assert.equal(perPixel, 3000);
  const bars = [bar(80, 95), bar(90, 120, 1, true)];
  const start = AT + 1000;
  const painted = pixelInstant(start, WINDOW, WIDTH);
  assert.equal(painted, AT, 'the latest whole pixel at or before the instant');
  for (let at = start; at < AT + perPixel; at += 500) {
    assert.equal(pixelInstant(at, WINDOW, WIDTH), painted, `${at - AT} ms past the pixel: nothing new to paint`);
    // What the canvas shows (the pixel's instant) is less than a pixel from the instant's own boxes.
    const shown = laneBoxes(bars, painted, WINDOW, WIDTH, measure);
    const exact = laneBoxes(bars, at, WINDOW, WIDTH, measure);
    shown.forEach((box, i) => {
      assert.ok(Math.abs(box.x - exact[i]!.x) < 1 && Math.abs(box.x + box.width - (exact[i]!.x + exact[i]!.width)) < 1, `box ${i} within a pixel at +${at - AT} ms`);
    });
  }
  assert.equal(pixelInstant(AT + perPixel, WINDOW, WIDTH), AT + perPixel, 'the next pixel paints');
  assert.equal(pixelInstant(AT + 1234, WINDOW, 0), AT + 1234, 'a canvas not laid out yet: the instant itself');
});
