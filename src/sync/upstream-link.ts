import { backoffDelay, Waker } from './backoff.ts';

/**
 * When to look for the upstream again. A kitchen expects its changes to leave seconds after the
 * network is back, so waits are capped low; tests inject their own to wait no real time.
 */
export interface ReconnectSchedule {
  /** Wait before the next probe after `failures` (0, 1, …) probes that found nobody. */
  probeDelayMs(failures: number): number;
  /** One probe may take this long before it counts as a failure (a black-holed network). */
  probeTimeoutMs: number;
}

/**
 * A probe at most every second (jittered between 0.5 and 1 s once the outage is a few probes
 * old): the upstream is noticed within about a second of its return, at the cost of one tiny
 * request per second per kitchen while offline.
 */
export const KITCHEN_RECONNECT: ReconnectSchedule = {
  probeDelayMs: (failures) => backoffDelay(failures, 250, 1_000),
  probeTimeoutMs: 1_000,
};

/**
 * Whether the upstream can be reached, shared by the replica's loops. A loop whose call found it
 * unreachable reports it (`lost`) and waits (`back`); one prober alone then looks for the
 * upstream with a cheap request on the schedule, and wakes every waiting loop at once when it
 * answers. So the loops never sleep a grown backoff past the upstream's return, and an outage
 * costs one probe per interval instead of one failing call per loop.
 */
export class UpstreamLink {
  private reachable: boolean;
  private waiters: (() => void)[] = [];
  private probing: Promise<void> | null = null;
  private readonly waker = new Waker();

  constructor(
    /** Any answer from the upstream (whatever its status) resolves; no answer rejects. */
    private readonly probe: (signal: AbortSignal) => Promise<void>,
    private readonly schedule: ReconnectSchedule,
    private readonly stopping: AbortSignal,
    reachable: boolean,
  ) {
    this.reachable = reachable;
    stopping.addEventListener('abort', () => this.release(), { once: true });
  }

  get online(): boolean {
    return this.reachable;
  }

  /** An exchange with the upstream succeeded. */
  reached(): void {
    this.reachable = true;
    this.release();
  }

  /** An exchange found the upstream unreachable: probe until it answers again. */
  lost(): void {
    this.reachable = false;
    this.probing ??= this.probeUntilBack().finally(() => (this.probing = null));
  }

  /** Resolves once the upstream is reachable (at once if it is), or when the replica stops. */
  back(): Promise<void> {
    if (this.reachable || this.stopping.aborted) return Promise.resolve();
    this.probing ??= this.probeUntilBack().finally(() => (this.probing = null));
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Waits for the prober to end (the replica stopping). */
  async settled(): Promise<void> {
    this.waker.wake();
    await this.probing;
  }

  private async probeUntilBack(): Promise<void> {
    let failures = 0;
    while (!this.reachable && !this.stopping.aborted) {
      await this.waker.sleep(this.schedule.probeDelayMs(failures), this.stopping);
      if (this.stopping.aborted || this.reachable) break;
      try {
        await this.probe(AbortSignal.any([this.stopping, AbortSignal.timeout(this.schedule.probeTimeoutMs)]));
        this.reached();
      } catch {
        failures++;
      }
    }
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
