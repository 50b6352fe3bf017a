// How a ticket's bytes reach a kitchen printer: the port the jobs runner (print jobs) and "Imprimir
// prueba" call, outside any transaction. The host picks it once, with the other providers
// (engine/providers.ts); the network printer (raw TCP, network-printer.ts) is the default.

import type { PrinterFailure } from '../../shared/screen-contract/printers.ts';

export type { PrinterFailure };

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
  /** The first bytes that came back (at most REPLY_SAMPLE_BYTES of them), for `printers test`. */
  reply?: number[];
  /** How many bytes came back in all (what was kept of them is `reply`). */
  replyBytes?: number;
}

/** How many of the bytes that came back are kept to say what answered. */
export const REPLY_SAMPLE_BYTES = 16;

/** A fresh progress record for one send. */
export const newSendProgress = (): Required<SendProgress> => ({ connected: false, ticketStarted: false, reply: [], replyBytes: 0 });

/**
 * The slowest a printer is expected to take a ticket in: about what a cheap 80 mm/s thermal
 * printer prints of plain text. A ticket's answer may take its size at this rate on top of the
 * phase deadline, so a long ticket on a slow printer completes instead of timing out forever.
 */
export const SLOWEST_PRINTER_BYTES_PER_SECOND = 512;

/** How long the printer may take to answer after the ticket: the phase deadline plus its size at the slowest rate. */
export function ticketAnswerDeadlineMs(ticketBytes: number, phaseMs: number): number {
  return phaseMs + Math.ceil((ticketBytes * 1000) / SLOWEST_PRINTER_BYTES_PER_SECOND);
}

/** The whole life of one send's socket: connecting, the paper question, the ticket and its answer, closing. */
export function sendDeadlineMs(ticketBytes: number, phaseMs: number): number {
  return 3 * phaseMs + ticketAnswerDeadlineMs(ticketBytes, phaseMs);
}

export interface SendOptions {
  /** Aborts the send (the engine stops): the socket is destroyed at once. */
  signal: AbortSignal;
  /** The deadline (real time) of each phase: connecting, the paper question, closing; the ticket's grows with its size. */
  phaseMs: number;
  /** How far the send got (see SendProgress), filled in as it goes. */
  progress?: SendProgress;
}

export interface PrinterPort {
  /**
   * Sends `bytes` to the printer at `address` and resolves once the printer has acknowledged them
   * with its paper status, paper present; rejects with PrinterError or the signal's reason. No
   * socket outlives sendDeadlineMs(bytes.length, phaseMs).
   */
  send(address: PrinterAddress, bytes: Uint8Array, options: SendOptions): Promise<void>;
}
