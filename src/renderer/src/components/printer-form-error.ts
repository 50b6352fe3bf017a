// Which field of Ajustes → Impresoras' form the engine refused, read from its invalid_request
// message: the channel's schema says "printers:add: port must be …", the printers service "host: …".
// The panel then names that field in Spanish and marks it; the engine keeps every rule.

export type PrinterField = 'name' | 'host' | 'port' | 'width' | 'stations' | 'when';

const FIELD = /^(?:printers:add: )?(name|host|port|width_mm|width|stations|when)\b/;

export function refusedPrinterField(code: string | null, message: string): PrinterField | null {
  if (code !== 'invalid_request') return null;
  const field = FIELD.exec(message)?.[1];
  if (!field) return null;
  return field === 'width_mm' ? 'width' : (field as PrinterField);
}

/** A port as typed: a whole number, or null (then the panel says so before asking the engine). */
export function typedPort(text: string): number | null {
  const trimmed = text.trim();
  return /^[0-9]{1,5}$/.test(trimmed) ? Number(trimmed) : null;
}
