// Where a long frame's time went, from a Chrome trace (devtools.timeline categories; issue 33's
// replay e2e writes one with REPLAY_TRACE). A frame is the page's animation-frame task on the
// renderer's main thread; a frame is long when the next one started more than `longMs` after it.
// Each long frame's span is split by what the main thread did in it:
// - script, style+layout, paint (paint, layer updates, commit) and other work: the self time of
//   the trace's events of each kind, in wall time and in the thread's CPU time (`tdur`);
// - descheduled: time inside a task the thread spent off a core (a task's wall time minus its CPU);
// - idle: time with no task on the main thread at all (waiting for the next frame's signal: from
//   the compositor thread, itself waiting for a core or for the GPU process, or nothing to do).
// A long frame made of the page's work shows as script, style+layout or paint CPU; one made of a
// busy machine shows as descheduled or idle, with little CPU.

/** A trace event as Chrome writes it (microseconds). */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  cat?: string;
  args?: { name?: string; data?: Record<string, unknown> };
}

export type WorkKind = 'script' | 'style_layout' | 'paint' | 'other';

/** What a main-thread event's name says it is (its self time counts there); a task's own time and anything else is "other". */
const KINDS: [RegExp, WorkKind][] = [
  [/^(FunctionCall|EvaluateScript|FireAnimationFrame|FireIdleCallback|TimerFire|EventDispatch|RunMicrotasks|ResizeObserver|MessagePort::Accept|SerializedScriptValue|AsyncTask Run)|^v8\.|^V8\.|GC/, 'script'],
  [/Layout|Style|PrePaint|CompositingInputs|HitTest|Intersection/, 'style_layout'],
  [/Paint|Layer|Commit|Canvas|Image|Composit|SharedImage|Raster/, 'paint'],
];
const kindOf = (name: string): WorkKind => KINDS.find(([pattern]) => pattern.test(name))?.[1] ?? 'other';

/** A main-thread event with its span clipped later. */
interface Span {
  name: string;
  start: number;
  end: number;
  cpu: number;
  depth: number;
  /** Its children's wall and CPU time (to find its self time). */
  childWall: number;
  childCpu: number;
}

export interface FrameSplit {
  /** When the long frame's span started, ms from the first frame of the trace. */
  at_ms: number;
  frame_ms: number;
  /** The main thread's own work in it, CPU ms (wall ms in `wall`). */
  cpu: Record<WorkKind, number>;
  wall: Record<WorkKind, number>;
  /** Inside a task, off a core (wall minus CPU). */
  descheduled_ms: number;
  /** No task on the main thread. */
  idle_ms: number;
  /** The renderer's compositor thread's CPU in the span (ms). */
  compositor_cpu_ms: number;
}

export interface FrameTraceSummary {
  frames: number;
  long_frames: number;
  /** Sums over the long frames (ms). */
  long_total: Omit<FrameSplit, 'at_ms'>;
  /** Sums over every frame (ms). */
  all_total: Omit<FrameSplit, 'at_ms'>;
  long: FrameSplit[];
}

const zero = (): Record<WorkKind, number> => ({ script: 0, style_layout: 0, paint: 0, other: 0 });

function threadIds(events: readonly TraceEvent[], threadName: string): { pid: number; tid: number }[] {
  return events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === threadName).map((e) => ({ pid: e.pid, tid: e.tid }));
}

/** A thread's complete events (X, or B/E pairs made whole), sorted, with their depth and children's time. */
function spansOf(events: readonly TraceEvent[], pid: number, tid: number): Span[] {
  const mine = events.filter((e) => e.pid === pid && e.tid === tid && (e.ph === 'X' || e.ph === 'B' || e.ph === 'E'));
  const spans: Span[] = [];
  const open: TraceEvent[] = [];
  for (const e of [...mine].sort((a, b) => a.ts - b.ts)) {
    if (e.ph === 'X') spans.push({ name: e.name, start: e.ts, end: e.ts + (e.dur ?? 0), cpu: e.tdur ?? e.dur ?? 0, depth: 0, childWall: 0, childCpu: 0 });
    else if (e.ph === 'B') open.push(e);
    else {
      const begin = open.pop();
      if (begin) spans.push({ name: begin.name, start: begin.ts, end: e.ts, cpu: e.ts - begin.ts, depth: 0, childWall: 0, childCpu: 0 });
    }
  }
  // Outer first: by start, then the longer first, then a task before what it ran.
  spans.sort((a, b) => a.start - b.start || b.end - a.end || Number(b.name === 'RunTask') - Number(a.name === 'RunTask'));
  const stack: Span[] = [];
  for (const span of spans) {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= span.start) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) {
      span.depth = parent.depth + 1;
      parent.childWall += span.end - span.start;
      parent.childCpu += span.cpu;
    }
    stack.push(span);
  }
  return spans;
}

/** The part of [start, end) inside [from, to), as a fraction of it. */
const overlap = (start: number, end: number, from: number, to: number) => (end <= start ? 0 : Math.max(0, Math.min(end, to) - Math.max(start, from)) / (end - start));

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Splits each frame of the page's main thread longer than `longMs` by what the thread did in it.
 * The main thread is the renderer's whose tasks ran animation frames.
 */
export function splitFrames(events: readonly TraceEvent[], longMs = 50): FrameTraceSummary {
  const mains = threadIds(events, 'CrRendererMain');
  const frameTasksOf = (pid: number, tid: number) => events.filter((e) => e.pid === pid && e.tid === tid && e.name === 'FireAnimationFrame');
  const main = mains.map((m) => ({ ...m, count: frameTasksOf(m.pid, m.tid).length })).sort((a, b) => b.count - a.count)[0];
  if (!main || main.count === 0) throw new Error('no animation frames in the trace');
  const spans = spansOf(events, main.pid, main.tid);
  const tasks = spans.filter((s) => s.depth === 0);
  // A frame starts with the top-level task that fired its animation-frame callbacks.
  const fired = spans.filter((s) => s.name === 'FireAnimationFrame');
  const frameStarts: number[] = [];
  let t = 0;
  for (const f of fired) {
    while (t < tasks.length && tasks[t]!.end < f.start) t++;
    const start = t < tasks.length && tasks[t]!.start <= f.start ? tasks[t]!.start : f.start;
    if (frameStarts[frameStarts.length - 1] !== start) frameStarts.push(start);
  }
  const compositor = threadIds(events, 'Compositor').find((c) => c.pid === main.pid);
  const compositorSpans = compositor ? spansOf(events, compositor.pid, compositor.tid).filter((s) => s.depth === 0) : [];

  const split = (from: number, to: number): FrameSplit => {
    const cpu = zero();
    const wall = zero();
    let taskWall = 0;
    let taskCpu = 0;
    for (const span of spans) {
      if (span.end <= from || span.start >= to) continue;
      const share = overlap(span.start, span.end, from, to);
      const selfWall = Math.max(0, span.end - span.start - span.childWall) * share;
      const selfCpu = Math.max(0, span.cpu - span.childCpu) * share;
      const kind = span.depth === 0 ? 'other' : kindOf(span.name);
      wall[kind] += selfWall / 1000;
      cpu[kind] += selfCpu / 1000;
      if (span.depth === 0) {
        taskWall += (span.end - span.start) * share;
        taskCpu += span.cpu * share;
      }
    }
    let compositorCpu = 0;
    for (const span of compositorSpans) compositorCpu += span.cpu * overlap(span.start, span.end, from, to);
    const span = (to - from) / 1000;
    return {
      at_ms: round((from - frameStarts[0]!) / 1000),
      frame_ms: round(span),
      cpu: { script: round(cpu.script), style_layout: round(cpu.style_layout), paint: round(cpu.paint), other: round(cpu.other) },
      wall: { script: round(wall.script), style_layout: round(wall.style_layout), paint: round(wall.paint), other: round(wall.other) },
      descheduled_ms: round(Math.max(0, taskWall - taskCpu) / 1000),
      idle_ms: round(Math.max(0, span - taskWall / 1000)),
      compositor_cpu_ms: round(compositorCpu / 1000),
    };
  };
  const add = (total: Omit<FrameSplit, 'at_ms'>, f: FrameSplit) => {
    total.frame_ms += f.frame_ms;
    for (const k of Object.keys(total.cpu) as WorkKind[]) {
      total.cpu[k] += f.cpu[k];
      total.wall[k] += f.wall[k];
    }
    total.descheduled_ms += f.descheduled_ms;
    total.idle_ms += f.idle_ms;
    total.compositor_cpu_ms += f.compositor_cpu_ms;
  };
  const empty = (): Omit<FrameSplit, 'at_ms'> => ({ frame_ms: 0, cpu: zero(), wall: zero(), descheduled_ms: 0, idle_ms: 0, compositor_cpu_ms: 0 });
  const long: FrameSplit[] = [];
  const longTotal = empty();
  const allTotal = empty();
  for (let i = 1; i < frameStarts.length; i++) {
    const f = split(frameStarts[i - 1]!, frameStarts[i]!);
    add(allTotal, f);
    if (f.frame_ms > longMs) {
      long.push(f);
      add(longTotal, f);
    }
  }
  const rounded = (total: Omit<FrameSplit, 'at_ms'>): Omit<FrameSplit, 'at_ms'> => ({
    frame_ms: round(total.frame_ms),
    cpu: { script: round(total.cpu.script), style_layout: round(total.cpu.style_layout), paint: round(total.cpu.paint), other: round(total.cpu.other) },
    wall: { script: round(total.wall.script), style_layout: round(total.wall.style_layout), paint: round(total.wall.paint), other: round(total.wall.other) },
    descheduled_ms: round(total.descheduled_ms),
    idle_ms: round(total.idle_ms),
    compositor_cpu_ms: round(total.compositor_cpu_ms),
  });
  return { frames: Math.max(0, frameStarts.length - 1), long_frames: long.length, long_total: rounded(longTotal), all_total: rounded(allTotal), long };
}
