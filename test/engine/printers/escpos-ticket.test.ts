// The ticket's ESC/POS bytes read back by the stand-in printer's parser: every code page offered
// prints the Spanish letters, both widths keep to their columns, and the marks a cook needs are there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COLUMNS_BY_WIDTH, PRINTER_CODE_PAGES, renderTicket } from '../../../src/engine/printers/escpos-ticket.ts';
import type { TicketDocument } from '../../../src/engine/printers/print-document.ts';
import { EscPosParser, type PrintedTicket } from '../../support/stand-in-printer.ts';

const SPANISH = 'ñ á é í ó ú ü ¿ ¡ Ñ Á É Í Ó Ú Ü';

function parse(bytes: Uint8Array): { tickets: PrintedTicket[]; errors: string[] } {
  const tickets: PrintedTicket[] = [];
  const errors: string[] = [];
  new EscPosParser((t) => tickets.push(t), (e) => errors.push(e)).feed(bytes);
  return { tickets, errors };
}

const doc: TicketDocument = {
  kind: 'ticket',
  number: '128',
  test: true,
  type: 'delivery',
  time: '20:15',
  customer_first_name: 'Ñandú',
  scheduled_for: '21-11 21:30',
  station: 'Plancha',
  lines: [
    {
      quantity: 2,
      name: 'Completo italiano con palta extra y mayonesa casera',
      modifiers: [
        { text: 'Agregados: Ají verde', allergen: false },
        { text: 'Agregados: Maní tostado', allergen: true },
      ],
      notes: `sin cebolla ${SPANISH}`,
      notes_allergy: false,
    },
  ],
  notes: '¿Cubiertos? ¡Sí!',
  notes_allergy: false,
  address: null,
};

for (const codePage of PRINTER_CODE_PAGES) {
  for (const widthMm of [58, 80] as const) {
    test(`${codePage} at ${widthMm} mm: Spanish letters intact, marks in place, ${COLUMNS_BY_WIDTH[widthMm]} columns`, async () => {
      const { tickets, errors } = parse(await renderTicket(doc, { widthMm, codePage, reprint: true }));
      assert.deepEqual(errors, []);
      assert.equal(tickets.length, 1);
      const [ticket] = tickets;
      const all = ticket!.text.join('\n');
      assert.ok(ticket!.cut);
      assert.ok(ticket!.lines.find((l) => l.text.includes('REIMPRESIÓN'))?.inverted);
      assert.ok(ticket!.lines.find((l) => l.text.includes('PRUEBA'))?.inverted, 'a test order says so');
      assert.ok(ticket!.lines.find((l) => l.text.includes('PROGRAMADO 21-11 21:30'))?.inverted, 'the scheduled time stands out');
      assert.ok(ticket!.lines.find((l) => l.text.includes('Maní tostado'))?.inverted, 'an allergen in reverse print');
      assert.equal(ticket!.lines.find((l) => l.text.includes('Ají verde'))?.inverted, false);
      assert.match(all, /#128/);
      assert.match(all, /DELIVERY/);
      assert.match(all, /Ñandú/);
      // A note wraps under its item, each line prefixed "  > " (customer-text.ts): read back as one text.
      assert.match(all.replace(/\n {2}> /g, ' ').replace(/\s+/g, ' '), new RegExp(SPANISH.replace(/[¿?]/g, '.')));
      assert.match(all, /¿Cubiertos\? ¡Sí!/);
      for (const line of ticket!.lines) {
        const text = line.text.trimStart();
        assert.ok(line.text.length - text.length + text.length * line.width <= COLUMNS_BY_WIDTH[widthMm], `fits: ${JSON.stringify(line.text)}`);
      }
    });
  }
}
