// Text a customer typed (notes, a first name, an address) as it goes on a kitchen ticket: it can
// never look like the ticket's own lines. Control characters (NUL, ESC, a drawer kick…), Unicode
// format characters (bidi overrides, zero-width) and line separators never reach the encoder; a
// line break starts a new line that carries the same prefix, and long lines are wrapped here, to
// the paper's width after the prefix, so the encoder never wraps one back to column 0.

/** Line breaks of every kind a customer's text may carry. */
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/u;
/** Control (C0, DEL, C1) and format characters: bytes only the encoder may emit, and invisible tricks. */
const NOT_TEXT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** One line of customer text with nothing in it that is not text (tabs become spaces). */
export function cleanLine(text: string): string {
  return text.replace(/\t/gu, ' ').replace(NOT_TEXT, '').replace(/ {2,}/gu, ' ').trim();
}

/** The customer's text as lines of at most `width` characters each, empty lines dropped. */
export function wrapCustomerText(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const raw of text.split(LINE_BREAKS)) {
    const line = cleanLine(raw);
    if (line === '') continue;
    let rest = Array.from(line);
    while (rest.length > width) {
      // Break at the last space that fits, or mid-word when a word is longer than the line.
      const space = rest.slice(0, width + 1).lastIndexOf(' ');
      const cut = space > 0 ? space : width;
      lines.push(rest.slice(0, cut).join('').trimEnd());
      rest = rest.slice(cut);
      while (rest[0] === ' ') rest = rest.slice(1);
    }
    if (rest.length > 0) lines.push(rest.join(''));
  }
  return lines;
}

/**
 * The customer's text as ticket lines, each starting with `prefix` (what marks it as the
 * customer's: "  > " under an item), never longer than `columns`.
 */
export function customerLines(text: string, prefix: string, columns: number): string[] {
  return wrapCustomerText(text, Math.max(1, columns - Array.from(prefix).length)).map((line) => `${prefix}${line}`);
}

/** A single word or short value (a first name) cut to fit one line: it can never wrap to a second. */
export function oneLine(text: string, columns: number): string {
  return Array.from(cleanLine(text)).slice(0, columns).join('');
}
