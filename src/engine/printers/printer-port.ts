// How a ticket's bytes reach a kitchen printer: the port the jobs runner (print jobs) and "Imprimir
// prueba" call, outside any transaction. The host picks it once, with the other providers
// (engine/providers.ts); the network printer (raw TCP, network-printer.ts) is the default.

export type PrinterFailure = 'unreachable' | 'paper_out';

/** What a send failed on; anything else thrown (the caller's deadline) counts as unreachable. */
export class PrinterError extends Error {
  readonly failure: PrinterFailure;
  constructor(failure: PrinterFailure, message: string) {
    super(message);
    this.name = 'PrinterError';
    this.failure = failure;
  }
}

export interface PrinterAddress {
  host: string;
  port: number;
}

export interface PrinterPort {
  /**
   * Sends `bytes` to the printer at `address` and resolves once the printer has acknowledged them;
   * rejects with PrinterError (unreachable, paper out) or the signal's reason (the caller's deadline).
   * `progress.ticketStarted` tells the caller whether any of the ticket had left when it failed (its
   * next try is then marked REIMPRESIÓN).
   */
  send(address: PrinterAddress, bytes: Uint8Array, signal: AbortSignal, progress?: { ticketStarted: boolean }): Promise<void>;
}
