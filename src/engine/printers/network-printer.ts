// Sending bytes to an ESC/POS printer over raw TCP (port 9100 by convention), outside any
// transaction, trusting nothing that answers at the printer's address. Before the ticket, DLE EOT 4
// asks the printer's paper sensor (answered at once, even while it prints); after it, the same
// question again: its answer can only come once every byte before it has reached the printer, so
// a ticket is counted printed only then, and only when that answer is a paper status byte saying
// paper present (paper-status.ts). Memory is O(1) whatever comes back: bytes are counted, a few kept
// to say what answered, and a device sending more than a printer ever would is cut off. Every phase
// has a deadline, and so has the socket's whole life: it is destroyed, never left half-closed.
import { Socket } from 'node:net';
import { hexBytes, PAPER_STATUS_QUESTION, parsePaperStatus, type PaperStatus } from './paper-status.ts';
import {
  newSendProgress,
  PrinterError,
  REPLY_SAMPLE_BYTES,
  sendDeadlineMs,
  ticketAnswerDeadlineMs,
  type PrinterAddress,
  type PrinterFailure,
  type PrinterPort,
  type SendOptions,
} from './printer-port.ts';

/** Bytes a printer may send beyond its answers (none are expected) before the connection is ended as not a printer's. */
export const UNASKED_BYTES_ALLOWED = 8;

/** The printer port over raw TCP: what a restaurant's printers are reached with (Providers.printers). */
export const networkPrinter: PrinterPort = { send: sendToPrinter };

interface Question {
  resolve: (status: PaperStatus) => void;
}

/** PrinterPort.send over raw TCP (see there). */
async function sendToPrinter(address: PrinterAddress, bytes: Uint8Array, options: SendOptions): Promise<void> {
  const { signal, phaseMs } = options;
  const progress = options.progress ?? newSendProgress();
  progress.reply ??= [];
  progress.replyBytes ??= 0;
  const reply = progress.reply;
  const where = `${address.host}:${address.port}`;
  const socket = new Socket();
  socket.setNoDelay(true);

  let failure: Error | null = null;
  let question: Question | null = null;
  let answers = 0;
  let rejectWaiting: ((error: Error) => void) | null = null;
  const timers = new Set<NodeJS.Timeout>();
  const clearTimers = () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
  /**
   * Closes the connection both ways at once with a reset: nothing is left half-open on either side
   * (a plain close would leave ours waiting in FIN-WAIT-2 on a device that never closes its own).
   */
  const kill = () => {
    if (socket.destroyed) return;
    if (socket.readyState === 'open' || socket.readyState === 'readOnly' || socket.readyState === 'writeOnly') socket.resetAndDestroy();
    else socket.destroy();
  };
  /** Ends the send: the socket is closed both ways at once, whatever waits is told why. */
  const fail = (error: Error) => {
    failure ??= error;
    kill();
    rejectWaiting?.(failure);
    rejectWaiting = null;
  };
  const printerError = (kind: PrinterFailure, message: string) => new PrinterError(kind, `printer ${where}: ${message}`);
  const sample = () => (reply.length === 0 ? 'nothing' : `${hexBytes(reply)}${progress.replyBytes! > reply.length ? ' …' : ''}`);

  // The socket's whole life: whatever phase it is in, it is destroyed then.
  const lifeMs = sendDeadlineMs(bytes.length, phaseMs);
  const life = setTimeout(() => fail(printerError(progress.connected ? 'no_answer' : 'unreachable', `not done within ${lifeMs} ms`)), lifeMs);
  timers.add(life);

  socket.on('data', (chunk: Buffer) => {
    progress.replyBytes! += chunk.length;
    for (let i = 0; i < chunk.length && reply.length < REPLY_SAMPLE_BYTES; i++) reply.push(chunk[i]!);
    if (question) {
      // The first byte after a question is its answer; whatever came before it was stale, and is gone.
      const asked = question;
      question = null;
      answers++;
      const status = parsePaperStatus(chunk[0]!);
      if (status === null) {
        fail(printerError('not_a_printer', `answered the paper status question with ${sample()}, not a printer's status`));
        return;
      }
      asked.resolve(status);
    }
    if (progress.replyBytes! - answers > UNASKED_BYTES_ALLOWED) {
      fail(printerError('not_a_printer', `sends what no printer sends unasked (${progress.replyBytes} bytes: ${sample()})`));
    }
  });
  socket.on('error', (error) => fail(printerError('unreachable', error.message)));
  socket.on('close', () => fail(printerError('unreachable', 'closed the connection')));
  const onAbort = () => fail(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });

  /** Waits for `start`'s outcome for at most `ms`; on the deadline, the send fails with `late`. */
  const phase = <T>(ms: number, late: () => Error, start: (resolve: (value: T) => void) => void): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (failure) return reject(failure);
      const timer = setTimeout(() => fail(late()), ms);
      timers.add(timer);
      rejectWaiting = (error) => {
        clearTimeout(timer);
        reject(error);
      };
      start((value) => {
        clearTimeout(timer);
        timers.delete(timer);
        rejectWaiting = null;
        resolve(value);
      });
    });

  /** Asks the paper sensor (after `before`, if any) and reads its answer, strictly. */
  const askPaper = async (ms: number, before: Uint8Array | null): Promise<void> => {
    const status = await phase<PaperStatus>(ms, () => printerError('no_answer', `did not answer the paper status question (DLE EOT 4) within ${ms} ms; it sent ${sample()}`), (resolve) => {
      question = { resolve };
      if (before) socket.write(before);
      socket.write(PAPER_STATUS_QUESTION);
    });
    // Something after the answer ended the send (a flood, a reset): it does not go on as if answered.
    if (failure) throw failure;
    if (status === 'end') throw printerError('paper_out', 'out of paper');
  };

  try {
    await phase<void>(phaseMs, () => printerError('unreachable', `no connection within ${phaseMs} ms`), (resolve) => {
      socket.once('connect', () => resolve());
      socket.connect({ host: address.host, port: address.port });
    });
    progress.connected = true;
    await askPaper(phaseMs, null);
    // From here a failure may leave part of the ticket on paper: its next try is marked a reprint.
    progress.ticketStarted = true;
    await askPaper(ticketAnswerDeadlineMs(bytes.length, phaseMs), bytes);
  } catch (error) {
    fail(error instanceof Error ? error : new Error(String(error)));
    throw failure ?? error;
  } finally {
    signal.removeEventListener('abort', onAbort);
    socket.removeAllListeners('close');
    socket.on('error', () => {});
    if (failure) {
      clearTimers();
    } else {
      // Printed: our side ends, and the printer has a phase to close its own before the connection is reset.
      clearTimers();
      const closing = setTimeout(kill, phaseMs);
      socket.once('close', () => clearTimeout(closing));
      socket.end();
    }
  }
}
