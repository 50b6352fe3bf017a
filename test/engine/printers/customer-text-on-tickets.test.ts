// Issue 29: a store-front customer cannot print lines that look like the kitchen's own. A note with
// line breaks of every kind, NUL and control bytes, a long line padded to wrap, read back from the
// ticket's bytes: every line of it is under its item (or under "Nota:"), prefixed, and nothing in
// the bytes is a command the encoder did not write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { customerLines, wrapCustomerText } from '../../../src/engine/printers/customer-text.ts';
import { COLUMNS_BY_WIDTH, renderTicket } from '../../../src/engine/printers/escpos-ticket.ts';
import type { TicketDocument } from '../../../src/engine/printers/print-document.ts';
import { EscPosParser, type PrintedTicket } from '../../support/stand-in-printer.ts';

function parse(bytes: Uint8Array): { tickets: PrintedTicket[]; errors: string[] } {
  const tickets: PrintedTicket[] = [];
  const errors: string[] = [];
  new EscPosParser((t) => tickets.push(t), (e) => errors.push(e)).feed(bytes);
  return { tickets, errors };
}

/** What an attacker types: breaks of every kind, NUL, ESC @, a drawer kick, bidi overrides, padding that wraps. */
const FORGED_ITEM_NOTE = 'sin cebolla\n2 x Churrasco italiano\r\nCANCELADO: NO PREPARAR\u0000\u001b@\u001bp\u0000\u0019\u00fa\u2028#999\u2029\u202e OTRO\u000b1 x Cazuela\fok'
  + `${' '.repeat(60)}3 x Pastel de choclo`;
const FORGED_ORDER_NOTE = 'gracias\n\n--------------------------------\n#77\n\u0000RETIRO';

const doc = (address: string | null = null): TicketDocument => ({
  kind: address === null ? 'ticket' : 'bag',
  number: '128',
  test: false,
  type: 'retiro',
  time: '20:15',
  customer_first_name: `Ana\u0000${'X'.repeat(80)}`,
  scheduled_for: null,
  station: null,
  lines: [{ quantity: 1, name: 'Completo', modifiers: [{ text: 'Agregados: Palta', allergen: false }], notes: FORGED_ITEM_NOTE, notes_allergy: false }],
  notes: FORGED_ORDER_NOTE,
  notes_allergy: false,
  address,
});

for (const widthMm of [58, 80] as const) {
  test(`${widthMm} mm: every line of a forged note is prefixed under its item or under "Nota:", no byte of it reaches the printer raw`, async () => {
    const columns = COLUMNS_BY_WIDTH[widthMm];
    const bytes = await renderTicket(doc(), { widthMm, codePage: 'cp858', reprint: false });
    const { tickets, errors } = parse(bytes);
    // A NUL, ESC or any control byte in the text would be read as a command no ticket uses.
    assert.deepEqual(errors, [], 'only commands the encoder wrote');
    const lines = tickets[0]!.lines.map((l) => l.text);
    const item = lines.findIndex((l) => l === '1 x Completo');
    const rule = lines.findIndex((l, i) => i > item && /^─+$|^-+$/.test(l.trim()) && lines[i + 1] === 'Nota:');
    assert.ok(item >= 0 && rule > item, lines.join('\n'));
    // Between the item and the rule: its modifier, then the note, every line of it prefixed.
    const noteLines = lines.slice(item + 2, rule);
    assert.equal(lines[item + 1], '  - Agregados: Palta');
    assert.equal(noteLines.length, 7, noteLines.join('\n'));
    for (const line of noteLines) assert.match(line, /^ {2}> \S/, `an item note line not prefixed: ${JSON.stringify(line)}`);
    for (const line of lines) assert.ok(line.length <= columns, `${JSON.stringify(line)} is wider than ${columns} columns`);
    assert.ok(noteLines.some((l) => l === '  > 2 x Churrasco italiano'));
    assert.ok(noteLines.some((l) => l.includes('CANCELADO: NO PREPARAR')));
    assert.ok(noteLines.some((l) => l.includes('3 x Pastel de choclo')), 'padding cannot push text to column 0');
    // The order's note: under "Nota:", every line prefixed, to the end of the ticket.
    const orderNote = lines.slice(rule + 2);
    assert.equal(orderNote[0], '  > gracias');
    for (const line of orderNote) assert.match(line, /^ {2}> \S/, `an order note line not prefixed: ${JSON.stringify(line)}`);
    assert.deepEqual(orderNote.slice(-2), ['  > #77', '  > RETIRO']);
    // The first name fits one line at double width, never wrapping to a second.
    const name = tickets[0]!.lines.find((l) => l.text.includes('AnaXX'))!;
    assert.equal(name.width, 2);
    assert.ok(name.text.trim().length <= columns / 2);
  });
}

test('a bag label\'s address is under "Dirección:", prefixed', async () => {
  const { tickets, errors } = parse(await renderTicket(doc('Av. Grecia 1234\n1 x Cazuela\u0000'), { widthMm: 80, codePage: 'cp858', reprint: false }));
  assert.deepEqual(errors, []);
  const lines = tickets[0]!.lines.map((l) => l.text);
  const label = lines.indexOf('Dirección:');
  assert.deepEqual(lines.slice(label + 1), ['  > Av. Grecia 1234', '  > 1 x Cazuela']);
});

test('wrapping: at spaces, mid-word only for a word longer than the line, never past the width', () => {
  assert.deepEqual(wrapCustomerText('uno dos tres cuatro', 8), ['uno dos', 'tres', 'cuatro']);
  assert.deepEqual(wrapCustomerText('abcdefghijkl', 5), ['abcde', 'fghij', 'kl']);
  assert.deepEqual(wrapCustomerText('a\r\n\r\nb\u2028c\u0000d', 10), ['a', 'b', 'cd']);
  assert.deepEqual(customerLines('ñandú', '  > ', 6), ['  > ña', '  > nd', '  > ú']);
});
