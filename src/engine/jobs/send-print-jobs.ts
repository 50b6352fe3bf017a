import { callWithTimeout } from '../adapters/call-with-timeout.ts';
import type { Engine } from '../engine.ts';
import { renderTicket, type PrinterCodePage } from '../printers/escpos-ticket.ts';
import { PrinterError, type PrinterPort } from '../printers/printer-port.ts';
import { errorText } from '../services/error-text.ts';
import { claimNextJob, printersWithJobs, recordSend, settleFallbackJobs } from '../services/print-jobs.ts';
import type { JobsLogger } from './jobs-logger.ts';

/**
 * Sends every due print job: printers side by side, each printer's jobs one after the other in
 * order (claim → send with a timeout, no transaction open → record). A failure leaves that
 * printer's queue for its retry; `shouldStop` is checked between jobs, a send under way is always recorded.
 */
export async function sendDuePrintJobs(
  engine: Engine,
  printers: PrinterPort,
  log: JobsLogger,
  timeoutMs: number,
  shouldStop: () => boolean,
): Promise<void> {
  try {
    settleFallbackJobs(engine);
  } catch (error) {
    log.error({ err: error, job: 'send-print-jobs' }, 'fallback tickets could not be looked at');
  }
  const due = printersWithJobs(engine);
  await Promise.all(
    due.map(async (printerId) => {
      for (;;) {
        if (shouldStop()) return;
        const claimed = claimNextJob(engine, printerId);
        if (!claimed) return;
        const { printer, job, document } = claimed;
        let outcome: Parameters<typeof recordSend>[2];
        const progress = { connected: false, ticketStarted: false };
        try {
          const bytes = await renderTicket(document, { widthMm: printer.width_mm, codePage: printer.code_page as PrinterCodePage, reprint: job.reprint === 1 });
          await callWithTimeout(`printer "${printer.name}" (${printer.host}:${printer.port})`, timeoutMs, (signal) =>
            printers.send({ host: printer.host, port: printer.port }, bytes, signal, progress),
          );
          outcome = { ok: true };
        } catch (error) {
          const state = error instanceof PrinterError && error.failure === 'paper_out' ? 'paper_out' : 'unreachable';
          outcome = { ok: false, state, error: errorText(error), mayHavePrinted: progress.ticketStarted };
          log.warn({ job: 'send-print-jobs', printer: printer.name, id: job.id, err: outcome.error }, 'print job not printed; retried');
        }
        try {
          recordSend(engine, claimed, outcome);
        } catch (error) {
          log.error({ err: error, job: 'send-print-jobs', id: job.id }, 'recording a print job failed');
          return;
        }
        if (!outcome.ok) return;
      }
    }),
  );
}
