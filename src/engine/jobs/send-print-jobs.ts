import { callWithTimeout } from '../adapters/call-with-timeout.ts';
import type { Engine } from '../engine.ts';
import { renderTicket, type PrinterCodePage } from '../printers/escpos-ticket.ts';
import { newSendProgress, PrinterError, sendDeadlineMs, type PrinterPort } from '../printers/printer-port.ts';
import { errorText } from '../services/error-text.ts';
import { claimNextJob, printersWithJobs, recordSend, settleFallbackJobs, type SendOutcome } from '../services/printing/print-jobs.ts';
import type { JobsLogger } from './jobs-logger.ts';

/** Printer states a failed send leaves: paper out when the printer said so, unreachable for anything else. */
const stateOf = (error: unknown): 'unreachable' | 'paper_out' => (error instanceof PrinterError && error.failure === 'paper_out' ? 'paper_out' : 'unreachable');

/**
 * One lane per printer: its jobs one after the other in order (claim → send with a deadline, no
 * transaction open → record), apart from the other printers', so a slow or stuck printer never
 * holds another's tickets. `kick` starts a lane for each printer with due work and none running,
 * and resolves once every lane running has ended; `idle` waits for them without starting any;
 * `stop` cuts the sends under way short and waits for the lanes to end.
 */
export interface PrintLanes {
  kick(): Promise<void>;
  idle(): Promise<void>;
  /**
   * A send cut short by the engine stopping is not recorded: its job stays `sending`, so the next
   * start prints it again, marked REIMPRESIÓN, as after a crash; it never counts against the printer.
   */
  stop(): Promise<void>;
}

export function printLanes(engine: Engine, printers: PrinterPort, log: JobsLogger, phaseMs: number, shouldStop: () => boolean): PrintLanes {
  const running = new Map<string, Promise<void>>();
  const stopping = new AbortController();
  const start = (printerId: string): void => {
    if (running.has(printerId) || stopping.signal.aborted) return;
    const lane = servePrinter(engine, printers, log, phaseMs, () => shouldStop() || stopping.signal.aborted, stopping.signal, printerId)
      .catch((error: unknown) => log.error({ err: error, job: 'send-print-jobs' }, 'print lane failed'))
      .finally(() => running.delete(printerId));
    running.set(printerId, lane);
  };
  const idle = async (): Promise<void> => {
    while (running.size > 0) await Promise.all(running.values());
  };
  return {
    async kick() {
      if (shouldStop()) return idle();
      try {
        await settleFallbackJobs(engine);
      } catch (error) {
        log.error({ err: error, job: 'send-print-jobs' }, 'fallback tickets could not be looked at');
      }
      try {
        for (const printerId of await printersWithJobs(engine)) await start(printerId);
      } catch (error) {
        log.error({ err: error, job: 'send-print-jobs' }, 'could not look for print jobs');
      }
      await Promise.all(running.values());
    },
    idle,
    async stop() {
      stopping.abort(new Error('the engine is stopping'));
      await idle();
    },
  };
}

/** Sends a printer's due jobs in order until none is due, one fails or the runner stops; a send under way is always recorded. */
async function servePrinter(
  engine: Engine,
  printers: PrinterPort,
  log: JobsLogger,
  phaseMs: number,
  shouldStop: () => boolean,
  stopping: AbortSignal,
  printerId: string,
): Promise<void> {
  for (;;) {
    if (shouldStop()) return;
    const claimed = await claimNextJob(engine, printerId);
    if (!claimed) return;
    const { printer, job, document } = claimed;
    if (claimed.takenOver) log.warn({ job: 'send-print-jobs', printer: printer.name, id: job.id }, 'print job cut off mid-send by a node whose lease ended: printed again, marked REIMPRESIÓN');
    let outcome: SendOutcome;
    const progress = newSendProgress();
    try {
      const bytes = await renderTicket(document, { widthMm: printer.width_mm, codePage: printer.code_page as PrinterCodePage, reprint: job.reprint === 1 });
      // A node that stalled past its lease (another may have taken the job over) sends nothing.
      if (engine.clock.now() >= claimed.leaseUntil) {
        log.warn({ job: 'send-print-jobs', printer: printer.name, id: job.id }, 'print job lease ended before its send: left to the node that takes it over');
        return;
      }
      // The port keeps its own deadlines; this one only guards against a port that would not.
      await callWithTimeout(`printer "${printer.name}" (${printer.host}:${printer.port})`, sendDeadlineMs(bytes.length, phaseMs) + phaseMs, (signal) =>
        printers.send({ host: printer.host, port: printer.port }, bytes, { signal: AbortSignal.any([signal, stopping]), phaseMs, progress }),
      );
      outcome = { ok: true };
    } catch (error) {
      // Cut short by the engine stopping: left `sending` for the next start (see PrintLanes.stop).
      if (stopping.aborted) return;
      outcome = { ok: false, state: stateOf(error), error: errorText(error), mayHavePrinted: progress.ticketStarted };
      log.warn({ job: 'send-print-jobs', printer: printer.name, id: job.id, err: outcome.error }, 'print job not printed');
    }
    let recorded: Awaited<ReturnType<typeof recordSend>>;
    try {
      recorded = await recordSend(engine, claimed, outcome);
    } catch (error) {
      log.error({ err: error, job: 'send-print-jobs', id: job.id }, 'recording a print job failed');
      return;
    }
    if (recorded === 'lost') {
      log.warn({ job: 'send-print-jobs', printer: printer.name, id: job.id }, 'print job taken over by another node after its lease ended: its outcome is that node\'s');
      return;
    }
    if (recorded === 'set_aside') log.warn({ job: 'send-print-jobs', printer: printer.name, id: job.id }, 'print job set aside: the next ones go on');
    // A job set aside no longer holds the printer's queue: the next one goes now.
    if (recorded === 'retry') return;
  }
}
