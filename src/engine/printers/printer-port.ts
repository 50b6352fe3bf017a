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

/** How far a send got, set by the port as it goes: what the caller reads when it failed. */
export interface SendProgress {
  /** The printer took the connection: a send that then fails on the deadline met something that does not answer. */
  connected: boolean;
  /** Some of the ticket had left: its next try is marked REIMPRESIÓN. */
  ticketStarted: boolean;
}

export interface PrinterPort {
  /**
   * Sends `bytes` to the printer at `address` and resolves once the printer has acknowledged them;
   * rejects with PrinterError (unreachable, paper out) or the signal's reason (the caller's deadline).
   * `progress` tells the caller how far a failed send got (see SendProgress).
   */
  send(address: PrinterAddress, bytes: Uint8Array, signal: AbortSignal, progress?: SendProgress): Promise<void>;
}
