// The replay's frames (issue 33): while playing, an instant that draws the same board as the last one
// keeps it (the screen then skips redrawing it); anything that changes the board (an order moving,
// ready, late) does not. The lanes' bars of an instant, found by binary search over an index built
// once, are exactly those a full frame finds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { barsAt, changeInstants, changeKey, laneIndex, replayFrame, sameBoard, type KitchenReplay, type LaneBar } from '../../src/shared/kitchen-replay.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 28, 23);
const WINDOW = 30 * MIN;

/** Order 1 fired at 0, ready at 10 (promised 8), delivered at 15; order 2 fired at 5; one line each at the plancha. */
const replay: KitchenReplay = {
  location_id: 'l',
  day: '2026-11-28',
  time_zone: 'America/Santiago',
  start: T0,
  end: T0 + 60 * MIN,
  orders: [
    { id: 'a', number: '1', states: [[T0, 'en_preparacion'], [T0 + 10 * MIN, 'listo'], [T0 + 15 * MIN, 'entregado']], promised_ready_at: T0 + 8 * MIN, ready_at: T0 + 10 * MIN },
    { id: 'b', number: '2', states: [[T0 + 5 * MIN, 'en_preparacion']], promised_ready_at: null, ready_at: null },
  ],
  lines: [
    { order: 0, station_id: 'plancha', product: 'Completo', quantity: 1, fired_at: T0, work_from: T0 + MIN, done_at: T0 + 10 * MIN, lane: 0 },
    { order: 1, station_id: 'plancha', product: 'Completo', quantity: 1, fired_at: T0 + 5 * MIN, work_from: T0 + 5 * MIN, done_at: null, lane: null },
  ],
  stations: [{ station_id: 'plancha', name: 'Plancha', lanes: 2 }],
  truncated: false,
};

const frameAt = (minutes: number) => ({ at: T0 + minutes * MIN, frame: replayFrame(replay, T0 + minutes * MIN, WINDOW) });
const boardsSame = (a: number, b: number) => {
  const x = frameAt(a);
  const y = frameAt(b);
  return sameBoard(x.frame.columns, y.frame.columns, x.at, y.at);
};
const barsOf = (minutes: number) => barsAt(laneIndex(replay)[0]!, T0 + minutes * MIN, WINDOW);

test('a second of service later with nothing happening draws the same board; a bar still cooking ends at the instant', () => {
  assert.equal(boardsSame(2, 2 + 1 / 60), true);
  assert.deepEqual(barsOf(2), [{ lane: 0, product: 'Completo', quantity: 1, number: '1', from: T0 + MIN, to: T0 + 2 * MIN, cooking: true }]);
  assert.equal(barsOf(2 + 1 / 60)[0]!.to, T0 + (2 + 1 / 60) * MIN);
});

test('an order arriving, passing its promise, being ready or leaving changes the board', () => {
  assert.equal(boardsSame(4.9, 5), false, 'order 2 arrives');
  assert.equal(boardsSame(7.9, 8.1), false, 'order 1 is late');
  assert.equal(boardsSame(9.9, 10), false, 'order 1 is ready');
  assert.equal(boardsSame(14.9, 15), false, 'order 1 is handed over');
  assert.equal(boardsSame(11, 14), true);
});

test('a line is done, then leaves the 30-minute window', () => {
  assert.equal(barsOf(9.9)[0]!.cooking, true);
  assert.deepEqual(barsOf(10), [{ lane: 0, product: 'Completo', quantity: 1, number: '1', from: T0 + MIN, to: T0 + 10 * MIN, cooking: false }]);
  assert.deepEqual(barsOf(39.9), barsOf(10));
  assert.deepEqual(barsOf(40.1), []);
  assert.deepEqual(barsOf(0.5), [], 'not before a cook took it');
});

/** A busy service: 300 orders over 3 hours, 1-3 lines each over two stations, cooks of varied speed, some lines never done. */
function busyService(): KitchenReplay {
  const orders: KitchenReplay['orders'] = [];
  const lines: KitchenReplay['lines'] = [];
  for (let n = 0; n < 300; n++) {
    const fired = T0 + n * 36_000;
    orders.push({ id: `o${n}`, number: String(n + 1), states: [[fired, 'en_preparacion']], promised_ready_at: null, ready_at: null });
    for (let line = 0; line < 1 + (n % 3); line++) {
      const station = (n + line) % 2 === 0 ? 'plancha' : 'fríos';
      const from = fired + ((n * 13 + line * 7) % 9) * MIN;
      const never = (n * 31 + line) % 41 === 0;
      // Some bars far longer than the window (a dish left on for an hour).
      const took = (n % 47 === 0 ? 70 : 2 + ((n * 7 + line * 3) % 17)) * MIN + line * 1000;
      lines.push({ order: n, station_id: station, product: `p${line}`, quantity: 1, fired_at: fired, work_from: from, done_at: never ? null : from + took, lane: never ? null : (n + line) % 4 });
    }
  }
  return { ...replay, end: T0 + 4 * 60 * MIN, orders, lines, stations: [{ station_id: 'plancha', name: 'Plancha', lanes: 4 }, { station_id: 'fríos', name: 'Fríos', lanes: 4 }] };
}

test('the indexed bars of an instant (binary search) are exactly the bars a full frame finds, at every instant of a busy service', () => {
  const busy = busyService();
  const index = laneIndex(busy);
  const key = (bars: readonly LaneBar[]) => bars.map((b) => `${b.from}|${b.lane}|${b.number}|${b.product}|${b.quantity}|${b.to}|${b.cooking}`).sort();
  let compared = 0;
  for (let at = busy.start - 5 * MIN; at <= busy.end; at += 17_000) {
    const frame = replayFrame(busy, at, WINDOW);
    for (const station of index) {
      const expected = frame.stations.find((s) => s.station_id === station.station_id)!.bars;
      assert.deepEqual(key(barsAt(station, at, WINDOW)), key(expected), `${station.station_id} at +${(at - busy.start) / MIN} min`);
      compared += expected.length;
    }
  }
  assert.ok(compared > 10_000, `many bars compared (${compared})`);
});

test('two instants of one change key draw the same frame but for the bars still cooking growing; the key moves at each change', () => {
  // The busy service with each order's promise, its ready time, its moves to listo and entregado, and some cancelled.
  const plain = busyService();
  const busy: KitchenReplay = {
    ...plain,
    orders: plain.orders.map((order, n) => {
      const fired = order.states[0]![0];
      const mine = plain.lines.filter((line) => line.order === n);
      const ready = mine.every((line) => line.done_at !== null) ? Math.max(...mine.map((line) => line.done_at!)) : null;
      const promised = fired + (8 + (n % 9)) * MIN;
      if (n % 23 === 5) return { ...order, states: [...order.states, [fired + 3 * MIN, 'cancelado']], promised_ready_at: promised };
      return { ...order, states: ready === null ? order.states : [...order.states, [ready, 'listo'], [ready + 8 * MIN, 'entregado']], promised_ready_at: promised, ready_at: ready };
    }),
  };
  const instants = changeInstants(busy, WINDOW);
  assert.ok(instants.every((instant, i) => i === 0 || instant > instants[i - 1]!), 'sorted, each once');
  // Every change instant, just before and just after it (a played instant is fractional), and steps between.
  const probes = [...instants.flatMap((c) => [c - 0.5, c, c + 0.25]), ...Array.from({ length: 2000 }, (_, i) => busy.start + i * 7_919.5)].sort((a, b) => a - b);
  const drawn = (at: number) => {
    const frame = replayFrame(busy, at, WINDOW);
    const bars = frame.stations.map((s) => `${s.station_id}:${s.queue}:${s.bars.map((b) => `${b.lane}|${b.number}|${b.from}|${b.cooking}|${b.cooking ? '' : b.to}`).join(',')}`);
    return { frame, rest: JSON.stringify([frame.queue, bars]) };
  };
  let same = 0;
  let moved = 0;
  let previous = { at: probes[0]!, key: changeKey(instants, probes[0]!), ...drawn(probes[0]!) };
  for (const at of probes.slice(1)) {
    const current = { at, key: changeKey(instants, at), ...drawn(at) };
    if (current.key === previous.key) {
      same++;
      assert.ok(sameBoard(previous.frame.columns, current.frame.columns, previous.at, at), `the board at ${at - busy.start} ms`);
      assert.equal(current.rest, previous.rest, `the queues and bars at ${at - busy.start} ms`);
    } else moved++;
    previous = current;
  }
  assert.ok(same > 1000 && moved > 1000, `both kinds compared (${same} same key, ${moved} moved)`);
  for (const c of instants.slice(0, 200)) assert.notEqual(changeKey(instants, c), changeKey(instants, c - 0.5), 'a change instant starts a key');
});

test('the indexed bars come oldest first, and a bar longer than the window is still found while it shows', () => {
  const busy = busyService();
  const [plancha] = laneIndex(busy);
  const long = plancha!.bars.find((b) => b.done - b.from >= 70 * MIN)!;
  const shown = barsAt(plancha!, long.from + 65 * MIN, WINDOW);
  assert.ok(shown.some((b) => b.from === long.from && b.number === long.number && b.cooking), 'a bar started 65 minutes ago still cooking');
  for (let i = 1; i < shown.length; i++) assert.ok(shown[i - 1]!.from <= shown[i]!.from);
});
