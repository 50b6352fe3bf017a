// Sending bytes to an ESC/POS printer over raw TCP (port 9100 by convention), outside any
// transaction. Before the ticket, DLE EOT 4 asks the printer's paper sensor (answered at once, even
// while it prints); after it, the same question again: its answer can only come once every byte
// before it has reached the printer, so a ticket is counted printed only then.
import { connect } from 'node:net';
import { PrinterError, type PrinterAddress, type PrinterPort, type SendProgress } from './printer-port.ts';

/** DLE EOT 4: real-time status, roll paper sensor. */
const PAPER_STATUS = Uint8Array.of(0x10, 0x04, 0x04);
/** Bits 5 and 6 of that answer: paper end detected. */
const PAPER_END = 0x60;

/** The printer port over raw TCP: what a restaurant's printers are reached with (Providers.printers). */
export const networkPrinter: PrinterPort = { send: sendToPrinter };

/** PrinterPort.send over raw TCP (see there). */
async function sendToPrinter(
  address: PrinterAddress,
  bytes: Uint8Array,
  signal: AbortSignal,
  progress: SendProgress = { connected: false, ticketStarted: false },
): Promise<void> {
  const socket = connect({ host: address.host, port: address.port });
  socket.setNoDelay(true);
  const where = `${address.host}:${address.port}`;
  const replies: number[] = [];
  let waiting: { resolve: (byte: number) => void; reject: (error: unknown) => void } | null = null;
  let failure: unknown = null;
  const fail = (error: unknown) => {
    if (failure === null) failure = error;
    waiting?.reject(failure);
    waiting = null;
  };
  socket.on('data', (chunk: Buffer) => {
    for (const byte of chunk) replies.push(byte);
    if (waiting && replies.length > 0) {
      waiting.resolve(replies.shift()!);
      waiting = null;
    }
  });
  socket.on('error', (error) => fail(new PrinterError('unreachable', `printer ${where}: ${error.message}`)));
  socket.on('close', () => fail(new PrinterError('unreachable', `printer ${where} closed the connection`)));
  const onAbort = () => {
    fail(signal.reason ?? new Error('aborted'));
    socket.destroy();
  };
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  const nextReply = (): Promise<number> => {
    if (replies.length > 0) return Promise.resolve(replies.shift()!);
    if (failure !== null) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      waiting = { resolve, reject };
    });
  };
  const write = (data: Uint8Array): Promise<void> =>
    new Promise((resolve, reject) => {
      if (failure !== null) return reject(failure);
      socket.write(data, (error) => (error ? reject(new PrinterError('unreachable', `printer ${where}: ${error.message}`)) : resolve()));
    });
  try {
    await new Promise<void>((resolve, reject) => {
      if (failure !== null) return reject(failure);
      socket.once('connect', resolve);
      waiting = { resolve: () => {}, reject };
    });
    waiting = null;
    progress.connected = true;
    await write(PAPER_STATUS);
    const before = await nextReply();
    if ((before & PAPER_END) === PAPER_END) throw new PrinterError('paper_out', `printer ${where} is out of paper`);
    // From here a failure may leave part of the ticket on paper: its next try is marked a reprint.
    progress.ticketStarted = true;
    await write(bytes);
    await write(PAPER_STATUS);
    await nextReply();
  } finally {
    signal.removeEventListener('abort', onAbort);
    socket.removeAllListeners('close');
    socket.on('error', () => {});
    socket.end();
  }
}

