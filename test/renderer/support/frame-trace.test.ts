// The long-frame split of a Chrome trace (frame-trace.ts) on a small trace of known times: a frame of
// the page's own work, then a long frame made of a task off its core and of idle time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitFrames, type TraceEvent } from './frame-trace.ts';

const MAIN = { pid: 7, tid: 1 };
const COMPOSITOR = { pid: 7, tid: 2 };
const x = (thread: { pid: number; tid: number }, name: string, ts: number, dur: number, tdur = dur): TraceEvent => ({ ...thread, ph: 'X', name, ts, dur, tdur });

const trace: TraceEvent[] = [
  { ...MAIN, ph: 'M', name: 'thread_name', ts: 0, args: { name: 'CrRendererMain' } },
  { ...COMPOSITOR, ph: 'M', name: 'thread_name', ts: 0, args: { name: 'Compositor' } },
  // Another renderer's main thread, with no animation frame: not the page's.
  { pid: 9, tid: 1, ph: 'M', name: 'thread_name', ts: 0, args: { name: 'CrRendererMain' } },
  x({ pid: 9, tid: 1 }, 'RunTask', 0, 90_000),
  // Frame 1 at 0: 2 ms of script, 1 ms of layout, 0.5 ms of paint, in a 5 ms task.
  x(MAIN, 'RunTask', 0, 5_000, 4_000),
  x(MAIN, 'FireAnimationFrame', 100, 2_000),
  x(MAIN, 'FunctionCall', 200, 1_000),
  x(MAIN, 'Layout', 2_500, 1_000),
  x(MAIN, 'Paint', 3_600, 500),
  // Frame 2 at 16.7 ms: 1 ms of script.
  x(MAIN, 'RunTask', 16_700, 1_000),
  x(MAIN, 'FireAnimationFrame', 16_700, 1_000),
  // A task of 40 ms of wall time and 5 ms of CPU (35 ms off its core), the rest of the frame idle.
  x(MAIN, 'RunTask', 20_000, 40_000, 5_000),
  x(MAIN, 'FunctionCall', 20_000, 40_000, 5_000),
  x(COMPOSITOR, 'RunTask', 30_000, 3_000, 2_000),
  // Frame 3 at 100 ms.
  x(MAIN, 'RunTask', 100_000, 1_000),
  x(MAIN, 'FireAnimationFrame', 100_000, 1_000),
];

test('a long frame is split into the main thread’s work, its time off a core, and idle time', () => {
  const summary = splitFrames(trace, 50);
  assert.equal(summary.frames, 2);
  assert.equal(summary.long_frames, 1);
  const [long] = summary.long;
  assert.deepEqual(long, {
    at_ms: 16.7,
    frame_ms: 83.3,
    cpu: { script: 6, style_layout: 0, paint: 0, other: 0 },
    wall: { script: 41, style_layout: 0, paint: 0, other: 0 },
    descheduled_ms: 35,
    idle_ms: 42.3,
    compositor_cpu_ms: 2,
  });
});

test("every frame's own work is counted by kind (self time: a child's time is not its parent's)", () => {
  const { all_total } = splitFrames(trace, 50);
  assert.deepEqual(all_total.cpu, { script: 8, style_layout: 1, paint: 0.5, other: 0.5 });
  assert.equal(all_total.frame_ms, 100);
});

test('a trace without animation frames is refused', () => {
  assert.throws(() => splitFrames(trace.filter((e) => e.name !== 'FireAnimationFrame')), /no animation frames/);
});
