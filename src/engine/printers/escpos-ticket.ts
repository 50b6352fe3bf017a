// A ticket as ESC/POS bytes for one printer, through @point-of-sale/receipt-printer-encoder (no
// hand-written bytes): its width (58 mm: 32 columns, 80 mm: 48) and its code page (cp858 by
// default: ñ á é í ó ú ü ¿ ¡ and the capitals, on Epson's table numbering, which the clones follow).
import { cleanLine, customerLines, oneLine } from './customer-text.ts';
import type { TicketDocument } from './print-document.ts';

/** Code pages offered: each prints Spanish right on an Epson-numbered printer (ESC t 19, 2 and 16). */
export const PRINTER_CODE_PAGES = ['cp858', 'cp850', 'windows1252'] as const;
export type PrinterCodePage = (typeof PRINTER_CODE_PAGES)[number];

export const COLUMNS_BY_WIDTH: Record<58 | 80, number> = { 58: 32, 80: 48 };

export interface RenderOptions {
  widthMm: 58 | 80;
  codePage: PrinterCodePage;
  /** A ticket printed again (Reimprimir, or a send cut off by a crash). */
  reprint: boolean;
}

const TYPE_LABEL = { retiro: 'RETIRO', delivery: 'DELIVERY' } as const;

/**
 * The encoder is loaded with the first ticket: an engine with no printer does not carry it (about
 * 1 MB of the serving process's heap; docs/performance.md, "Row 4's memory").
 */
export async function renderTicket(doc: TicketDocument, options: RenderOptions): Promise<Uint8Array> {
  const { default: ReceiptPrinterEncoder } = await import('@point-of-sale/receipt-printer-encoder');
  const columns = COLUMNS_BY_WIDTH[options.widthMm];
  const e = new ReceiptPrinterEncoder({ language: 'esc-pos', columns, codepageMapping: 'epson', newline: '\n', feedBeforeCut: 4 });
  e.initialize().codepage(options.codePage);
  if (options.reprint) e.align('center').invert(true).bold(true).line(' REIMPRESIÓN ').bold(false).invert(false);
  if (doc.test) e.align('center').invert(true).bold(true).line(' PRUEBA ').bold(false).invert(false);
  if (doc.kind === 'test') {
    e.align('center').bold(true).line('Impresora de prueba').bold(false).line(doc.number)
      .line('ñ á é í ó ú ü ¿ ¡ Ñ Á É Í Ó Ú Ü')
      .line(`${columns} columnas`).line(doc.time);
    return e.cut().encode();
  }
  // The number as big as the printer makes it, then what kind of order and when.
  e.align('center').size(3, 3).bold(true).line(`#${doc.number}`).size(1, 1);
  if (doc.kind === 'bag') e.line('BOLSA');
  if (doc.type) e.size(2, 1).line(TYPE_LABEL[doc.type]).size(1, 1);
  e.bold(false).line(doc.time);
  // Double width: half the columns, cut to one line so it never wraps.
  if (doc.customer_first_name) e.size(2, 1).line(oneLine(doc.customer_first_name, Math.floor(columns / 2))).size(1, 1);
  if (doc.scheduled_for) e.invert(true).bold(true).line(` PROGRAMADO ${doc.scheduled_for} `).bold(false).invert(false);
  if (doc.station) e.line(`[${doc.station}]`);
  e.align('left').rule({ style: 'single' });
  // Customer text (notes, an address) only ever under its item or its label, each line prefixed
  // (customer-text.ts): nothing a customer types starts a line of the kitchen's own.
  const customer = (text: string, prefix: string, allergy: boolean) => {
    for (const line of customerLines(text, prefix, columns)) {
      if (allergy) e.invert(true).bold(true).line(line).bold(false).invert(false);
      else e.line(line);
    }
  };
  for (const line of doc.lines) {
    e.bold(true).size(1, 2).line(`${line.quantity} x ${cleanLine(line.name)}`).size(1, 1).bold(false);
    for (const modifier of line.modifiers) {
      if (modifier.allergen) e.invert(true).bold(true).line(`  ! ${cleanLine(modifier.text)}`).bold(false).invert(false);
      else e.line(`  - ${cleanLine(modifier.text)}`);
    }
    if (line.notes) customer(line.notes, line.notes_allergy ? '  ! ' : '  > ', line.notes_allergy);
  }
  if (doc.notes) {
    e.rule({ style: 'single' }).line('Nota:');
    customer(doc.notes, doc.notes_allergy ? '  ! ' : '  > ', doc.notes_allergy);
  }
  if (doc.kind === 'bag' && doc.address) {
    e.rule({ style: 'single' }).line('Dirección:');
    customer(doc.address, '  > ', false);
  }
  return e.cut().encode();
}
