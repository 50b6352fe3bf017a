// "Imprimir prueba" (Ajustes → Impresoras, `npm run printers -- test`): a page with the printer's
// name, its columns and every Spanish letter, sent at once (not queued behind tickets), outside any
// transaction; what the printer answered becomes its state, and what came back is reported as it
// was (its first bytes in hex), never taken for a printer's answer unless it is one.
import { DateTime } from 'luxon';
import type { PrinterEntry } from '../../../shared/screen-contract/printers.ts';
import { callWithTimeout } from '../../adapters/call-with-timeout.ts';
import type { Engine } from '../../engine.ts';
import { renderTicket, type PrinterCodePage } from '../../printers/escpos-ticket.ts';
import { hexBytes } from '../../printers/paper-status.ts';
import { newSendProgress, PrinterError, sendDeadlineMs, type PrinterFailure, type PrinterPort } from '../../printers/printer-port.ts';
import type { TicketDocument } from '../../printers/print-document.ts';
import { errorText } from '../error-text.ts';
import { DEFAULT_PRINT_TIMEOUT_MS } from './print-jobs.ts';
import { findPrinter, listPrinters } from './printers.ts';

export interface TestPageResult {
  printed: boolean;
  error: string | null;
  /**
   * It failed although the printer took the connection: what listens there did not answer the
   * paper status question (DLE EOT 4) in time. Not an ESC/POS printer, or one set not to answer:
   * checking that it is switched on and on the network would not help.
   */
  silent: boolean;
  /** What it failed on (printers/printer-port.ts); null when it printed. */
  failure: PrinterFailure | null;
  /** The first bytes that came back, in hex ("12 12"): exactly what answered. */
  reply: string;
  /** How many bytes came back in all. */
  reply_bytes: number;
  printer: PrinterEntry;
}

/** `printers`: the host's printer port (Providers.printers). */
export async function printTestPage(
  engine: Engine,
  printers: PrinterPort,
  restaurantId: string,
  idOrName: string,
  timeoutMs = DEFAULT_PRINT_TIMEOUT_MS,
): Promise<TestPageResult> {
  const { printer, zone } = await engine.read(async (tx) => ({
    printer: await findPrinter(engine, tx, restaurantId, idOrName),
    zone: (await tx.stores.restaurants.get(restaurantId))!.time_zone,
  }));
  const doc: TicketDocument = {
    kind: 'test', number: printer.name, test: false, type: null,
    time: DateTime.fromMillis(engine.clock.now(), { zone }).toFormat('dd-MM-yyyy HH:mm'),
    customer_first_name: null, scheduled_for: null, station: null, lines: [], notes: null, notes_allergy: false, address: null,
  };
  const bytes = await renderTicket(doc, { widthMm: printer.width_mm, codePage: printer.code_page as PrinterCodePage, reprint: false });
  let error: string | null = null;
  let state: 'ok' | 'unreachable' | 'paper_out' = 'ok';
  let failure: PrinterFailure | null = null;
  const progress = newSendProgress();
  try {
    // The port keeps its own deadlines (timeoutMs a phase); this one only guards against a port that would not.
    await callWithTimeout(`printer "${printer.name}" (${printer.host}:${printer.port})`, sendDeadlineMs(bytes.length, timeoutMs) + timeoutMs, (signal) =>
      printers.send({ host: printer.host, port: printer.port }, bytes, { signal, phaseMs: timeoutMs, progress }),
    );
  } catch (thrown) {
    error = errorText(thrown);
    failure = thrown instanceof PrinterError ? thrown.failure : progress.connected ? 'no_answer' : 'unreachable';
    state = failure === 'paper_out' ? 'paper_out' : 'unreachable';
  }
  // Took the connection and sent nothing back: not a printer that is switched off, nor one that answers wrong.
  const silent = failure === 'no_answer' && progress.replyBytes === 0;
  await engine.transaction(async (tx) => await tx.stores.printers.setState(printer.id, state, error, engine.clock.now()));
  const entry = (await listPrinters(engine, restaurantId)).find((p) => p.id === printer.id)!;
  return { printed: error === null, error, silent, failure, reply: hexBytes(progress.reply), reply_bytes: progress.replyBytes, printer: entry };
}
