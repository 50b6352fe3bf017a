import type { Engine } from '../engine.ts';
import type { MailSender } from '../mail/mail-sender.ts';
import { dueUnpaidOrders, expireUnpaidOrder } from '../services/orders/expire-unpaid-orders.ts';
import { purgeExpiredIdempotencyKeys } from '../services/orders/idempotency-retention.ts';
import { DEFAULT_COURIER_TIMEOUT_MS } from '../services/delivery/follow-courier-deliveries.ts';
import { staleOnlinePaymentOpenings, withdrawOnlineOrder } from '../services/payments/open-online-payment.ts';
import { dueScheduledOrders, releaseScheduledOrder } from '../services/orders/release-scheduled-orders.ts';
import { silentLogger, type JobsLogger } from './jobs-logger.ts';
import { followDueCourierDeliveries } from './follow-couriers.ts';
import { followDuePaymentActions } from './follow-payments.ts';
import type { Providers } from '../providers.ts';
import { DEFAULT_PAYMENT_ACTION_TIMEOUT_MS, quietPaymentSessions, requestPaymentSearch } from '../services/payments/payment-actions.ts';
import { sendQueuedMail } from './send-queued-mail.ts';
import { LEARNING_DAYS, learnRestaurantPrepTimes, timingsLoggedAfter } from '../services/kitchen/learn-prep-times.ts';
import { listRestaurants } from '../services/keys/restaurant-context.ts';
import { evaluateBusyMode } from '../services/kitchen/busy-mode.ts';
import { fireDueHeldLines, locationsWithHeldLines } from '../services/kitchen/held-lines.ts';
import { followPromiseSlips, locationsToFollow } from '../services/kitchen/promise-slips.ts';
import { printLanes } from './send-print-jobs.ts';
import { keepRecentReportDays } from '../services/reports/keep-report-days.ts';
import { DEFAULT_PRINT_TIMEOUT_MS, purgeFinishedPrintJobs, requeueCutJobs } from '../services/printing/print-jobs.ts';
import { OtherProcessWriting } from '../other-writers.ts';

export interface JobsOptions {
  /** Real-time period of the background tick, in ms (default 1000). */
  intervalMs?: number;
  logger?: JobsLogger;
  /** How long one courier call may take (real time) before it counts as failed; default 10 s. */
  courierTimeoutMs?: number;
  /** How long one payment provider call may take (real time); default 10 s. */
  paymentTimeoutMs?: number;
  /** The real-time deadline of each phase of sending a print job (a ticket's answer grows with its size); default 10 s. */
  printTimeoutMs?: number;
}

export interface JobsRunner {
  /**
   * Runs everything due at the engine clock's now: a pass of the database jobs, then a courier pass
   * and a mail pass; the returned promise waits for them all.
   */
  runDue(): Promise<void>;
  /**
   * Settles when the database jobs' pass under way (if any, with the re-runs asked of it) is over:
   * what a test that moves a ManualClock (which starts a pass) awaits before looking or moving it again.
   */
  databaseJobs(): Promise<void>;
  /** Sets (or removes, with null) the mail sender; the runner closes the one it replaces. */
  setMailSender(sender: MailSender | null): void;
  readonly mailSender: MailSender | null;
  /**
   * Stops the tick, waits for the passes under way (the database jobs', couriers', payments',
   * printers', mail's) and closes the mail sender: after it nothing of the runner uses the database.
   */
  stop(): Promise<void>;
}

/** A clock that says when it moves (ManualClock), so due work can run at once. */
interface ObservableClock {
  onChange(listener: () => void): () => void;
}

const isObservable = (clock: unknown): clock is ObservableClock =>
  typeof (clock as Partial<ObservableClock>).onChange === 'function';

/** A failing item is left alone for this long (engine clock) before it is tried again, so it cannot flood the log. */
const QUARANTINE_MS = 60_000;

interface DatabaseJob {
  name: string;
  due: (engine: Engine) => Promise<string[]>;
  run: (engine: Engine, id: string) => Promise<unknown>;
}

/** Each item of each job runs in its own transaction (inside the service), so one bad item blocks nothing. */
/** Prep times are learned again this often (engine time): what a promise uses moves with the evening. */
export const LEARNING_INTERVAL_MS = 10 * 60_000;

const DATABASE_JOBS: readonly DatabaseJob[] = [
  { name: 'expire-unpaid-orders', due: async (engine) => await dueUnpaidOrders(engine), run: expireUnpaidOrder },
  { name: 'release-scheduled-orders', due: async (engine) => await dueScheduledOrders(engine), run: releaseScheduledOrder },
  { name: 'withdraw-unopened-payments', due: async (engine) => await staleOnlinePaymentOpenings(engine), run: withdrawOnlineOrder },
  { name: 'reconcile-quiet-payments', due: async (engine) => await quietPaymentSessions(engine), run: requestPaymentSearch },
  // Issue 32: lines held to finish with their order, fired when their station's queue says so.
  { name: 'fire-held-lines', due: async (engine) => await locationsWithHeldLines(engine), run: fireDueHeldLines },
  // Issue 32: an open order whose predicted ready time slipped past its promise gets a new one.
  { name: 'follow-promise-slips', due: async (engine) => await locationsToFollow(engine), run: followPromiseSlips },
];

/**
 * Another process holds the SQLite file's write lock (a CLI, a database shell): the database pass
 * (run without waiting for it, Engine.inBackground) stops where it is, leaves what it was doing as
 * it was (no item set aside, nothing counted as done) and runs again on the next tick.
 */
const otherProcessWriting = (error: unknown): error is OtherProcessWriting => error instanceof OtherProcessWriting;

/** Closed days are looked for this often (engine time); a day is stored within this of its close (2 hours after midnight). */
export const REPORT_DAYS_INTERVAL_MS = 10 * 60_000;
/** Days stored per tick while a backlog lasts (each ~50 ms: the writer is never held long). */
const REPORT_DAYS_PER_TICK = 1;

/**
 * Work that calls outside parties, outside any transaction: one pass at a time; asking for one
 * while it runs makes it run again once done. Returns the kick, which resolves when the pass is over.
 */
function serialPass(run: () => Promise<void>, onError: (error: unknown) => void): (() => Promise<void>) & { settled(): Promise<void> } {
  let pass: Promise<void> | null = null;
  let again = false;
  const kick = (): Promise<void> => {
    if (pass) {
      again = true;
      return pass;
    }
    pass = (async () => {
      do {
        again = false;
        await run();
      } while (again);
    })()
      .catch(onError)
      .finally(() => {
        pass = null;
      });
    return pass;
  };
  /** The pass under way, if any (asking for none), or at once. */
  const settled = (): Promise<void> => pass ?? Promise.resolve();
  return Object.assign(kick, { settled });
}

/**
 * The engine's background work, all found from the database (so a restart loses nothing) and
 * timed by the engine's clock: cancelling unpaid online orders, releasing scheduled orders,
 * performing courier intents (dispatch, retries, status checks, cancellations) and sending queued
 * mail. What calls an outside party (couriers, SMTP) runs outside any transaction.
 * It runs on a real-time tick and, with a ManualClock, every time a test moves the clock.
 * A replica runs none of it (its upstream does) but the printing: its printers are its own.
 *
 * `providers` (assembled where the app starts) are whom the intents are performed with: couriers,
 * payment providers (payment reads after a webhook, refunds), the printer port (print jobs), and the
 * mail sender the runner starts with (swapped at run time by setMailSender, when the app's settings change).
 */
export async function startJobs(engine: Engine, providers: Providers, options: JobsOptions = {}): Promise<JobsRunner> {
  const log = options.logger ?? silentLogger;
  let sender: MailSender | null = providers.mail;
  let stopped = false;
  let mailPass: Promise<void> | null = null;
  let mailAgain = false;
  const quarantine = new Map<string, number>();
  const active = engine.role !== 'replica';

  let lastPurgeAt = Number.NEGATIVE_INFINITY;
  /** Expired idempotency answers and finished print jobs, once a minute of engine time (a replica keeps its own too). */
  const purgeIdempotencyKeys = async (): Promise<void> => {
    const now = engine.clock.now();
    if (stopped || !engine.isOpen || now - lastPurgeAt < QUARANTINE_MS) return;
    const previous = lastPurgeAt;
    lastPurgeAt = now;
    // Each purge deletes only what is due: one the file's lock stopped is simply done next tick.
    const purge = async (job: string, work: () => Promise<unknown>) => {
      try {
        await work();
      } catch (error) {
        if (otherProcessWriting(error)) {
          lastPurgeAt = previous;
          throw error;
        }
        log.error({ err: error, job }, 'job failed; it runs again in a minute');
      }
    };
    await purge('purge-idempotency-keys', async () => await purgeExpiredIdempotencyKeys(engine));
    // Bounded per pass: a backlog goes a batch a minute, the writer never held long.
    await purge('purge-print-jobs', async () => await purgeFinishedPrintJobs(engine));
  };

  let lastLearningAt = Number.NEGATIVE_INFINITY;
  /** Per restaurant, the engine time its log was last learned from (in memory: a restart learns once more). */
  const learnedUpTo = new Map<string, number>();
  /**
   * Prep times learned again from the item timing log, every LEARNING_INTERVAL_MS of engine time
   * (issue 32), for a restaurant whose log has grown since: a quiet one is not written.
   */
  const learnPrepTimes = async (): Promise<void> => {
    const now = engine.clock.now();
    if (!active || stopped || !engine.isOpen || now - lastLearningAt < LEARNING_INTERVAL_MS) return;
    const previous = lastLearningAt;
    lastLearningAt = now;
    const restaurants = await listRestaurants(engine).catch((error: unknown) => {
      lastLearningAt = previous;
      throw error;
    });
    for (const restaurant of restaurants) {
      try {
        const since = learnedUpTo.get(restaurant.id) ?? now - LEARNING_DAYS * 24 * 3_600_000;
        if (!await timingsLoggedAfter(engine, restaurant.id, since)) continue;
        await learnRestaurantPrepTimes(engine, restaurant.id);
        learnedUpTo.set(restaurant.id, now);
      } catch (error) {
        // The restaurants not learned yet are learned on the next tick (the learned ones are not written again).
        if (otherProcessWriting(error)) {
          lastLearningAt = previous;
          throw error;
        }
        log.error({ err: error, job: 'learn-prep-times', id: restaurant.id }, 'job failed; it runs again later');
      }
    }
  };

  /** Busy mode follows the kitchen's wait every tick (issue 32); a restaurant without it costs one read. */
  const followBusyMode = async (): Promise<void> => {
    if (!active || stopped || !engine.isOpen) return;
    for (const restaurant of await listRestaurants(engine)) {
      try {
        await evaluateBusyMode(engine, restaurant.id);
      } catch (error) {
        if (otherProcessWriting(error)) throw error;
        log.error({ err: error, job: 'busy-mode', id: restaurant.id }, 'job failed; it runs again on the next tick');
      }
    }
  };

  let lastReportDaysAt = Number.NEGATIVE_INFINITY;
  let reportDaysBacklog = false;
  /**
   * Informes' closed days stored as they close (issue 33), every REPORT_DAYS_INTERVAL_MS of engine
   * time, and on every tick while days wait to be stored (after an upgrade, a change of cooks).
   */
  const keepReportDays = async (): Promise<void> => {
    const now = engine.clock.now();
    if (!active || stopped || !engine.isOpen || (!reportDaysBacklog && now - lastReportDaysAt < REPORT_DAYS_INTERVAL_MS)) return;
    const previous = lastReportDaysAt;
    lastReportDaysAt = now;
    try {
      reportDaysBacklog = (await keepRecentReportDays(engine, REPORT_DAYS_PER_TICK)).more;
    } catch (error) {
      if (otherProcessWriting(error)) {
        lastReportDaysAt = previous;
        throw error;
      }
      reportDaysBacklog = false;
      log.error({ err: error, job: 'keep-report-days' }, 'job failed; it runs again later');
    }
  };

  let keyUseFailing = false;
  /** Database passes skipped in a row because another process held the file (said once, then when it is over). */
  let writeLockSkips = 0;
  /** API keys' last uses, noted in memory by authentication (a replica's local keys too). */
  const writeKeyUses = async (): Promise<void> => {
    if (stopped || !engine.isOpen) return;
    try {
      await engine.flushKeyUses();
      // Issue 33: busy mode's refused orders, noted in memory (their transactions were undone).
      await engine.flushBusyRefusals();
      keyUseFailing = false;
    } catch (error) {
      // Still in memory (flushKeyUses and flushBusyRefusals keep what they could not write).
      if (otherProcessWriting(error)) throw error;
      // Kept in memory and tried again next tick; said once, not every second (a full disk).
      if (!keyUseFailing) log.error({ err: error, job: 'write-key-uses' }, 'job failed; it runs again on the next tick');
      keyUseFailing = true;
    }
  };

  const databasePass = async (): Promise<void> => {
    await engine.inBackground(databaseWork);
    if (writeLockSkips > 0) log.info({ job: 'database-jobs', skipped: writeLockSkips }, 'the database file is free again: the jobs run');
    writeLockSkips = 0;
  };

  const databaseWork = async (): Promise<void> => {
    await writeKeyUses();
    await purgeIdempotencyKeys();
    await learnPrepTimes();
    await followBusyMode();
    await keepReportDays();
    if (!active || stopped || !engine.isOpen) return;
    for (const job of DATABASE_JOBS) {
      let ids: string[];
      try {
        ids = await job.due(engine);
      } catch (error) {
        if (otherProcessWriting(error)) throw error;
        log.error({ err: error, job: job.name }, 'job could not look for due work');
        continue;
      }
      const now = engine.clock.now();
      for (const id of ids) {
        if (stopped) return;
        const key = `${job.name}:${id}`;
        const until = quarantine.get(key);
        if (until !== undefined && until > now) continue;
        try {
          await job.run(engine, id);
          quarantine.delete(key);
        } catch (error) {
          // Not the item's fault: it is not set aside, the next tick tries it again.
          if (otherProcessWriting(error)) throw error;
          quarantine.set(key, now + QUARANTINE_MS);
          log.error({ err: error, job: job.name, id }, 'job item failed; the others go on');
        }
      }
    }
  };

  /**
   * The database jobs, one pass at a time: asked again while one runs (the clock moved, the tick),
   * it runs once more after it, so every change of the clock is seen by a pass (the kitchen's wait
   * three minutes later is another reading than a minute later), and the kick resolves after that one.
   */
  const runDatabaseJobs = serialPass(databasePass, (error) => {
    if (!otherProcessWriting(error)) {
      log.error({ err: error, job: 'database-jobs' }, 'jobs pass failed; it runs again on the next tick');
      return;
    }
    // Said once until the file is free again, not every second.
    if (writeLockSkips++ === 0) log.warn({ job: 'database-jobs' }, 'another program holds the database file\'s write lock: the jobs skip their database work until it lets go');
  });

  const kickMail = (): Promise<void> => {
    if (mailPass) {
      mailAgain = true;
      return mailPass;
    }
    const current = sender;
    if (!active || stopped || current === null || !engine.isOpen) return Promise.resolve();
    const shouldStop = () => stopped || sender !== current || !engine.isOpen;
    mailPass = (async () => {
      do {
        mailAgain = false;
        await sendQueuedMail(engine, current, log, shouldStop);
      } while (mailAgain && !shouldStop());
    })()
      .catch((error: unknown) => log.error({ err: error }, 'mail pass failed'))
      .finally(() => {
        mailPass = null;
        // Asked for while it ran with a sender since replaced: the new sender gets its own pass.
        if (mailAgain && !stopped) void kickMail();
      });
    return mailPass;
  };

  const courierTimeoutMs = options.courierTimeoutMs ?? DEFAULT_COURIER_TIMEOUT_MS;
  let courierPass: Promise<void> | null = null;
  const kickCouriers = serialPass(
    async () => {
      if (!active || stopped || !engine.isOpen) return;
      await followDueCourierDeliveries(engine, providers.couriers, log, courierTimeoutMs, () => stopped || !engine.isOpen);
    },
    (error) => log.error({ err: error, job: 'follow-courier-deliveries' }, 'courier pass failed'),
  );
  const trackedCourierPass = (): Promise<void> => {
    const pass = kickCouriers();
    courierPass = pass;
    void pass.finally(() => {
      if (courierPass === pass) courierPass = null;
    });
    return pass;
  };

  const payments = providers.payments;
  const paymentTimeoutMs = options.paymentTimeoutMs ?? DEFAULT_PAYMENT_ACTION_TIMEOUT_MS;
  let paymentPass: Promise<void> | null = null;
  const kickPayments = serialPass(
    async () => {
      if (!active || stopped || !engine.isOpen) return;
      await followDuePaymentActions(engine, payments, log, paymentTimeoutMs, () => stopped || !engine.isOpen);
    },
    (error) => log.error({ err: error, job: 'follow-payments' }, 'payment pass failed'),
  );
  const trackedPaymentPass = (): Promise<void> => {
    const pass = kickPayments();
    paymentPass = pass;
    void pass.finally(() => {
      if (paymentPass === pass) paymentPass = null;
    });
    return pass;
  };

  const printTimeoutMs = options.printTimeoutMs ?? DEFAULT_PRINT_TIMEOUT_MS;
  // Printers are the restaurant's own, on its network: a replica (the restaurant's hub) prints what
  // reaches it, its upstream cannot. So printing runs whatever the role.
  if (engine.isOpen) {
    try {
      // Before any send of this process: a job still `sending` was cut off by the last one's end.
      const cut = await requeueCutJobs(engine);
      if (cut > 0) log.warn({ job: 'send-print-jobs', cut }, 'print jobs cut off mid-send are printed again, marked REIMPRESIÓN');
    } catch (error) {
      log.error({ err: error, job: 'send-print-jobs' }, 'could not look for print jobs cut off mid-send');
    }
  }
  // Each printer in a lane of its own: a printer slow or stuck on a ticket holds no other's.
  const lanes = printLanes(engine, providers.printers, log, printTimeoutMs, () => stopped || !engine.isOpen);
  const trackedPrintPass = (): Promise<void> => (stopped || !engine.isOpen ? Promise.resolve() : lanes.kick());

  const runDue = async (): Promise<void> => {
    await runDatabaseJobs();
    // Payments run beside couriers; couriers before mail: a dispatch recorded before the "ready"
    // mail goes out puts its tracking link in it.
    return Promise.all([trackedPrintPass(), trackedPaymentPass(), trackedCourierPass().then(() => kickMail())]).then(() => {});
  };

  const timer = setInterval(() => void runDue(), options.intervalMs ?? 1000);
  timer.unref();
  const unsubscribe = isObservable(engine.clock) ? engine.clock.onChange(() => void runDue()) : () => {};
  // Catch up with whatever fell due while the engine was not running.
  void runDue();

  return {
    runDue,
    databaseJobs: () => runDatabaseJobs.settled(),
    get mailSender() {
      return sender;
    },
    setMailSender(next: MailSender | null): void {
      const previous = sender;
      sender = next;
      if (previous && previous !== next) {
        const closePrevious = () => previous.close();
        if (mailPass) void mailPass.then(closePrevious);
        else closePrevious();
      }
      void kickMail();
    },
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      unsubscribe();
      // Issue 35: a database pass under way would otherwise go on after the pool is closed.
      await runDatabaseJobs.settled();
      if (courierPass) await courierPass;
      if (paymentPass) await paymentPass;
      await lanes.stop();
      if (mailPass) await mailPass;
      sender?.close();
    },
  };
}
