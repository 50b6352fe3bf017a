// What a printed ticket says, as plain data: written into the print job when the job is written (so
// a ticket prints what the kitchen had then), rendered to ESC/POS for one printer when it is sent.

export interface PrintLine {
  quantity: number;
  name: string;
  /** Each chosen modifier ("Punto: a la inglesa"), flagged when the restaurant marks it an allergen. */
  modifiers: { text: string; allergen: boolean }[];
  notes: string | null;
  /** The note mentions an allergy (shared/allergy-notes.ts): printed in reverse like an allergen. */
  notes_allergy: boolean;
}

export interface TicketDocument {
  kind: 'ticket' | 'bag' | 'test';
  /** The order's number as the kitchen calls it ("45"); the printer's name on a test page. */
  number: string;
  /** True for an order made with a test key: PRUEBA on the ticket. */
  test: boolean;
  type: 'retiro' | 'delivery' | null;
  /** Local time the order came in, "HH:mm". */
  time: string;
  customer_first_name: string | null;
  /** Local date and time of a scheduled order, "dd-MM HH:mm"; null when it is for now. */
  scheduled_for: string | null;
  /** The station(s) whose items these are ("Plancha"); null for every station. */
  station: string | null;
  lines: PrintLine[];
  /** The order's own note. */
  notes: string | null;
  notes_allergy: boolean;
  /** Bag labels: the delivery address. */
  address: string | null;
}

/** The first word of a customer's name: what the kitchen calls out, and no more. */
export function firstName(name: string | null): string | null {
  const first = name?.trim().split(/\s+/u)[0] ?? '';
  return first === '' ? null : first;
}
