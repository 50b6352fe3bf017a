// Kitchen printers as the desktop's Ajustes → Impresoras, the board's status strip and the printers
// CLI show them.

export const PRINT_WHEN = ['arrival', 'fallback', 'bag'] as const;
/** arrival: every ticket of its stations as it comes in; fallback: only while none of its stations' screens is live; bag: a label when a delivery is bumped to listo. */
export type PrintWhen = (typeof PRINT_WHEN)[number];

/** unknown: never contacted; unreachable: the last send did not get through; paper_out: the printer said so. */
export type PrinterState = 'unknown' | 'ok' | 'unreachable' | 'paper_out';

export interface PrinterEntry {
  id: string;
  name: string;
  host: string;
  port: number;
  width_mm: 58 | 80;
  code_page: string;
  /** Station ids it prints for; empty: every station. */
  stations: string[];
  when: PrintWhen[];
  /** For `fallback`: how long its stations' screens must all have been gone. */
  fallback_seconds: number;
  state: PrinterState;
  state_detail: string | null;
  /** ISO-8601 in the restaurant's zone. */
  state_at: string | null;
  /** Jobs waiting to print (queued or being sent). */
  queued: number;
  /** Jobs set aside: sent a few times without the printer confirming them; printed again only on Reintentar. */
  set_aside: number;
}

/**
 * What a send failed on. unreachable: nothing took the connection, or it dropped; paper_out: the
 * printer said so; no_answer: something took the connection but did not answer the paper question
 * in time; not_a_printer: what answered is not a printer's status (a web page, a stream, garbage).
 */
export type PrinterFailure = 'unreachable' | 'paper_out' | 'no_answer' | 'not_a_printer';

/** What the board's status strip says about printing: one entry per printer with something to say. */
export interface PrintStatus {
  printer_id: string;
  name: string;
  state: PrinterState;
  queued: number;
  /** Tickets set aside after a few sends the printer never confirmed (see PrinterEntry). */
  set_aside: number;
}
