/** Where the engine gets the time from. Tests inject a ManualClock and move it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  private current: number;
  private readonly listeners = new Set<() => void>();

  constructor(start: number | Date | string = '2026-11-21T12:00:00-03:00') {
    this.current = typeof start === 'number' ? start : new Date(start).getTime();
  }

  now(): number {
    return this.current;
  }

  set(to: number | Date | string): void {
    this.current = typeof to === 'number' ? to : new Date(to).getTime();
    for (const listener of this.listeners) listener();
  }

  advance(ms: number): void {
    this.set(this.current + ms);
  }

  /** Called after every move, so jobs driven by this clock can run at once. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
