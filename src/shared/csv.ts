// CSV as RFC 4180 writes it (comma, CRLF, quotes doubled), for the reports' exports (issue 33). A
// text cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is prefixed with
// an apostrophe: a product or channel name can never become a formula in the manager's sheet.
// Numbers and booleans are written as they are.

export type CsvCell = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The table as CSV text: a header row of `columns`, then one line per row, CRLF-terminated. */
export function csvText(columns: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [columns.map(csvCell).join(','), ...rows.map((row) => row.map(csvCell).join(','))].map((line) => `${line}\r\n`).join('');
}

/** Reads CSV text written by csvText back into its header and rows of strings (quotes undone). */
export function parseCsv(text: string): { columns: string[]; rows: string[][] } {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  const [columns = [], ...rows] = records;
  return { columns, rows };
}
